//! A pod's restart times (or the waits before them) as the engine makes
//! them: those it stepped through, then, once the restarts repeat (no jitter,
//! the curve at its cap), the rest as arithmetic, `first + k × step` for
//! `count` more, never written out. A day at a 1 s cap is 86,400 restarts and
//! a handful of stepped ones; counting them per window, folding them for a
//! chart or finding one is per segment, not per restart. A period may hold
//! several values (a node's status versions: exit, Waiting, start), so lists
//! merged stay arithmetic. Reads as a list (`len`, `get`, `iter`, JSON as an
//! array) wherever a list is wanted.

use std::fmt;
use std::ops::Range;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::Ms;

#[derive(Clone, Default)]
pub struct Times {
    head: Vec<Ms>,
    tail: Tail,
}

/// `count` values after the head: `first`, then `first` plus each of
/// `more`, then the same a `step` later, and so on.
#[derive(Clone, Default, PartialEq, Eq)]
struct Tail {
    first: Ms,
    step: Ms,
    count: usize,
    /// A period's values after its first, from it, in order, below `step`
    /// (none: one value a period).
    more: Vec<Ms>,
}

impl Tail {
    fn per_period(&self) -> usize {
        1 + self.more.len()
    }

    /// The `k`th value (not checked against `count`).
    #[inline(always)]
    fn value(&self, k: usize) -> Ms {
        if self.more.is_empty() {
            return self.first + k as Ms * self.step;
        }
        let m = self.per_period();
        let within = match k % m {
            0 => 0,
            j => self.more[j - 1],
        };
        self.first + (k / m) as Ms * self.step + within
    }

    /// Values below `x`, from `x − first` in whole steps and the remainder.
    #[inline(always)]
    fn below_split(&self, q: Ms, r: Ms) -> usize {
        // Within the period: its first if r > 0, and each of `more` below r.
        let within = if r == 0 {
            0
        } else {
            1 + self.more.partition_point(|&o| o < r)
        };
        let m = self.per_period() as Ms;
        q.checked_mul(m)
            .and_then(|k| usize::try_from(k + within as Ms).ok())
            .map_or(self.count, |k| k.min(self.count))
    }
}

impl Times {
    pub fn new() -> Self {
        Self::default()
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.head.len() + self.tail.count
    }

    /// The values held in memory: the stepped ones (a tail is three numbers).
    pub fn stored(&self) -> usize {
        self.head.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Adds one value after the rest (there is no tail yet).
    /// Room for `n` more values written one by one.
    pub fn reserve(&mut self, n: usize) {
        self.head.reserve(n);
    }

    pub fn push(&mut self, t: Ms) {
        debug_assert_eq!(self.tail.count, 0, "a value after the periodic tail");
        self.head.push(t);
    }

    /// Ends with `count` values `first + k × step` (`step` 0: all `first`).
    pub fn repeat(&mut self, first: Ms, step: Ms, count: usize) {
        self.repeat_each(first, step, &[0], count);
    }

    /// Ends with `count` values, each period's at `offsets` (in order, the
    /// first 0, all below `step`) from `first + k × step`.
    pub fn repeat_each(&mut self, first: Ms, step: Ms, offsets: &[Ms], count: usize) {
        debug_assert_eq!(self.tail.count, 0, "a second periodic tail");
        debug_assert!(offsets.first() == Some(&0) && offsets.is_sorted());
        debug_assert!(offsets.iter().all(|&o| o == 0 || o < step));
        if count > 0 {
            self.tail = Tail {
                first,
                step,
                count,
                more: offsets.get(1..).unwrap_or(&[]).to_vec(),
            };
        }
    }

    #[inline(always)]
    pub fn get(&self, i: usize) -> Option<Ms> {
        match self.head.get(i) {
            Some(&t) => Some(t),
            None => {
                let k = i - self.head.len();
                (k < self.tail.count).then(|| self.tail.value(k))
            }
        }
    }

    pub fn last(&self) -> Option<Ms> {
        self.len().checked_sub(1).and_then(|i| self.get(i))
    }

    /// The values in `range` when all are stepped ones (not the tail): read
    /// as a slice, which hot loops walk fastest.
    #[inline(always)]
    pub fn stepped(&self, range: Range<usize>) -> Option<&[Ms]> {
        self.head.get(range)
    }

    /// The first value in `range` and where it falls in the tail's period
    /// (its step, and which of the period's values it is), when all are of
    /// the periodic tail (and there is one): ranges of as many values at
    /// the same place in the period are the same values shifted.
    #[inline(always)]
    pub fn periodic(&self, range: Range<usize>) -> Option<(Ms, (Ms, usize))> {
        let h = self.head.len();
        if range.start < h || range.start >= range.end || range.end > self.len() {
            return None;
        }
        let k = range.start - h;
        let place = match self.tail.more.len() {
            0 => 0,
            more => k % (more + 1),
        };
        Some((self.tail.value(k), (self.tail.step, place)))
    }

    /// The values from the `from`th on.
    pub fn iter_from(&self, from: usize) -> impl Iterator<Item = Ms> + '_ {
        let count = self.tail.count;
        let skip = from.saturating_sub(self.head.len());
        self.head
            .get(from..)
            .unwrap_or(&[])
            .iter()
            .copied()
            .chain((skip.min(count)..count).map(move |k| self.tail.value(k)))
    }

    pub fn iter(&self) -> impl Iterator<Item = Ms> + '_ {
        self.iter_from(0)
    }

    pub fn to_vec(&self) -> Vec<Ms> {
        self.iter().collect()
    }

    /// How many values are below `x`, for values in order (restart times):
    /// a binary search of the stepped ones, arithmetic for the tail.
    #[inline(always)]
    pub fn count_below(&self, x: Ms) -> usize {
        let h = self.head.partition_point(|&t| t < x);
        if h < self.head.len() {
            return h;
        }
        h + self.tail_below(x)
    }

    /// Counts below bounds that never fall (window ends), as `count_below`
    /// says, with no division per bound on the tail.
    pub fn below_rising(&self) -> Below<'_> {
        Below {
            times: self,
            stepped: 0,
            tail: None,
            rise: (0, 0, 0),
        }
    }

    /// Tail values below `x`.
    #[inline(always)]
    fn tail_below(&self, x: Ms) -> usize {
        let Tail {
            first, step, count, ..
        } = self.tail;
        if count == 0 || x <= first {
            return 0;
        }
        match (x - first).checked_div(step) {
            Some(q) => self.tail.below_split(q, (x - first) % step),
            None => count,
        }
    }

    /// How many values are at or before `x` (values in order).
    #[inline(always)]
    pub fn count_by(&self, x: Ms) -> usize {
        self.count_below(x.saturating_add(1))
    }

    /// Where `x` is, for values in order, as `slice::binary_search` says it.
    pub fn binary_search(&self, x: Ms) -> Result<usize, usize> {
        let i = self.count_below(x);
        match self.get(i) {
            Some(t) if t == x => Ok(i),
            _ => Err(i),
        }
    }

    /// Windows `width` long (the `j`th from `j × width`) that hold as many
    /// values as the window `period` before them: those one period past the
    /// first window wholly in the tail, up to the tail's end. A period of
    /// windows spans a whole number of the tail's steps.
    pub fn window_repeats(&self, width: Ms) -> Option<(Range<usize>, usize)> {
        let Tail {
            first, step, count, ..
        } = self.tail;
        if count == 0 || step == 0 || width == 0 {
            return None;
        }
        let period = step / gcd(step, width);
        let from = first.div_ceil(width).checked_add(period)?;
        // Windows before the next value the tail does not hold.
        let to = self.tail.value(count) / width;
        let index = |w: Ms| usize::try_from(w).ok();
        (from < to).then_some((index(from)?..index(to)?, index(period)?))
    }

    /// The lowest and highest of the values in `range` (not empty, within
    /// the list): the head's walked, the tail's at its ends.
    pub fn min_max(&self, range: Range<usize>) -> (Ms, Ms) {
        let h = self.head.len();
        let (mut lo, mut hi) = (Ms::MAX, 0);
        for &t in self
            .head
            .get(range.start.min(h)..range.end.min(h))
            .unwrap_or(&[])
        {
            lo = lo.min(t);
            hi = hi.max(t);
        }
        if range.end > h {
            // The tail never falls: its ends are its lowest and highest.
            let a = self.get(range.start.max(h)).unwrap_or(0);
            let b = self.get(range.end - 1).unwrap_or(0);
            lo = lo.min(a);
            hi = hi.max(b);
        }
        (lo, hi)
    }
}

impl Times {
    /// `first`, then these values (all at or after it), tail kept.
    pub fn starting_with(first: Ms, rest: &Times) -> Times {
        let mut head = Vec::with_capacity(rest.head.len() + 1);
        head.push(first);
        head.extend_from_slice(&rest.head);
        Times {
            head,
            tail: rest.tail.clone(),
        }
    }

    /// Every value moved later by `by`, those below `end` kept (values in
    /// order), tail kept as a tail.
    pub fn shifted(&self, by: Ms, end: Ms) -> Times {
        let keep = self.count_below(end.saturating_sub(by));
        let h = self.head.len().min(keep);
        let mut tail = self.tail.clone();
        tail.first += by;
        tail.count = keep - h;
        Times {
            head: self.head[..h].iter().map(|&t| t + by).collect(),
            tail,
        }
    }

    /// Several lists in order merged into one, each holding its values
    /// below `end`. Where every list is, from some value on, a periodic tail
    /// of one step that runs to `end` (a pod's status versions at its cap),
    /// so is the merge: its period holds each list's values, and only what
    /// comes before is written out. Otherwise all are written out, merged
    /// two by two (a jittered day's status versions at a 1 s cap are
    /// 260,000).
    pub fn merge(lists: &[&Times], end: Ms) -> Times {
        if let Some(periodic) = Self::merge_periodic(lists, end) {
            return periodic;
        }
        // Stepped lists are read in place; a periodic tail is written out.
        let owned: Vec<Option<Vec<Ms>>> = lists
            .iter()
            .map(|t| t.stepped(0..t.len()).is_none().then(|| t.to_vec()))
            .collect();
        let slices: Vec<&[Ms]> = lists
            .iter()
            .zip(&owned)
            .map(|(t, o)| o.as_deref().or(t.stepped(0..t.len())).unwrap_or(&[]))
            .collect();
        Times::from(merge_all(&slices))
    }

    /// `merge` kept periodic, when it can be.
    fn merge_periodic(lists: &[&Times], end: Ms) -> Option<Times> {
        let tails: Vec<&Tail> = lists
            .iter()
            .map(|t| &t.tail)
            .filter(|t| t.count > 0)
            .collect();
        let step = tails.first()?.step;
        // Each tail of that step runs to `end`: its next value would not be
        // below it, and none of its values is at or past it.
        let runs_to_end = |t: &Tail| t.step == step && t.value(t.count) >= end;
        if step == 0 || !tails.iter().all(|t| runs_to_end(t)) {
            return None;
        }
        if lists.iter().any(|t| t.last().is_some_and(|l| l >= end)) {
            return None;
        }
        // From the latest tail's start every list is periodic; a stepped
        // value from there on (a list without a tail) is not.
        let from = tails.iter().map(|t| t.first).max()?;
        if lists
            .iter()
            .any(|t| t.head.last().is_some_and(|&l| l >= from))
        {
            return None;
        }
        let before: Vec<Vec<Ms>> = lists
            .iter()
            .map(|t| t.iter().take_while(|&v| v < from).collect())
            .collect();
        let slices: Vec<&[Ms]> = before.iter().map(Vec::as_slice).collect();
        // Each tail's values in the period from `from`, as offsets from it.
        let mut offsets: Vec<Ms> = tails
            .iter()
            .flat_map(|t| (0..t.per_period()).map(|j| t.value(j)))
            .map(|v| {
                if v >= from {
                    (v - from) % step
                } else {
                    (step - (from - v) % step) % step
                }
            })
            .collect();
        offsets.sort_unstable();
        let count = lists.iter().map(|t| t.len() - t.count_below(from)).sum();
        let mut merged = Times::from(merge_all(&slices));
        merged.repeat_each(from, step, &offsets, count);
        Some(merged)
    }
}

fn gcd(a: Ms, b: Ms) -> Ms {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Lists in order, merged two by two.
fn merge_all(slices: &[&[Ms]]) -> Vec<Ms> {
    match slices {
        [] => vec![],
        [a] => a.to_vec(),
        [a, b] => merge_two(a, b),
        [a, b, rest @ ..] => rest
            .iter()
            .fold(merge_two(a, b), |acc, c| merge_two(&acc, c)),
    }
}

/// Two lists in order, merged: written in place (at opt-level "z" a push
/// is a call, and a day's status versions at a 1 s cap are 200,000).
fn merge_two(a: &[Ms], b: &[Ms]) -> Vec<Ms> {
    let mut out = vec![0; a.len() + b.len()];
    let (mut i, mut j) = (0, 0);
    for slot in out.iter_mut() {
        *slot = match (a.get(i), b.get(j)) {
            (Some(&x), Some(&y)) if y < x => {
                j += 1;
                y
            }
            (Some(&x), _) => {
                i += 1;
                x
            }
            (None, Some(&y)) => {
                j += 1;
                y
            }
            (None, None) => break,
        };
    }
    out
}

/// How many of `values` (in order) are below `x`, the first `from` known to
/// be: a walk on from there, as a window holds only a few.
#[inline(always)]
pub fn walk_below(values: &[Ms], from: usize, x: Ms) -> usize {
    let mut i = from;
    while i < values.len() && values[i] < x {
        i += 1;
    }
    i
}

impl From<Vec<Ms>> for Times {
    fn from(head: Vec<Ms>) -> Self {
        Self {
            head,
            tail: Tail::default(),
        }
    }
}

/// `Times::below_rising`: walks the stepped values on from the last bound
/// and keeps the tail's position as a quotient and remainder of its step, so
/// a bound that rises as much as the one before (a window) costs additions:
/// a 64-bit division per window was most of a day's node timeline.
pub struct Below<'a> {
    times: &'a Times,
    /// Stepped values below the last bound.
    stepped: usize,
    /// The last bound past the tail's first value: the bound, and its
    /// distance from that value in whole steps and the remainder.
    tail: Option<(Ms, Ms, Ms)>,
    /// The last rise of the bound, in whole steps and the remainder.
    rise: (Ms, Ms, Ms),
}

impl Below<'_> {
    /// How many values are below `x`, which is no lower than the last bound.
    #[inline(always)]
    pub fn below(&mut self, x: Ms) -> usize {
        let head = &self.times.head;
        self.stepped = walk_below(head, self.stepped, x);
        if self.stepped < head.len() {
            return self.stepped;
        }
        let tail = &self.times.tail;
        let Tail {
            first, step, count, ..
        } = *tail;
        if count == 0 || x <= first {
            return head.len();
        }
        if step == 0 {
            return head.len() + count;
        }
        let (q, r) = match self.tail {
            Some((last, q, r)) => {
                let by = x - last;
                if by != self.rise.0 {
                    self.rise = (by, by / step, by % step);
                }
                let (q, r) = (q + self.rise.1, r + self.rise.2);
                if r >= step {
                    (q + 1, r - step)
                } else {
                    (q, r)
                }
            }
            None => ((x - first) / step, (x - first) % step),
        };
        self.tail = Some((x, q, r));
        head.len() + tail.below_split(q, r)
    }
}

/// Equal when the values are, however they are held.
impl PartialEq for Times {
    fn eq(&self, other: &Self) -> bool {
        (self.head == other.head && self.tail == other.tail)
            || (self.len() == other.len() && self.iter().eq(other.iter()))
    }
}

impl Eq for Times {}

impl PartialEq<Vec<Ms>> for Times {
    fn eq(&self, other: &Vec<Ms>) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter().copied())
    }
}

impl PartialEq<[Ms]> for Times {
    fn eq(&self, other: &[Ms]) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter().copied())
    }
}

impl fmt::Debug for Times {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// An array, as the list it stands for.
impl Serialize for Times {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Times {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Vec::deserialize(d).map(Self::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 5, 7, then 10, 13, 16, 19 (a tail from 10 every 3).
    fn sample() -> Times {
        let mut t = Times::from(vec![5, 7]);
        t.repeat(10, 3, 4);
        t
    }

    #[test]
    fn reads_as_the_list() {
        let t = sample();
        assert_eq!(t, vec![5, 7, 10, 13, 16, 19]);
        assert_eq!(
            (t.len(), t.get(3), t.get(6), t.last()),
            (6, Some(13), None, Some(19))
        );
        assert_eq!(t.iter_from(1).collect::<Vec<_>>(), [7, 10, 13, 16, 19]);
        assert_eq!(t.iter_from(4).collect::<Vec<_>>(), [16, 19]);
        assert_eq!(t.iter_from(9).count(), 0);
        assert_eq!(t, Times::from(t.to_vec()));
        // Held: the two stepped ones; the tail is arithmetic.
        assert_eq!((t.stored(), Times::from(t.to_vec()).stored()), (2, 6));
        // The third to fifth (10, 13, 16) are the tail's, from 10 every 3;
        // the second to fourth are not all of it; the first two are stepped.
        assert_eq!(t.periodic(2..5), Some((10, (3, 0))));
        assert_eq!(t.periodic(4..6), Some((16, (3, 0))));
        assert_eq!(
            (t.periodic(1..4), t.periodic(4..4), t.periodic(5..7)),
            (None, None, None)
        );
        assert_eq!(t.stepped(0..2), Some(&[5, 7][..]));
        assert_eq!(t.stepped(1..3), None);
    }

    // Merged lists read as all their values sorted; tails that do not all
    // run to the end in one step are written out.
    #[test]
    fn merges_as_a_sort() {
        let lists = [
            sample(),
            Times::from(vec![0, 7, 13, 30]),
            Times::new(),
            sample(),
        ];
        let refs: Vec<&Times> = lists.iter().collect();
        let mut all: Vec<Ms> = lists.iter().flat_map(|t| t.to_vec()).collect();
        all.sort_unstable();
        assert_eq!(Times::merge(&refs, 31), all);
        assert_eq!(Times::merge(&refs, 31).stored(), all.len());
        assert_eq!(Times::merge(&refs[1..2], 31), vec![0, 7, 13, 30]);
        assert!(Times::merge(&[], 0).is_empty());
    }

    /// Three lists periodic every 10 up to 45: 5 then 10, 20, 30, 40; 13,
    /// 23, 33, 43; 0, 7 then 21, 31, 41.
    fn three_periodic() -> [Times; 3] {
        let mut a = Times::from(vec![5]);
        a.repeat(10, 10, 4);
        let mut b = Times::new();
        b.repeat(13, 10, 4);
        let mut c = Times::from(vec![0, 7]);
        c.repeat(21, 10, 3);
        [a, b, c]
    }

    // From 21 (the latest tail's start) each period holds 21, 23 and 30 (a
    // 10 later): offsets 0, 2 and 9; the eight values from there on (30, 40;
    // 23, 33, 43; 21, 31, 41) stay arithmetic, the six before are written.
    #[test]
    fn merges_periodic_lists_periodic() {
        let [a, b, c] = three_periodic();
        let merged = Times::merge(&[&a, &b, &c], 45);
        let all = [0, 5, 7, 10, 13, 20, 21, 23, 30, 31, 33, 40, 41, 43];
        assert_eq!(merged, all.to_vec());
        assert_eq!((merged.stored(), merged.len()), (6, 14));
        assert_eq!(merged.periodic(6..9), Some((21, (10, 0))));
        assert_eq!(merged.periodic(7..9), Some((23, (10, 1))));
        assert_eq!(merged.periodic(10..12), Some((33, (10, 1))));
        for x in 0..50 {
            let want = all.iter().filter(|&&v| v < x).count();
            assert_eq!(merged.count_below(x), want, "{x}");
        }
        for from in 0..all.len() {
            assert_eq!(merged.iter_from(from).collect::<Vec<_>>(), all[from..]);
        }
        let shifted = merged.shifted(4, 45);
        let want: Vec<Ms> = all.iter().map(|v| v + 4).filter(|&v| v < 45).collect();
        assert_eq!(shifted, want);
        // A list that stops short of the end, a value past it, a stepped
        // value among the tails or a tail of another step: written out.
        let mut short = Times::new();
        short.repeat(13, 10, 2);
        let mut other = Times::new();
        other.repeat(13, 7, 4);
        let late = Times::from(vec![25]);
        for odd in [&short, &other, &late] {
            let m = Times::merge(&[&a, odd, &c], 45);
            assert_eq!(m.stored(), m.len());
            let mut want: Vec<Ms> = [&a, odd, &c].iter().flat_map(|t| t.to_vec()).collect();
            want.sort_unstable();
            assert_eq!(m, want);
        }
        assert_eq!(Times::merge(&[&a, &b, &c], 43).stored(), 14);
    }

    #[test]
    fn counts_by_arithmetic() {
        let t = sample();
        // Below 5: none; below 8: 5, 7; below 10: the same; below 11: + 10;
        // below 17: + 13, 16; below 100: all six.
        let below = [0, 5, 6, 8, 10, 11, 16, 17, 19, 20, 100].map(|x| t.count_below(x));
        assert_eq!(below, [0, 0, 1, 2, 2, 3, 4, 5, 5, 6, 6]);
        assert_eq!((t.count_by(16), t.count_by(15)), (5, 4));
        assert_eq!((t.binary_search(13), t.binary_search(14)), (Ok(3), Err(4)));
        // Every x against a walk of the list.
        let list = t.to_vec();
        for x in 0..25 {
            let want = list.iter().filter(|&&v| v < x).count();
            assert_eq!(t.count_below(x), want, "{x}");
        }
    }

    // Rising bounds, counted on from the last: 4 s windows over 5, 7, then
    // 10, 13, 16, 19: below 4 none, below 8 two, below 12 + 10, below 16
    // + 13, below 20 + 16, 19. Rises that change and repeat: below 3 none,
    // 11 three, 11 again three, 18 five, 40 all six.
    #[test]
    fn counts_below_rising_bounds() {
        let t = sample();
        let mut windows = t.below_rising();
        assert_eq!(
            [4, 8, 12, 16, 20].map(|x| windows.below(x)),
            [0, 2, 3, 4, 6]
        );
        let mut uneven = t.below_rising();
        assert_eq!(
            [3, 11, 11, 18, 40].map(|x| uneven.below(x)),
            [0, 3, 3, 5, 6]
        );
        // Every start and stride against count_below, over a tail of a step
        // of 0 too.
        let mut flat = Times::from(vec![2]);
        flat.repeat(6, 0, 3);
        for t in [t, flat] {
            for start in 0..8 {
                for stride in 0..9 {
                    let mut b = t.below_rising();
                    for x in (0..12).map(|k| start + k * stride) {
                        assert_eq!(b.below(x), t.count_below(x), "{start}+{stride}: {x}");
                    }
                }
            }
        }
    }

    #[test]
    fn min_max_over_any_range() {
        // Waits that fall then settle: 40, 80, then 20 five times.
        let mut w = Times::from(vec![40, 80]);
        w.repeat(20, 0, 5);
        let list = w.to_vec();
        for a in 0..list.len() {
            for b in a + 1..=list.len() {
                let slice = &list[a..b];
                let want = (*slice.iter().min().unwrap(), *slice.iter().max().unwrap());
                assert_eq!(w.min_max(a..b), want, "{a}..{b}");
            }
        }
    }

    #[test]
    fn json_is_the_array() {
        assert_eq!(
            serde_json::to_string(&sample()).unwrap(),
            "[5,7,10,13,16,19]"
        );
        let back: Times = serde_json::from_str("[1,2]").unwrap();
        assert_eq!(back, vec![1, 2]);
    }
}
