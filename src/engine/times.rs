//! A pod's restart times (or the waits before them) as the engine makes
//! them: those it stepped through, then, once the restarts repeat (no jitter,
//! the curve at its cap), the rest as arithmetic, `first + k × step` for
//! `count` more, never written out. A day at a 1 s cap is 86,400 restarts and
//! a handful of stepped ones; counting them per window, folding them for a
//! chart or finding one is per segment, not per restart. Reads as a list
//! (`len`, `get`, `iter`, JSON as an array) wherever a list is wanted.

use std::fmt;
use std::ops::Range;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::Ms;

#[derive(Clone, Default)]
pub struct Times {
    head: Vec<Ms>,
    tail: Tail,
}

/// `count` values after the head: `first`, `first + step`, …
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Tail {
    first: Ms,
    step: Ms,
    count: usize,
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
    pub fn push(&mut self, t: Ms) {
        debug_assert_eq!(self.tail.count, 0, "a value after the periodic tail");
        self.head.push(t);
    }

    /// Ends with `count` values `first + k × step` (`step` 0: all `first`).
    pub fn repeat(&mut self, first: Ms, step: Ms, count: usize) {
        debug_assert_eq!(self.tail.count, 0, "a second periodic tail");
        if count > 0 {
            self.tail = Tail { first, step, count };
        }
    }

    #[inline(always)]
    pub fn get(&self, i: usize) -> Option<Ms> {
        match self.head.get(i) {
            Some(&t) => Some(t),
            None => {
                let k = i - self.head.len();
                (k < self.tail.count).then(|| self.tail.first + k as Ms * self.tail.step)
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

    /// The first value in `range` and the step between them, when all are
    /// of the periodic tail (and there is one).
    #[inline(always)]
    pub fn periodic(&self, range: Range<usize>) -> Option<(Ms, Ms)> {
        let h = self.head.len();
        (range.start >= h && range.start < range.end && range.end <= self.len()).then(|| {
            (
                self.tail.first + (range.start - h) as Ms * self.tail.step,
                self.tail.step,
            )
        })
    }

    /// The values from the `from`th on.
    pub fn iter_from(&self, from: usize) -> impl Iterator<Item = Ms> + '_ {
        let Tail { first, step, count } = self.tail;
        let skip = from.saturating_sub(self.head.len());
        self.head
            .get(from..)
            .unwrap_or(&[])
            .iter()
            .copied()
            .chain((skip.min(count)..count).map(move |k| first + k as Ms * step))
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
        let Tail { first, step, count } = self.tail;
        if count == 0 || x <= first {
            0
        } else if step == 0 {
            count
        } else {
            // The k ≥ 0 with first + k·step < x: ⌈(x − first) / step⌉ of them.
            usize::try_from((x - first).div_ceil(step)).map_or(count, |k| k.min(count))
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
            tail: rest.tail,
        }
    }

    /// Every value moved later by `by`, those below `end` kept (values in
    /// order), tail kept as a tail.
    pub fn shifted(&self, by: Ms, end: Ms) -> Times {
        let keep = self.count_below(end.saturating_sub(by));
        let h = self.head.len().min(keep);
        let mut tail = self.tail;
        tail.first += by;
        tail.count = keep - h;
        Times {
            head: self.head[..h].iter().map(|&t| t + by).collect(),
            tail,
        }
    }

    /// Several lists in order merged into one, all stepped: for what must
    /// read them as one (the rate limiter's bursts). Merged two by two, each
    /// a walk along both (a day's status versions at a 1 s cap are 260,000).
    pub fn merge(lists: &[&Times]) -> Times {
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
        let merged = match slices.as_slice() {
            [] => vec![],
            [a] => a.to_vec(),
            [a, b] => merge_two(a, b),
            [a, b, rest @ ..] => rest
                .iter()
                .fold(merge_two(a, b), |acc, c| merge_two(&acc, c)),
        };
        Times::from(merged)
    }
}

/// Two lists in order, merged.
fn merge_two(a: &[Ms], b: &[Ms]) -> Vec<Ms> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i] <= b[j] {
            out.push(a[i]);
            i += 1;
        } else {
            out.push(b[j]);
            j += 1;
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
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
        let Tail { first, step, count } = self.times.tail;
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
        // The k ≥ 0 with first + k·step < x: ⌈(x − first) / step⌉ of them.
        let k = q + Ms::from(r > 0);
        head.len() + usize::try_from(k).map_or(count, |k| k.min(count))
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
        assert_eq!(t.periodic(2..5), Some((10, 3)));
        assert_eq!(t.periodic(4..6), Some((16, 3)));
        assert_eq!(
            (t.periodic(1..4), t.periodic(4..4), t.periodic(5..7)),
            (None, None, None)
        );
        assert_eq!(t.stepped(0..2), Some(&[5, 7][..]));
        assert_eq!(t.stepped(1..3), None);
    }

    // Merged lists read as all their values sorted, tails written out.
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
        assert_eq!(Times::merge(&refs), all);
        assert_eq!(Times::merge(&refs[1..2]), vec![0, 7, 13, 30]);
        assert!(Times::merge(&[]).is_empty());
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
