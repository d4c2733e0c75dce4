//! The kubelet's API client rate limiter (`kubeAPIQPS` / `kubeAPIBurst`): a
//! token bucket that starts full with `burst` tokens, refills at `qps` up to
//! `burst`, and makes each request wait for its own token in turn when it is
//! empty (client-go util/flowcontrol/throttle.go, `NewTokenBucketRateLimiter`
//! over golang.org/x/time/rate). Lockstep pods arrive as bursts; spread pods
//! as a steady flow within each window. Requests are a fluid, so admitted
//! counts are rounded.

use std::borrow::Cow;
use std::ops::Range;

use serde::{Deserialize, Serialize};

use super::backoff::Ms;
use super::times::Times;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ApiLoad {
    pub qps: u32,
    pub burst: u32,
    /// Requests the limiter lets through in each window.
    pub admitted_per_window: Vec<u64>,
    /// The longest a request waits in each window (0: the limit does not
    /// bind); empty where only the totals below were kept
    /// (`WaitsKept::Totals`).
    pub max_queue_delay_ms: Vec<Ms>,
    /// The longest of those, and how many windows have a wait: kept as the
    /// windows are written, since every summary reads them.
    #[serde(default)]
    pub longest_wait_ms: Ms,
    #[serde(default)]
    pub limited_windows: u64,
}

/// Whole units of requests: `u64` where a day's requests fit (the common
/// case, and native in wasm), else `u128`.
trait Units:
    Copy
    + Ord
    + Default
    + From<u64>
    + TryInto<u64>
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self>
    + std::ops::Div<Output = Self>
    + std::ops::AddAssign
    + std::ops::SubAssign
{
}
impl Units for u64 {}
impl Units for u128 {}

/// The bucket in exact arithmetic: requests are counted in units of
/// `1/scale` (see `admit`), so the token rate, every window's flow and every
/// burst are whole units per millisecond, and tokens, the queue and what is
/// admitted are whole units at every millisecond boundary. No rounding builds
/// up over a day of bursts, and a step is a few integer operations.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Bucket<U> {
    /// Tokens per millisecond.
    rate: U,
    burst: U,
    tokens: U,
    /// Requests waiting; while any wait the bucket holds no tokens.
    backlog: U,
}

/// What happened in one window, in units.
#[derive(Clone, Default, Debug, PartialEq)]
struct Window<U> {
    admitted: U,
    max_backlog: U,
    /// The queue was empty at some moment (so tokens may have been used).
    emptied: bool,
}

impl<U: Units> Bucket<U> {
    /// `dt` ms of arrivals at `inflow` units per ms. Within the step the
    /// queue or the tokens change linearly until one runs out, so where it
    /// ends follows without finding when.
    fn advance(&mut self, dt: U, inflow: U, w: &mut Window<U>) {
        let (q, zero) = (self.rate, U::default());
        if self.backlog > zero {
            if inflow >= q {
                // The queue grows (or holds) while the rate drains it.
                self.backlog += (inflow - q) * dt;
                w.admitted += q * dt;
                w.max_backlog = w.max_backlog.max(self.backlog);
            } else if self.backlog >= (q - inflow) * dt {
                self.backlog -= (q - inflow) * dt;
                w.admitted += q * dt;
                w.emptied |= self.backlog == zero;
            } else {
                // The queue empties within the step; from then on everything
                // arriving passes and the spare rate gathers tokens.
                w.admitted += self.backlog + inflow * dt;
                self.tokens = ((q - inflow) * dt - self.backlog).min(self.burst);
                self.backlog = zero;
                w.emptied = true;
            }
            return;
        }
        w.emptied = true;
        if inflow <= q {
            self.tokens = (self.tokens + (q - inflow) * dt).min(self.burst);
            w.admitted += inflow * dt;
        } else if self.tokens >= (inflow - q) * dt {
            self.tokens -= (inflow - q) * dt;
            w.admitted += inflow * dt;
        } else {
            // The tokens run out within the step; then the rate passes and
            // the rest queues.
            self.backlog = (inflow - q) * dt - self.tokens;
            w.admitted += q * dt + self.tokens;
            self.tokens = zero;
            w.max_backlog = w.max_backlog.max(self.backlog);
        }
    }

    /// `ms` with nothing arriving and nothing waiting: tokens up to the
    /// bucket's size (a long quiet stretch without overflowing).
    fn refill(&mut self, ms: Ms) {
        let (zero, missing) = (U::default(), self.burst - self.tokens);
        if self.rate == zero {
            return;
        }
        self.tokens = if U::from(ms) > missing / self.rate {
            self.burst
        } else {
            self.tokens + self.rate * U::from(ms)
        };
    }

    fn burst_of(&mut self, n: U, w: &mut Window<U>) {
        // Requests queue behind those already waiting (FIFO).
        let take = if self.backlog > U::default() {
            U::default()
        } else {
            w.emptied = true;
            self.tokens.min(n)
        };
        self.tokens -= take;
        w.admitted += take;
        self.backlog += n - take;
        w.max_backlog = w.max_backlog.max(self.backlog);
    }
}

impl<U: Units> Window<U> {
    /// A window's outcome before anything in it, from the bucket's state.
    fn starting(bucket: &Bucket<U>) -> Self {
        Window {
            max_backlog: bucket.backlog,
            emptied: bucket.backlog == U::default(),
            ..Default::default()
        }
    }
}

/// Steps the bucket through a window of `length` ms: `bursts` at their
/// offsets (in order), `inflow` units per ms throughout.
#[inline(always)]
fn step<U: Units>(
    bucket: &mut Bucket<U>,
    bursts: impl Iterator<Item = (Ms, U)>,
    length: Ms,
    inflow: U,
    w: &mut Window<U>,
) {
    let mut t = 0;
    for (at, count) in bursts {
        if at > t {
            bucket.advance(U::from(at - t), inflow, w);
            t = at;
        }
        bucket.burst_of(count, w);
    }
    if length > t {
        bucket.advance(U::from(length - t), inflow, w);
    }
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Lockstep pods' requests: each group's restart times (in time order) with
/// the requests all its pods make at each, read merged in time order. No
/// list of a day's bursts is built for one group: it is its pod's restarts.
#[derive(Clone, Default)]
pub struct Bursts<'a> {
    groups: Vec<(&'a Times, u64)>,
}

impl<'a> Bursts<'a> {
    /// `requests` at each of `times`.
    pub fn push(&mut self, times: &'a Times, requests: u64) {
        if !times.is_empty() && requests > 0 {
            self.groups.push((times, requests));
        }
    }

    /// Whether windows may repeat: some group's times end in a periodic
    /// tail, kept or written out (its last gaps alike). Jittered restarts
    /// never do, and their windows are stepped without being kept for
    /// comparison.
    fn may_repeat(&self) -> bool {
        self.groups.iter().any(|(t, _)| {
            let n = t.len();
            let gap = |i: usize| t.get(n - i).zip(t.get(n - i - 1)).map(|(b, a)| b - a);
            t.stored() < n || (n >= 4 && gap(1) == gap(2) && gap(2) == gap(3))
        })
    }

    fn total(&self) -> u128 {
        self.groups
            .iter()
            .map(|&(t, n)| t.len() as u128 * u128::from(n))
            .sum()
    }

    /// Every burst in time order, as times and the requests at each (one
    /// count for all when every group's bursts are of one size: one group,
    /// not copied, or several merged as lists, periodic where all are up to
    /// `end`, which none reaches). Bursts at one time come in any order: a
    /// burst of `a` then one of `b` at once is a burst of `a + b`.
    fn flat(&self, end: Ms) -> (Cow<'a, Times>, Cow<'a, [u64]>) {
        match self.groups.as_slice() {
            [] => (Cow::Owned(Times::new()), Cow::Owned(vec![0])),
            [(times, requests)] => (Cow::Borrowed(*times), Cow::Owned(vec![*requests])),
            [(_, requests), rest @ ..] if rest.iter().all(|(_, n)| n == requests) => {
                let lists: Vec<&Times> = self.groups.iter().map(|&(t, _)| t).collect();
                (
                    Cow::Owned(Times::merge(&lists, end)),
                    Cow::Owned(vec![*requests]),
                )
            }
            groups => {
                let mut all: Vec<(Ms, u64)> = groups
                    .iter()
                    .flat_map(|&(times, n)| times.iter().map(move |t| (t, n)))
                    .collect();
                all.sort_unstable();
                let (times, counts): (Vec<Ms>, Vec<u64>) = all.into_iter().unzip();
                (Cow::Owned(Times::from(times)), Cow::Owned(counts))
            }
        }
    }
}

/// What arrives spread evenly over each window (spread groups' requests),
/// or nothing over so many windows: a node without spread groups has no
/// day's list of zeros for each client to add up and scan.
#[derive(Debug, Clone, Copy)]
pub enum Flow<'a> {
    PerWindow(&'a [u64]),
    Nothing { windows: usize },
}

impl Flow<'_> {
    fn windows(self) -> usize {
        match self {
            Flow::PerWindow(flow) => flow.len(),
            Flow::Nothing { windows } => windows,
        }
    }

    /// Window `i`'s flow.
    fn at(self, i: usize) -> u64 {
        match self {
            Flow::PerWindow(flow) => flow.get(i).copied().unwrap_or(0),
            Flow::Nothing { .. } => 0,
        }
    }

    fn total(self) -> u128 {
        match self {
            Flow::PerWindow(flow) => flow.iter().map(|&n| u128::from(n)).sum(),
            Flow::Nothing { .. } => 0,
        }
    }

    /// No window has any.
    fn is_nothing(self) -> bool {
        match self {
            Flow::PerWindow(flow) => flow.iter().all(|&f| f == 0),
            Flow::Nothing { .. } => true,
        }
    }
}

/// The node's requests, as `admit` takes them.
struct Arrivals<'a> {
    bursts: &'a Bursts<'a>,
    flow: Flow<'a>,
    window_ms: Ms,
    horizon_ms: Ms,
}

impl Arrivals<'_> {
    /// Window `i`'s start and end (a last window may be short).
    fn span(&self, i: usize) -> (Ms, Ms) {
        let start = i as Ms * self.window_ms;
        let end = ((i as Ms + 1) * self.window_ms)
            .min(self.horizon_ms)
            .max(start + 1);
        (start, end)
    }
}

/// What `admit_keeping` keeps of the requests' waits: each window's longest
/// (what the charts and the figures read), or only the longest of all and
/// the windows with one (all the cluster's sweep reads: a day's list a value
/// not written).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaitsKept {
    EveryWindow,
    Totals,
}

/// Runs the node's requests through the limiter: `bursts` at once,
/// `flow_per_window` spread evenly over its window.
pub fn admit(
    bursts: &Bursts,
    flow_per_window: &[u64],
    window_ms: Ms,
    horizon_ms: Ms,
    qps: u32,
    burst: u32,
) -> ApiLoad {
    let limits = (qps, burst);
    admit_keeping(
        bursts,
        Flow::PerWindow(flow_per_window),
        (window_ms, horizon_ms),
        limits,
        WaitsKept::EveryWindow,
    )
}

/// `admit`, keeping of the waits what `keep` says.
pub fn admit_keeping(
    bursts: &Bursts,
    flow: Flow,
    (window_ms, horizon_ms): (Ms, Ms),
    (qps, burst): (u32, u32),
    keep: WaitsKept,
) -> ApiLoad {
    let a = Arrivals {
        bursts,
        flow,
        window_ms,
        horizon_ms,
    };
    // Units per request: a multiple of 1000 (the rate is qps/1000 per ms) and
    // of every window's length (its flow spreads evenly over it). Windows are
    // as long as the first up to the horizon, where one may be cut short; any
    // after it are 1 ms, as the last one then is.
    let n = flow.windows();
    let cut = usize::try_from(horizon_ms / window_ms.max(1)).unwrap_or(usize::MAX);
    let scale = [0, cut.min(n.saturating_sub(1)), n.saturating_sub(1)]
        .map(|i| {
            let (start, end) = a.span(i);
            u128::from(end - start)
        })
        .into_iter()
        .fold(1000u128, |s, d| s / gcd(s, d) * d);
    // Nothing the bucket holds or counts exceeds every request arriving, the
    // bucket's size and a window's worth of tokens.
    let requests = bursts.total()
        + flow.total()
        + u128::from(burst)
        + u128::from(qps) * u128::from(window_ms.max(1)) / 1000
        + 1;
    let (admitted_per_window, max_queue_delay_ms, waits) = match requests.checked_mul(4 * scale) {
        Some(units) if units <= u128::from(u64::MAX) => {
            run::<u64>(&a, scale as u64, (qps, burst), bursts.may_repeat(), keep)
        }
        _ => run::<u128>(&a, scale, (qps, burst), bursts.may_repeat(), keep),
    };
    ApiLoad {
        qps,
        burst,
        admitted_per_window,
        max_queue_delay_ms,
        longest_wait_ms: waits.longest_ms,
        limited_windows: waits.windows,
    }
}

/// The longest wait in any window, and the windows with one.
#[derive(Debug, Default, PartialEq)]
struct Waits {
    longest_ms: Ms,
    windows: u64,
}

/// A window as the bucket sees it: its length, its flow and its bursts
/// (offsets from its start). Alike windows from the same state end alike.
#[derive(Default, PartialEq)]
struct Pattern<U> {
    length: Ms,
    inflow: U,
    bursts: Vec<(Ms, U)>,
    /// Where the first burst falls in its periodic tail (`Times::periodic`)
    /// when all came from one: a later window of that tail with as many
    /// bursts, the first at the same offset and place, has them all at the
    /// same offsets.
    step: Option<(Ms, usize)>,
}

/// A window stepped through: its pattern, the bucket before and after, and
/// what happened.
struct Stepped<U> {
    pattern: Pattern<U>,
    before: Bucket<U>,
    after: Bucket<U>,
    window: Window<U>,
    /// The window's longest wait.
    delay: Ms,
}

/// Runs the windows. With `repeat`, a window alike a window stepped through
/// earlier is not stepped again where its outcome follows: from the same
/// state it ends the same; with the queue never empty in the earlier one and
/// at least as long now, every step does the same (no branch of `advance`
/// or `burst_of` turns), so it ends with the queue longer by the same amount.
/// Restarts at a cap are periodic, so a day's windows are mostly alike.
fn run<U: Units>(
    a: &Arrivals,
    scale: U,
    limits: (u32, u32),
    repeat: bool,
    keep: WaitsKept,
) -> (Vec<u64>, Vec<Ms>, Waits) {
    let (times, counts) = a.bursts.flat(a.horizon_ms.saturating_add(1));
    // Restarts all stepped through (jittered) are read as a slice, the loop
    // they had before periodic tails; others through `Times`.
    match times.stepped(0..times.len()) {
        Some(all) => run_over(a, all, &counts, scale, limits, repeat, keep),
        None => run_over(a, &*times, &counts, scale, limits, repeat, keep),
    }
}

/// Burst times as `run_over` reads them, window by window.
trait BurstTimes {
    /// How many are below each of bounds that never fall.
    fn below_rising(&self) -> impl FnMut(Ms) -> usize + '_;
    /// Whether those in `range` (as many as the pattern's bursts) fall at
    /// the pattern's offsets from `start`.
    fn alike<U>(&self, range: Range<usize>, pattern: &Pattern<U>, start: Ms) -> bool;
    /// The `j`th.
    fn at(&self, j: usize) -> Ms;
    /// The `j`th, if there are as many.
    fn at_checked(&self, j: usize) -> Option<Ms>;
    /// Where those in `range` fall in a periodic tail, when all are of one.
    fn step(&self, range: Range<usize>) -> Option<(Ms, usize)>;
}

impl BurstTimes for &[Ms] {
    #[inline(always)]
    fn below_rising(&self) -> impl FnMut(Ms) -> usize + '_ {
        let mut from = 0;
        move |x| {
            from = super::times::walk_below(self, from, x);
            from
        }
    }
    #[inline(always)]
    fn alike<U>(&self, range: Range<usize>, pattern: &Pattern<U>, start: Ms) -> bool {
        pattern
            .bursts
            .iter()
            .zip(&self[range])
            .all(|(&(off, _), &at)| off + start == at)
    }
    #[inline(always)]
    fn at(&self, j: usize) -> Ms {
        self[j]
    }
    #[inline(always)]
    fn at_checked(&self, j: usize) -> Option<Ms> {
        self.get(j).copied()
    }
    #[inline(always)]
    fn step(&self, _: Range<usize>) -> Option<(Ms, usize)> {
        None
    }
}

impl BurstTimes for &Times {
    #[inline(always)]
    fn below_rising(&self) -> impl FnMut(Ms) -> usize + '_ {
        let mut below = Times::below_rising(self);
        move |x| below.below(x)
    }
    #[inline(always)]
    fn alike<U>(&self, range: Range<usize>, pattern: &Pattern<U>, start: Ms) -> bool {
        let bursts = &pattern.bursts;
        match (self.stepped(range.clone()), self.periodic(range.clone())) {
            (Some(at), _) => at.alike(0..at.len(), pattern, start),
            // Both of the tail, as many, the first at the same offset and
            // place in the period: all are.
            (None, Some((first, place))) if pattern.step == Some(place) => {
                bursts.first().is_none_or(|&(off, _)| off + start == first)
            }
            _ => {
                let mut at = self.iter_from(range.start);
                bursts
                    .iter()
                    .all(|&(off, _)| at.next() == Some(off + start))
            }
        }
    }
    #[inline(always)]
    fn at(&self, j: usize) -> Ms {
        self.get(j).unwrap_or(0)
    }
    #[inline(always)]
    fn at_checked(&self, j: usize) -> Option<Ms> {
        self.get(j)
    }
    #[inline(always)]
    fn step(&self, range: Range<usize>) -> Option<(Ms, usize)> {
        self.periodic(range).map(|(_, place)| place)
    }
}

fn run_over<U: Units, T: BurstTimes>(
    a: &Arrivals,
    times: T,
    counts: &[u64],
    scale: U,
    (qps, burst): (u32, u32),
    repeat: bool,
    keep: WaitsKept,
) -> (Vec<u64>, Vec<Ms>, Waits) {
    let whole = |x: U| x.try_into().unwrap_or(u64::MAX);
    let zero = U::default();
    let rate = U::from(u64::from(qps)) * (scale / U::from(1000));
    let half = scale / U::from(2);
    // The longest wait behind a queue, to the millisecond above.
    let wait = |max_backlog: U| {
        if max_backlog == zero {
            0
        } else if rate == zero {
            Ms::MAX
        } else {
            whole((max_backlog + rate - U::from(1)) / rate)
        }
    };
    let mut bucket = Bucket {
        rate,
        burst: U::from(u64::from(burst)) * scale,
        tokens: U::from(u64::from(burst)) * scale,
        backlog: zero,
    };
    let n = a.flow.windows();
    // Written in place: at opt-level "z" a push per window is a call.
    let mut admitted = vec![0; n];
    let mut delays = match keep {
        WaitsKept::EveryWindow => vec![0; n],
        WaitsKept::Totals => vec![],
    };
    let count = |k: usize| U::from(counts.get(k).or(counts.first()).copied().unwrap_or(0)) * scale;
    let mut from = 0;
    let mut below = times.below_rising();
    let mut pattern = Pattern::default();
    let mut stepped: Option<Stepped<U>> = None;
    // Units per millisecond of a window's flow request, for the length last
    // seen: windows are all one length but the last, so it is divided once.
    let mut per_ms = (0, zero);
    let (mut admitted_units, mut admitted_whole) = (zero, 0);
    let mut waits = Waits::default();
    // Whole requests, halves up, rounded as a running total: the windows
    // add up to every span's total, which never passes what arrived.
    // (A window that admits nothing leaves the total as it was.)
    let mut write = |i: usize, units: U, delay: Ms| {
        if units != zero {
            admitted_units += units;
            let through = whole((admitted_units + half) / scale);
            admitted[i] = through - admitted_whole;
            admitted_whole = through;
        }
        if let Some(d) = delays.get_mut(i) {
            *d = delay;
        }
        if delay > 0 {
            waits.longest_ms = waits.longest_ms.max(delay);
            waits.windows += 1;
        }
    };
    // Windows before `full` are all `window_ms` long.
    let full = usize::try_from(a.horizon_ms / a.window_ms.max(1))
        .unwrap_or(usize::MAX)
        .min(n.saturating_sub(1));
    let no_flow = a.flow.is_nothing();
    let mut i = 0;
    while i < n {
        let flow = a.flow.at(i);
        let (start, end) = a.span(i);
        let last = i + 1 == n;
        if per_ms.0 != end - start {
            per_ms = (end - start, scale / U::from(end - start));
        }
        let inflow = U::from(flow) * per_ms.1;
        // Restarts are in time order: those before the window's end, less
        // those counted already (arithmetic on a periodic tail).
        let k = below(if last { end + 1 } else { end }) - from;
        let here = from..from + k;
        from += k;
        if k == 0 && inflow == zero && bucket.backlog == zero {
            // Nothing arrives and nothing waits: the bucket only refills, in
            // this window and every one before the next burst or flow (most
            // of a long cap's windows, and of the event client's), at once.
            let next_burst = match times.at_checked(from) {
                Some(t) => usize::try_from(t / a.window_ms.max(1)).unwrap_or(usize::MAX),
                None => n,
            };
            let to = next_burst.min(full);
            let quiet = if no_flow {
                to
            } else {
                (i + 1..to).find(|&j| a.flow.at(j) != 0).unwrap_or(to)
            }
            .max(i + 1);
            let ms = if quiet == i + 1 {
                end - start
            } else {
                (quiet - i) as Ms * a.window_ms
            };
            bucket.refill(ms);
            i = quiet;
            continue;
        }
        if !repeat {
            let mut w = Window::starting(&bucket);
            step(
                &mut bucket,
                here.map(|j| (times.at(j) - start, count(j))),
                end - start,
                inflow,
                &mut w,
            );
            write(i, w.admitted, wait(w.max_backlog));
            i += 1;
            continue;
        }
        let known = stepped.as_ref().filter(|s| {
            s.pattern.length == end - start
                && s.pattern.inflow == inflow
                && s.pattern.bursts.len() == k
                && times.alike(here.clone(), &s.pattern, start)
                // One group's bursts are all of one size.
                && (counts.len() == 1
                    || s.pattern
                        .bursts
                        .iter()
                        .zip(here.clone())
                        .all(|(&(_, c), j)| c == count(j)))
        });
        // A window alike one stepped through admits as many; only a longer
        // queue's wait is worked out again.
        let (units, delay) = match known {
            Some(s) if s.before == bucket => {
                bucket = s.after;
                (s.window.admitted, s.delay)
            }
            Some(s)
                if !s.window.emptied
                    && bucket.tokens == zero
                    && bucket.backlog >= s.before.backlog =>
            {
                let longer = bucket.backlog - s.before.backlog;
                bucket.backlog = s.after.backlog + longer;
                (s.window.admitted, wait(s.window.max_backlog + longer))
            }
            _ => {
                pattern.length = end - start;
                pattern.inflow = inflow;
                pattern.step = times.step(here.clone());
                pattern.bursts.clear();
                pattern
                    .bursts
                    .extend(here.map(|j| (times.at(j) - start, count(j))));
                let before = bucket;
                let mut w = Window::starting(&bucket);
                step(
                    &mut bucket,
                    pattern.bursts.iter().copied(),
                    pattern.length,
                    pattern.inflow,
                    &mut w,
                );
                let out = (w.admitted, wait(w.max_backlog));
                // Updated in place, the pattern's buffer swapped for the old
                // one's (reused, not reallocated): a window stepped is not a
                // struct moved (opt-level "z" copies those byte by byte).
                match &mut stepped {
                    Some(s) => {
                        std::mem::swap(&mut s.pattern.bursts, &mut pattern.bursts);
                        s.pattern.length = pattern.length;
                        s.pattern.inflow = pattern.inflow;
                        s.pattern.step = pattern.step;
                        s.before = before;
                        s.after = bucket;
                        s.window = w;
                        s.delay = out.1;
                    }
                    None => {
                        stepped = Some(Stepped {
                            pattern: std::mem::take(&mut pattern),
                            before,
                            after: bucket,
                            window: w,
                            delay: out.1,
                        })
                    }
                }
                out
            }
        };
        write(i, units, delay);
        i += 1;
    }
    (admitted, delays, waits)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reproducible numbers below a bound (xorshift).
    fn numbers(mut seed: u64) -> impl FnMut(u64) -> u64 {
        move |below| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % below
        }
    }

    fn bursts(times: &[Ms], requests: u64) -> Bursts<'static> {
        let mut b = Bursts::default();
        b.push(Box::leak(Box::new(Times::from(times.to_vec()))), requests);
        b
    }

    // Quiet windows only refill, at 1 QPS up to the bucket's 100: a burst
    // of 100 at 0 s empties it; by the next, of 100 at 34 s, 34 tokens are
    // back, so 66 wait and drain at one a second until 100 s: 34 + 6 in the
    // fourth window, 10 in each of the next six. The last waits 66 s.
    #[test]
    fn quiet_windows_refill_the_bucket() {
        let times = Times::from(vec![0, 34_000]);
        let mut b = Bursts::default();
        b.push(&times, 100);
        let load = admit(&b, &[0; 12], 10_000, 120_000, 1, 100);
        assert_eq!(
            load.admitted_per_window,
            [100, 0, 0, 40, 10, 10, 10, 10, 10, 10, 0, 0]
        );
        assert_eq!(&load.max_queue_delay_ms[..4], [0, 0, 0, 66_000]);
    }

    // Two groups' bursts are read in time order.
    #[test]
    fn groups_merge_in_time_order() {
        let (a, b) = (Times::from(vec![1_000, 3_000]), Times::from(vec![0, 1_000]));
        let mut two = Bursts::default();
        two.push(&a, 8);
        two.push(&b, 4);
        let (times, counts) = two.flat(Ms::MAX);
        assert_eq!(*times, vec![0, 1_000, 1_000, 3_000]);
        assert_eq!(*counts, [4, 4, 8, 8]);
        // Bursts all of one size keep one count; lists periodic to the end
        // (every 10 s from 5 s and from 8 s, below a minute) stay periodic.
        let (mut p, mut q) = (Times::new(), Times::new());
        p.repeat(5_000, 10_000, 6);
        q.repeat(8_000, 10_000, 6);
        let mut alike = Bursts::default();
        alike.push(&p, 4);
        alike.push(&q, 4);
        let (times, counts) = alike.flat(60_000);
        assert_eq!(
            times.to_vec(),
            [5, 8, 15, 18, 25, 28, 35, 38, 45, 48, 55, 58].map(|s| s * 1_000)
        );
        assert!(times.stored() < times.len());
        assert_eq!(*counts, [4]);
    }

    // 110 pods × 5 requests at once under the pre-1.27 limits (5 QPS, burst 10):
    // 10 pass at once, 540 wait and drain at 5/s, the last after 108 s.
    #[test]
    fn a_burst_drains_at_the_qps() {
        let load = admit(&bursts(&[0], 550), &[0; 20], 10_000, 200_000, 5, 10);
        assert_eq!(load.admitted_per_window[0], 60);
        assert!(load.admitted_per_window[1..10].iter().all(|&a| a == 50));
        assert_eq!(load.admitted_per_window[10], 40);
        assert_eq!(load.admitted_per_window.iter().sum::<u64>(), 550);
        assert_eq!(load.max_queue_delay_ms[0], 108_000);
        assert_eq!(load.max_queue_delay_ms[1], 98_000);
        assert_eq!(load.max_queue_delay_ms[10], 8_000);
        assert_eq!(load.max_queue_delay_ms[11], 0);
    }

    // A steady 10/s against 5 QPS, burst 10: the tokens last 2 s, then 5/s
    // pass and the queue grows by 5/s.
    #[test]
    fn a_steady_flow_above_the_qps_queues() {
        let load = admit(&Bursts::default(), &[100, 0, 0], 10_000, 30_000, 5, 10);
        assert_eq!(load.admitted_per_window, [60, 40, 0]);
        assert_eq!(load.max_queue_delay_ms[0], 8_000);
        assert_eq!(load.max_queue_delay_ms[2], 0);
    }

    // Windows past the horizon are 1 ms long; one cut by it is as long as
    // what is left: 1 s windows, a 2.5 s horizon, 5 requests over the 0.5 s
    // of the third window, at 1 QPS and burst 1. The token and 0.5 s of the
    // rate pass 1.5 (2, halves up) and 3.5 wait 3.5 s.
    #[test]
    fn windows_cut_by_the_horizon() {
        let load = admit(&Bursts::default(), &[0, 0, 5, 0, 0], 1_000, 2_500, 1, 1);
        assert_eq!(load.admitted_per_window, [0, 0, 2, 0, 0]);
        assert_eq!(load.max_queue_delay_ms[2], 3_500);
    }

    // A short last window (13 s horizon): 30 requests over its 3 s against
    // 5 QPS, burst 10. The flow (10/s) outruns the rate by 5/s, so the 10
    // tokens last 2 s; in the last second 5 queue. Admitted 15 + 10 = 25, and
    // the 5 waiting need 1 s.
    #[test]
    fn a_short_last_window_is_exact() {
        let load = admit(&Bursts::default(), &[0, 30], 10_000, 13_000, 5, 10);
        assert_eq!(load.admitted_per_window, [0, 25]);
        assert_eq!(load.max_queue_delay_ms, [0, 1_000]);
    }

    // 10^16 requests at once need the wide units (10^4 units a request here):
    // 100 pass, 50/s after, and the last waits (10^16 - 100) / 50 s,
    // 2 * 10^17 - 2,000 ms.
    #[test]
    fn a_day_beyond_64_bits_is_exact() {
        let load = admit(
            &bursts(&[0], 10_000_000_000_000_000),
            &[0, 0],
            10_000,
            20_000,
            50,
            100,
        );
        assert_eq!(load.admitted_per_window, [600, 500]);
        assert_eq!(load.max_queue_delay_ms[0], 200_000_000_000_000_000 - 2_000);
        assert_eq!(
            load.max_queue_delay_ms[1],
            200_000_000_000_000_000 - 2_000 - 10_000
        );
    }

    // A step is the same as the step cut anywhere in two: whatever runs out
    // part way (tokens, the queue) must end where one long step ends. Holds
    // every branch of `advance` to the others.
    #[test]
    fn a_step_cut_in_two_is_the_step() {
        let mut next = numbers(0x9E37_79B9_7F4A_7C15);
        for case in 0..100_000 {
            let rate = 1 + next(500);
            let burst = rate * next(50);
            let queued = case % 2 == 0;
            let start = Bucket::<u64> {
                rate,
                burst,
                tokens: if queued { 0 } else { next(burst + 1) },
                backlog: if queued { 1 + next(rate * 40) } else { 0 },
            };
            let inflow = next(rate * 3);
            let dt = 1 + next(20_000);
            let cut = next(dt + 1);
            let (mut whole, mut w_whole) = (start, Window::default());
            whole.advance(dt, inflow, &mut w_whole);
            let (mut parts, mut w_parts) = (start, Window::default());
            parts.advance(cut, inflow, &mut w_parts);
            parts.advance(dt - cut, inflow, &mut w_parts);
            assert_eq!(
                (whole, w_whole),
                (parts, w_parts),
                "case {case}: {start:?}, {inflow}/ms for {dt} cut at {cut}"
            );
        }
    }

    // Nothing is made or lost, to the unit: after any steps and bursts, what
    // was admitted and what waits is what arrived; tokens never exceed the
    // bucket, and none are left while requests wait.
    #[test]
    fn requests_are_kept_to_the_unit() {
        let mut next = numbers(0x0123_4567_89AB_CDEF);
        for case in 0..2_000 {
            let rate = 1 + next(100);
            let mut b = Bucket::<u64> {
                rate,
                burst: rate * next(100),
                tokens: 0,
                backlog: 0,
            };
            b.tokens = next(b.burst + 1);
            let (mut w, mut arrived) = (Window::default(), 0);
            for _ in 0..50 {
                if next(3) == 0 {
                    let n = next(rate * 200);
                    b.burst_of(n, &mut w);
                    arrived += n;
                } else {
                    let (dt, inflow) = (1 + next(5_000), next(rate * 3));
                    b.advance(dt, inflow, &mut w);
                    arrived += inflow * dt;
                }
                assert_eq!(w.admitted + b.backlog, arrived, "case {case}: {b:?}");
                assert!(b.tokens <= b.burst, "case {case}: {b:?}");
                assert!(b.backlog == 0 || b.tokens == 0, "case {case}: {b:?}");
            }
        }
    }

    // Alike windows taken from the ones stepped through end exactly where
    // stepping through them ends: days of periodic bursts (some periods
    // dividing the window, some not) with steady, changing or no flow, under
    // limits that queue, drain or never bind, windows cut by the horizon.
    #[test]
    fn repeated_windows_are_stepped_windows() {
        let mut next = numbers(0x2545_F491_4F6C_DD1D);
        let mut queued = 0;
        for case in 0..400 {
            let period = [250, 1_000, 2_500, 3_000, 7_000, 10_000, 40_000][case % 7];
            let horizon = 600_000 + next(600_000);
            let first = next(period);
            let list: Vec<Ms> = (0..)
                .map(|k| first + k * period)
                .take_while(|&t| t < horizon)
                .collect();
            // Written out, or held as the engine holds a periodic tail.
            let times = if case % 2 == 0 {
                Times::from(list)
            } else {
                let mut t = Times::new();
                t.repeat(first, period, list.len());
                t
            };
            let mut b = Bursts::default();
            b.push(&times, 1 + next(40));
            let windows = horizon.div_ceil(10_000) as usize;
            let flow: Vec<u64> = match case % 3 {
                0 => vec![0; windows],
                1 => vec![next(300); windows],
                _ => (0..windows)
                    .map(|w| if w % 7 == 0 { next(300) } else { 50 })
                    .collect(),
            };
            let a = Arrivals {
                bursts: &b,
                flow: Flow::PerWindow(&flow),
                window_ms: 10_000,
                horizon_ms: horizon,
            };
            let (qps, burst) = (1 + next(60) as u32, 1 + next(200) as u32);
            // Whole units for 1000, the windows and the last one's length.
            let scale = 30_000 * (horizon % 10_000).max(1);
            let stepped = run::<u128>(
                &a,
                u128::from(scale),
                (qps, burst),
                false,
                WaitsKept::EveryWindow,
            );
            assert_eq!(
                run::<u128>(
                    &a,
                    u128::from(scale),
                    (qps, burst),
                    true,
                    WaitsKept::EveryWindow
                ),
                stepped,
                "case {case}"
            );
            let full = admit(&b, &flow, 10_000, horizon, qps, burst);
            assert_eq!(
                (full.admitted_per_window, full.max_queue_delay_ms),
                (stepped.0.clone(), stepped.1.clone()),
                "case {case}: admit"
            );
            assert_eq!(
                (full.longest_wait_ms, full.limited_windows),
                waits_of(&stepped.1),
                "case {case}: its waits"
            );
            // Its totals alone: the same, without a window's waits.
            let totals = admit_keeping(
                &b,
                Flow::PerWindow(&flow),
                (10_000, horizon),
                (qps, burst),
                WaitsKept::Totals,
            );
            assert_eq!(
                (
                    &totals.admitted_per_window,
                    totals.longest_wait_ms,
                    totals.limited_windows
                ),
                (&stepped.0, full.longest_wait_ms, full.limited_windows),
                "case {case}: totals"
            );
            assert!(totals.max_queue_delay_ms.is_empty(), "case {case}");
            // No flow at all is a flow of zeros.
            if flow.iter().all(|&f| f == 0) {
                let nothing = admit_keeping(
                    &b,
                    Flow::Nothing { windows },
                    (10_000, horizon),
                    (qps, burst),
                    WaitsKept::EveryWindow,
                );
                assert_eq!(
                    (nothing.admitted_per_window, nothing.max_queue_delay_ms),
                    (stepped.0.clone(), stepped.1.clone()),
                    "case {case}: no flow"
                );
            }
            queued += usize::from(stepped.1.iter().any(|&d| d > 0));
        }
        // Both kinds of windows came up: some cases queued, some never did.
        assert!(queued > 50 && queued < 350, "{queued} of 400 cases queued");
    }

    /// Every window stepped in turn, none skipped or compared: what `admit`
    /// must equal (whole 10 s windows, so a request is 10,000 units).
    /// The longest of every window's waits, and the windows with one.
    fn waits_of(delays: &[Ms]) -> (Ms, u64) {
        let longest = delays.iter().copied().max().unwrap_or(0);
        (longest, delays.iter().filter(|&&d| d > 0).count() as u64)
    }

    fn every_window(
        times: &[Ms],
        count: u64,
        flow: &[u64],
        qps: u32,
        burst: u32,
    ) -> (Vec<u64>, Vec<Ms>) {
        let scale: u128 = 10_000;
        let rate = u128::from(qps) * scale / 1000;
        let mut bucket = Bucket {
            rate,
            burst: u128::from(burst) * scale,
            tokens: u128::from(burst) * scale,
            backlog: 0,
        };
        let (mut admitted, mut delays) = (vec![], vec![]);
        let (mut units, mut whole, mut next) = (0u128, 0u64, 0);
        for (i, &f) in flow.iter().enumerate() {
            let (start, end) = (i as Ms * 10_000, (i as Ms + 1) * 10_000);
            let last = i + 1 == flow.len();
            let mut here = vec![];
            while next < times.len() && (times[next] < end || last && times[next] <= end) {
                here.push((times[next] - start, u128::from(count) * scale));
                next += 1;
            }
            let mut w = Window::starting(&bucket);
            step(&mut bucket, here.into_iter(), 10_000, u128::from(f), &mut w);
            units += w.admitted;
            let through = ((units + scale / 2) / scale) as u64;
            admitted.push(through - whole);
            whole = through;
            delays.push(if w.max_backlog == 0 {
                0
            } else {
                w.max_backlog.div_ceil(rate) as Ms
            });
        }
        (admitted, delays)
    }

    // Quiet stretches skipped at once end as every window stepped: sparse
    // jittered bursts (gaps of up to 200 s), flows with quiet stretches,
    // limits that bind and that do not.
    #[test]
    fn quiet_stretches_skipped_are_windows_stepped() {
        let mut next = numbers(0x9E37_79B9_7F4A_7C15);
        let mut queued = 0;
        for case in 0..300 {
            let windows = 30 + next(300) as usize;
            let horizon = windows as Ms * 10_000;
            let mut list = vec![];
            let mut t = next(50_000);
            while t < horizon {
                list.push(t);
                t += next(200_000);
            }
            let flow: Vec<u64> = (0..windows)
                .map(|w| match case % 3 {
                    0 => 0,
                    1 if (w / 17) % 3 == 0 => next(400),
                    1 => 0,
                    _ => next(100),
                })
                .collect();
            let (qps, burst, count) = (1 + next(20) as u32, 1 + next(100) as u32, 1 + next(60));
            let times = Times::from(list.clone());
            let mut b = Bursts::default();
            b.push(&times, count);
            let load = admit(&b, &flow, 10_000, horizon, qps, burst);
            let stepped = every_window(&list, count, &flow, qps, burst);
            assert_eq!(
                (load.longest_wait_ms, load.limited_windows),
                waits_of(&stepped.1),
                "case {case}: its waits"
            );
            assert_eq!(
                (load.admitted_per_window, load.max_queue_delay_ms),
                stepped,
                "case {case}"
            );
            queued += usize::from(stepped.1.iter().any(|&d| d > 0));
        }
        assert!(queued > 30 && queued < 270, "{queued} of 300 cases queued");
    }

    // Under today's limits (50/100) one burst of 550 waits 9 s at most.
    #[test]
    fn todays_limits() {
        let load = admit(&bursts(&[0, 10_000], 550), &[0; 3], 10_000, 30_000, 50, 100);
        assert_eq!(load.max_queue_delay_ms[0], 9_000);
        // The first queue empties at 9 s; one second refills 50 tokens.
        assert_eq!(load.admitted_per_window[0], 550);
        assert_eq!(load.max_queue_delay_ms[1], 10_000);
    }
}
