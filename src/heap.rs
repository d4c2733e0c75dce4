//! The wasm's allocator: blocks of fixed sizes (each power of two and the
//! size halfway to the next: 8, 12, 16, 24, 32, 48…), with a free list for
//! each size. It is about 2 KB gzip smaller in each wasm than the standard
//! library's dlmalloc, which splits and merges blocks. The cost is memory:
//! up to a third of a block is unused, and a size's free blocks serve only
//! that size. Measured in Chromium: the default view 1.4 → 1.5 MB of wasm
//! memory, the bench's worst case 35 → 41 MB.
//!
//! `Heap` is plain code over addresses, so that native tests can run it
//! over memory of their own; on wasm32 it is the global allocator, taking
//! pages with `memory.grow`.

/// Memory comes from the platform in pages of this size.
pub const PAGE: usize = 1 << 16;
/// The smallest block, which holds the next free block's address.
const SMALLEST: usize = 8;
/// Two sizes per power of two.
const CLASSES: usize = 2 * usize::BITS as usize;

/// For each size class, its first free block (0 for none); and the part of
/// the pages had so far not yet cut into blocks.
pub struct Heap {
    free: [usize; CLASSES],
    next: usize,
    end: usize,
}

impl Default for Heap {
    fn default() -> Self {
        Self::new()
    }
}

impl Heap {
    pub const fn new() -> Self {
        Heap {
            free: [0; CLASSES],
            next: 0,
            end: 0,
        }
    }

    /// A request's class and the size of its blocks: the smallest block that
    /// holds `size` bytes and is as aligned as `align` asks. A block is
    /// aligned to the largest power of two dividing its size (at most a
    /// page); no block is aligned to more than a page.
    pub fn class(size: usize, align: usize) -> Option<(usize, usize)> {
        if align > PAGE {
            return None;
        }
        let size = size.max(align).max(SMALLEST);
        // 2^k < size <= 2^(k+1), with k >= 2.
        let k = usize::BITS - 1 - (size - 1).leading_zeros();
        let between = 3usize << (k - 1);
        let (class, block) = if size <= between && align <= 1 << (k - 1) {
            (2 * k as usize, between)
        } else {
            (2 * k as usize + 1, 2usize.checked_pow(k + 1)?)
        };
        (class < CLASSES).then_some((class, block))
    }

    /// A block for `size` bytes aligned to `align`, or 0 when none can be
    /// had. `grow(pages)` asks the platform for that many more pages and
    /// gives the address of the first, or `None`.
    ///
    /// # Safety
    /// Every range `grow` gives (`pages * PAGE` bytes from its address) is
    /// memory this heap alone reads and writes; so are the blocks given back.
    pub unsafe fn alloc(
        &mut self,
        size: usize,
        align: usize,
        grow: impl FnOnce(usize) -> Option<usize>,
    ) -> usize {
        let Some((class, block)) = Self::class(size, align) else {
            return 0;
        };
        let head = self.free[class];
        if head != 0 {
            // SAFETY: a free block holds the next one's address (dealloc);
            // a 12-byte block is aligned to 4 only, less than a native usize.
            self.free[class] = unsafe { (head as *const usize).read_unaligned() };
            return head;
        }
        let step = (block & block.wrapping_neg()).min(PAGE);
        let fits = |at: usize, end: usize| {
            let start = at.checked_add(step - 1)? & !(step - 1);
            (start.checked_add(block)? <= end).then_some(start)
        };
        let start = match fits(self.next, self.end) {
            Some(start) => start,
            None => {
                let pages = block.div_ceil(PAGE);
                let Some(first) = grow(pages) else {
                    return 0;
                };
                let Some(end) = pages.checked_mul(PAGE).and_then(|n| first.checked_add(n)) else {
                    return 0;
                };
                // Pages that follow the last ones extend them.
                if first != self.end {
                    self.next = first;
                }
                self.end = end;
                let Some(start) = fits(self.next, self.end) else {
                    return 0;
                };
                start
            }
        };
        self.next = start + block;
        start
    }

    /// Takes back a block `alloc` gave for the same size and alignment.
    ///
    /// # Safety
    /// `ptr` is such a block, not taken back since.
    pub unsafe fn dealloc(&mut self, ptr: usize, size: usize, align: usize) {
        if let Some((class, _)) = Self::class(size, align) {
            // SAFETY: the block is at least SMALLEST bytes, room for an address.
            unsafe { (ptr as *mut usize).write_unaligned(self.free[class]) };
            self.free[class] = ptr;
        }
    }

    /// Whether a block for `old` bytes holds `new` bytes as well.
    pub fn same_block(old: usize, new: usize, align: usize) -> bool {
        matches!((Self::class(old, align), Self::class(new, align)), (Some(a), Some(b)) if a.0 == b.0)
    }
}

#[cfg(target_arch = "wasm32")]
mod wasm {
    use super::{Heap, PAGE};
    use std::alloc::{GlobalAlloc, Layout};
    use std::cell::UnsafeCell;

    struct Global(UnsafeCell<Heap>);
    // SAFETY: wasm32-unknown-unknown without the atomics feature has one thread.
    #[cfg(not(target_feature = "atomics"))]
    unsafe impl Sync for Global {}

    fn grow(pages: usize) -> Option<usize> {
        let old = core::arch::wasm32::memory_grow(0, pages);
        (old != usize::MAX).then(|| old * PAGE)
    }

    // SAFETY: the pages memory.grow adds are used by nothing else (the
    // standard library's allocator is this one).
    unsafe impl GlobalAlloc for Global {
        unsafe fn alloc(&self, l: Layout) -> *mut u8 {
            unsafe { (*self.0.get()).alloc(l.size(), l.align(), grow) as *mut u8 }
        }
        unsafe fn dealloc(&self, ptr: *mut u8, l: Layout) {
            unsafe { (*self.0.get()).dealloc(ptr as usize, l.size(), l.align()) }
        }
        unsafe fn realloc(&self, ptr: *mut u8, l: Layout, new: usize) -> *mut u8 {
            // Growing within its block (a Vec's capacity, often) moves nothing.
            if Heap::same_block(l.size(), new, l.align()) {
                return ptr;
            }
            unsafe {
                let to = self.alloc(Layout::from_size_align_unchecked(new, l.align()));
                if !to.is_null() {
                    std::ptr::copy_nonoverlapping(ptr, to, l.size().min(new));
                    self.dealloc(ptr, l);
                }
                to
            }
        }
    }

    #[global_allocator]
    static HEAP: Global = Global(UnsafeCell::new(Heap::new()));
}
