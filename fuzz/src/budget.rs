//! The per-input memory budget: a counting global allocator and a guard around one input.
//!
//! libFuzzer's `-rss_limit_mb` measures the whole process, its in-memory corpus included, so on a
//! long campaign it reports "out of memory" for inputs that need a few MB. The allocator below
//! counts the bytes the Rust code holds (ra2 and its libyaml port allocate only through it;
//! libFuzzer's own C++ allocations are not counted) and [`within_budget`] fails the input whose
//! peak, above what was held before it started, exceeds [`BUDGET`].
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The most heap one input may hold at any moment: 64 MiB.
pub const BUDGET: usize = 64 << 20;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

struct Counting;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn grew(by: usize) {
    let live = LIVE.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

fn shrank(by: usize) {
    LIVE.fetch_sub(by, Ordering::Relaxed);
}

// SAFETY: every call is forwarded unchanged to the system allocator; the counters only observe
// the sizes of the calls that succeeded.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc` is passed on as it is.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            grew(layout.size());
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            grew(layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` and `layout` come from this allocator, which got them from `System`.
        unsafe { System.dealloc(ptr, layout) };
        shrank(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as for `dealloc`; `new_size` is the caller's, checked by `System`.
        let out = unsafe { System.realloc(ptr, layout, new_size) };
        if !out.is_null() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                shrank(layout.size() - new_size);
            }
        }
        out
    }
}

/// Runs one input and panics (a finding for libFuzzer) when the heap it held at its peak
/// exceeded [`BUDGET`].
pub fn within_budget<R>(run: impl FnOnce() -> R) -> R {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let out = run();
    let peak = PEAK.load(Ordering::Relaxed).saturating_sub(before);
    assert!(
        peak <= BUDGET,
        "one input held {} MiB of heap at its peak (budget {} MiB)",
        peak >> 20,
        BUDGET >> 20
    );
    out
}
