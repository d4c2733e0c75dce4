//! The wasm's allocator (src/heap.rs), run natively over pages of the
//! test's own: its size classes worked out by hand, and blocks that never
//! overlap, hold what was written in them and come back once freed.

use crashloop_explorer::heap::{Heap, PAGE};

/// Page-aligned memory handed out a page count at a time, as `memory.grow`
/// does, and refused past its end.
struct Pages {
    _buf: Vec<u8>,
    base: usize,
    used: usize,
    pages: usize,
}

impl Pages {
    fn new(pages: usize) -> Self {
        let buf = vec![0u8; (pages + 1) * PAGE];
        let base = (buf.as_ptr() as usize).next_multiple_of(PAGE);
        Pages {
            _buf: buf,
            base,
            used: 0,
            pages,
        }
    }

    fn grow(&mut self, n: usize) -> Option<usize> {
        (self.used + n <= self.pages).then(|| {
            let at = self.base + self.used * PAGE;
            self.used += n;
            at
        })
    }

    fn holds(&self, at: usize, len: usize) -> bool {
        at >= self.base && at + len <= self.base + self.used * PAGE
    }
}

fn alloc(heap: &mut Heap, pages: &mut Pages, size: usize, align: usize) -> usize {
    // SAFETY: the pages are the test's own and only the heap uses them.
    unsafe { heap.alloc(size, align, |n| pages.grow(n)) }
}

#[test]
fn sizes_go_to_the_smallest_block_that_holds_and_aligns_them() {
    // (size, align) → (class, block): classes count two per power of two.
    let cases = [
        ((1, 1), (5, 8)),
        ((8, 8), (5, 8)),
        ((9, 1), (6, 12)),
        ((12, 4), (6, 12)),
        // 12 bytes aligned to 8: a 12-byte block is aligned to 4 only.
        ((12, 8), (7, 16)),
        ((13, 1), (7, 16)),
        ((17, 1), (8, 24)),
        ((96, 8), (12, 96)),
        ((96, 64), (13, 128)),
        ((100, 1), (13, 128)),
        ((40_960, 8), (30, 49_152)),
        ((65_536, 8), (31, 65_536)),
        ((65_537, 8), (32, 98_304)),
    ];
    for ((size, align), want) in cases {
        assert_eq!(
            Heap::class(size, align),
            Some(want),
            "{size} bytes aligned to {align}"
        );
    }
    assert_eq!(
        Heap::class(8, 2 * PAGE),
        None,
        "no block is aligned to more than a page"
    );
    assert_eq!(Heap::class(usize::MAX, 1), None);
    assert!(Heap::same_block(9, 12, 1));
    assert!(!Heap::same_block(12, 13, 1));
}

#[test]
fn blocks_never_overlap_and_keep_what_is_written() {
    let mut pages = Pages::new(256);
    let mut heap = Heap::new();
    let mut live: Vec<(usize, usize, usize, u8)> = vec![];
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    for round in 0..20_000u32 {
        if live.len() > 40 || (!live.is_empty() && next(3) == 0) {
            let (at, size, align, mark) = live.swap_remove(next(live.len() as u64) as usize);
            // SAFETY: the block is live, `size` bytes from `at`.
            let kept = unsafe { std::slice::from_raw_parts(at as *const u8, size) };
            assert!(kept.iter().all(|&b| b == mark), "a block was overwritten");
            unsafe { heap.dealloc(at, size, align) };
        } else {
            let size =
                [1, 7, 8, 12, 20, 100, 1000, 5000, 70_000][next(9) as usize] + next(5) as usize;
            let align = [1, 4, 8, 16, 64][next(5) as usize];
            let at = alloc(&mut heap, &mut pages, size, align);
            assert_ne!(at, 0, "out of pages at round {round}");
            assert_eq!(at % align, 0, "{size} bytes aligned to {align} at {at:#x}");
            assert!(pages.holds(at, size));
            for &(other, len, _, _) in &live {
                assert!(at + size <= other || other + len <= at, "blocks overlap");
            }
            let mark = (round % 251) as u8 + 1;
            // SAFETY: the block is the heap's answer, `size` bytes.
            unsafe { std::ptr::write_bytes(at as *mut u8, mark, size) };
            live.push((at, size, align, mark));
        }
    }
}

#[test]
fn a_freed_block_serves_its_size_again_and_no_other() {
    let mut pages = Pages::new(4);
    let mut heap = Heap::new();
    let a = alloc(&mut heap, &mut pages, 20, 8);
    let b = alloc(&mut heap, &mut pages, 20, 8);
    // SAFETY: both are live blocks of 20 bytes.
    unsafe {
        heap.dealloc(a, 20, 8);
        heap.dealloc(b, 20, 8);
    }
    // Last freed, first served; a 17-byte request is of the same class (24).
    assert_eq!(alloc(&mut heap, &mut pages, 17, 4), b);
    let c = alloc(&mut heap, &mut pages, 30, 8);
    assert!(c != a && c != b, "a 32-byte request took a 24-byte block");
    assert_eq!(alloc(&mut heap, &mut pages, 24, 8), a);
}

#[test]
fn pages_that_follow_extend_the_last_ones_and_a_refusal_is_no_block() {
    let mut pages = Pages::new(2);
    let mut heap = Heap::new();
    // 40,960 bytes take a 49,152-byte block: one per page would waste a
    // quarter of each; the second starts where the first ends, across pages.
    let a = alloc(&mut heap, &mut pages, 40_960, 8);
    let b = alloc(&mut heap, &mut pages, 40_960, 8);
    assert_eq!((a, b), (pages.base, pages.base + 49_152));
    assert_eq!(pages.used, 2);
    // A third needs a page more than there are.
    assert_eq!(alloc(&mut heap, &mut pages, 40_960, 8), 0);
    // Small blocks still come from what is left of the second page.
    assert_eq!(alloc(&mut heap, &mut pages, 8, 8), pages.base + 98_304);
}
