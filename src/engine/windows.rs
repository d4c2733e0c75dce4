//! The load windows (10 s, the KEP's): times counted per window, a periodic
//! tail by arithmetic, and windows added up.

use std::borrow::Cow;

use super::backoff::Ms;
use super::times::Times;

/// The window the KEP counts API load in.
pub const LOAD_WINDOW_MS: Ms = 10_000;
/// "The first five minutes" of the KEP's excess-restart figures.
pub const FIRST_MINUTES_MS: Ms = 300_000;

pub(crate) fn windows_of(horizon: Ms) -> usize {
    horizon.div_ceil(LOAD_WINDOW_MS).max(1) as usize
}

/// `lists` lists of `n` windows at 0, each allocated zeroed: `vec![v; k]`
/// would copy the first list's day of windows into each of the others.
pub(crate) fn zeroed(lists: usize, n: usize) -> Vec<Vec<u64>> {
    (0..lists).map(|_| vec![0; n]).collect()
}

/// Restarts in each of `n` load windows (the last takes any later ones).
pub(crate) fn per_window(restarts: &Times, n: usize) -> Vec<u64> {
    let mut own = vec![0; n.max(1)];
    count_per_window(restarts, &mut own);
    own
}

/// The load window `t` falls in, of windows up to `last` (which takes any
/// later time).
pub(crate) fn window_of(t: Ms, last: usize) -> usize {
    usize::try_from(t / LOAD_WINDOW_MS).map_or(last, |w| w.min(last))
}

/// Writes the values in each load window to `own` (the last takes any
/// later ones). Fewer values than windows (a long cap, the events sent) are
/// each put in their window. Otherwise each window counts on from where the
/// last stopped, a periodic tail by arithmetic (`Times::below_rising`), so no
/// restart of it is visited (a day at a 1 s cap is 86,400), and windows
/// whose counts repeat those a period before (`Times::window_repeats`) are
/// copies of that period.
pub(crate) fn count_per_window(times: &Times, own: &mut [u64]) {
    let Some(last) = own.len().checked_sub(1) else {
        return;
    };
    if times.len() < own.len() {
        // Only here are windows added to rather than written.
        own.fill(0);
        for t in times.iter() {
            own[window_of(t, last)] += 1;
        }
        return;
    }
    // Windows from `start` on, counted on from `before` below the first's start.
    let count = |own: &mut [u64], start: usize, mut before: usize| {
        let mut below = times.below_rising();
        let mut end = start as Ms * LOAD_WINDOW_MS;
        for slot in own.iter_mut() {
            end += LOAD_WINDOW_MS;
            // The walk never counts fewer below a higher bound (pinned against
            // the plain count natively and in each browser); were a wasm engine
            // ever to compute it so (WebKit once did), the plain
            // count stands in: no panic, no wrapped count.
            let mut k = below.below(end);
            if k < before {
                k = times.count_below(end).max(before);
            }
            *slot = (k - before) as u64;
            before = k;
        }
        before
    };
    let copied = match times.window_repeats(LOAD_WINDOW_MS) {
        Some((range, period)) if range.start < last => {
            let (from, to) = (range.start, range.end.min(last));
            count(&mut own[..from], 0, 0);
            // The period before `from`, copied on in ever longer runs (each
            // a whole number of periods).
            let mut done = from;
            while done < to {
                let run = (done - (from - period)).min(to - done);
                own.copy_within(from - period..from - period + run, done);
                done += run;
            }
            to
        }
        _ => 0,
    };
    let before = times.count_below(copied as Ms * LOAD_WINDOW_MS);
    let before = count(&mut own[copied..], copied, before);
    own[last] += times.len().saturating_sub(before) as u64;
}

/// `from` added to `to` (or taken off), window by window: indexed in a
/// plain loop, which opt-level "z" keeps free of calls.
pub(crate) fn add_windows(to: &mut [u64], from: &[u64], take: bool) {
    // Both cut to one length, so that no index is checked.
    let n = to.len().min(from.len());
    let (to, from) = (&mut to[..n], &from[..n]);
    let mut w = 0;
    if take {
        while w < n {
            to[w] -= from[w];
            w += 1;
        }
    } else {
        while w < n {
            to[w] += from[w];
            w += 1;
        }
    }
}

/// The first `n` windows summed (all of them, past the end), in a plain
/// loop: opt-level "z" made the iterator's sum a call per window, a tenth
/// of a day's `explore` (a day is 8,640 windows a kind). Four sums apart,
/// so that no addition waits for the one before it.
pub fn total(windows: &[u64], n: usize) -> u64 {
    let windows = &windows[..n.min(windows.len())];
    let (mut sums, mut w) = ([0u64; 4], 0);
    while w + 4 <= windows.len() {
        let four = &windows[w..w + 4];
        sums[0] += four[0];
        sums[1] += four[1];
        sums[2] += four[2];
        sums[3] += four[3];
        w += 4;
    }
    while w < windows.len() {
        sums[0] += windows[w];
        w += 1;
    }
    sums[0] + sums[1] + sums[2] + sums[3]
}

/// The busiest window, and how many are above 0 (a plain loop, as `total`).
pub fn peak_and_busy(windows: &[u64]) -> (u64, usize) {
    let (mut peak, mut busy, mut w) = (0u64, 0, 0);
    while w < windows.len() {
        let x = windows[w];
        peak = peak.max(x);
        busy += usize::from(x > 0);
        w += 1;
    }
    (peak, busy)
}

/// The busiest window of `a` with `b` added (as `add_windows` adds it),
/// without the sum's list: a plain loop, as `total`.
pub fn peak_of_sum(a: &[u64], b: Option<&[u64]>) -> u64 {
    let Some(b) = b else {
        return peak_and_busy(a).0;
    };
    let n = a.len().min(b.len());
    let (both, rest) = a.split_at(n);
    let (mut peak, mut w) = (peak_and_busy(rest).0, 0);
    while w < n {
        peak = peak.max(both[w] + b[w]);
        w += 1;
    }
    peak
}

/// The windows of each of `lists` added up.
pub(crate) fn sum_windows(n: usize, lists: &[&[u64]]) -> Vec<u64> {
    // The first list copied rather than added to zeros: a pass fewer.
    let Some((first, rest)) = lists.split_first() else {
        return vec![0; n];
    };
    let mut sum = first[..n.min(first.len())].to_vec();
    sum.resize(n, 0);
    for list in rest {
        add_windows(&mut sum, list, false);
    }
    sum
}

/// `have` if it is `windows` long (runs made for this horizon), else `make`'s.
pub(crate) fn binned(have: &[u64], windows: usize, make: impl Fn() -> Vec<u64>) -> Cow<'_, [u64]> {
    if have.len() == windows {
        Cow::Borrowed(have)
    } else {
        Cow::Owned(make())
    }
}

/// Restarts in each window `(previous bound, bound]`, the first from 0.
pub fn restarts_in_windows(restarts_at_ms: &Times, bounds_ms: &[Ms]) -> Vec<u64> {
    let mut prev = 0;
    bounds_ms
        .iter()
        .map(|&b| {
            let n = restarts_at_ms.count_by(b) as u64 - prev;
            prev += n;
            n
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    // 1 … 10 summed to each length and past it (four sums apart, then the
    // rest one by one): 0, 1, 3, 6, 10, 15, …, 55; and lists of lists
    // added up, shorter and longer than the windows asked for.
    #[test]
    fn totals_and_sums_of_windows() {
        let w: Vec<u64> = (1..=10).collect();
        for n in 0..=12 {
            let k = n.min(10) as u64;
            assert_eq!(total(&w, n), k * (k + 1) / 2, "{n}");
        }
        assert_eq!(sum_windows(3, &[]), [0, 0, 0]);
        assert_eq!(sum_windows(3, &[&[1], &[2, 3, 4, 5]]), [3, 3, 4]);
        assert_eq!(sum_windows(2, &[&[1, 2, 3], &[4]]), [5, 2]);
    }

    // Sums 5, 5, 8, then 7 with nothing added: the busiest is 8, as the
    // summed list's; alone, 7.
    #[test]
    fn peak_of_a_sum() {
        let (a, b) = ([1, 5, 2, 7], [4, 0, 6]);
        assert_eq!(peak_of_sum(&a, Some(&b)), 8);
        let mut summed = a.to_vec();
        add_windows(&mut summed, &b, false);
        assert_eq!(peak_and_busy(&summed).0, 8);
        assert_eq!(peak_of_sum(&a, None), 7);
        assert_eq!(peak_of_sum(&[], Some(&b)), 0);
    }

    // 10 s windows: a restart on a boundary opens the next window, and the
    // last window takes every later one.
    #[test]
    fn restarts_per_window() {
        let at = Times::from(vec![0, 9_999, 10_000, 25_000, 25_001, 99_999_999]);
        assert_eq!(per_window(&at, 3), [2, 1, 3]);
        assert_eq!(per_window(&at, 1), [6]);
        assert_eq!(per_window(&Times::new(), 3), [0, 0, 0]);
        // A periodic tail counted by arithmetic: 4 s, then every 3 s from 8 s
        // to 35 s (8, 11, …, 35): windows [0, 10) hold 4, 8; [10, 20) 11,
        // 14, 17; [20, 30) 20, 23, 26, 29; the last 32, 35.
        let mut periodic = Times::from(vec![4_000]);
        periodic.repeat(8_000, 3_000, 10);
        assert_eq!(per_window(&periodic, 4), [2, 3, 4, 2]);
        assert_eq!(
            per_window(&periodic, 4),
            per_window(&Times::from(periodic.to_vec()), 4)
        );
    }
}
