//! The macro's own peak memory per stored entry of a constant: the part
//! of rustc's memory the macro decides (reading the file, sorting the
//! entries, laying the buffers out, emitting them as byte strings). The
//! documented bound (`docs/SECURITY.md`): at most `BYTES_PER_ENTRY` bytes
//! per stored entry plus the file's bytes and 1 MiB. rustc adds its own
//! share on top (`bench/compile/constants-memory.sh` measures the whole
//! build: at most 870 MB for any accepted constant).
//!
//! The heap is counted by this test binary's global allocator, per thread
//! (the other tests of the binary run on other threads meanwhile).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use proc_macro2::TokenStream;

/// The bound per stored entry (measured: 76–154 bytes, see each case).
const BYTES_PER_ENTRY: usize = 256;

struct Counting;

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

/// Adds `delta` to this thread's live bytes and its peak (not counted on a
/// thread being torn down).
fn count(delta: isize) {
    let _ = LIVE.try_with(|live| {
        let now = live.get().wrapping_add(delta);
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

// SAFETY: every call is forwarded to the system allocator unchanged; the
// counters are arithmetic on the sizes in thread-locals that do not
// allocate (const-initialised `Cell`s).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            count(layout.size() as isize);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) };
        count(-(layout.size() as isize));
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            // During a move both blocks exist: count the new one first.
            count(new_size as isize);
            count(-(layout.size() as isize));
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The peak heap bytes this thread holds above the start while the macro
/// expands `src` (its tokens made before counting), and the expansion.
fn expand_peak(src: &str) -> (TokenStream, usize) {
    let tokens: TokenStream = src.parse().expect("test input tokenizes");
    let base = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(base));
    let out = crate::expand(tokens);
    let peak = PEAK.with(Cell::get);
    (out, usize::try_from(peak - base).unwrap_or(0))
}

const CSR: &str = "#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), \
                   posWidth = 32, crdWidth = 32 }>";

/// Expands `static S: <decl>;` and checks the bound for `entries` stored
/// entries read from `file_bytes` bytes.
fn check(decl: &str, entries: usize, file_bytes: usize) -> usize {
    let (out, peak) = expand_peak(&format!("{CSR} static S: {decl};"));
    let text = out.to_string();
    assert!(
        !text.contains("compile_error"),
        "{}",
        &text[..text.len().min(400)]
    );
    let bound = BYTES_PER_ENTRY * entries + file_bytes + (1 << 20);
    assert!(
        peak <= bound,
        "{decl}: peak {peak} bytes for {entries} entries ({} per entry; bound {bound})",
        peak / entries.max(1)
    );
    peak
}

/// A Matrix Market file of every 16th element of a 2048x2048 matrix
/// (2^18 entries) in shuffled order, so the macro sorts them.
fn shuffled_mtx(path: &std::path::Path) -> usize {
    let mut cells: Vec<u64> = (0..2048 * 2048).step_by(16).collect();
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for k in (1..cells.len()).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        cells.swap(k, (x % (k as u64 + 1)) as usize);
    }
    let mut text = format!(
        "%%MatrixMarket matrix coordinate real general\n2048 2048 {}\n",
        cells.len()
    );
    for c in &cells {
        text.push_str(&format!("{} {} {}.5\n", c / 2048 + 1, c % 2048 + 1, c % 97));
    }
    std::fs::write(path, &text).unwrap();
    text.len()
}

#[test]
fn constants_cost_the_macro_a_bounded_number_of_bytes_per_stored_entry() {
    let dir = std::env::temp_dir().join(format!("sparse-constant-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mtx = dir.join("w.mtx");
    let bytes = shuffled_mtx(&mtx);
    let entries = 1 << 18;
    // Measured: 130 bytes per entry besides the file's 3.6 MB.
    check(
        &format!(
            "tensor<2048x2048xf32, #CSR> = file({:?})",
            mtx.display().to_string()
        ),
        entries,
        bytes,
    );
    // A splat is one value until laid out: 2^20 stored entries, 154 bytes
    // each (the layout and the emitted byte strings).
    check("tensor<1024x1024xf32, #CSR> = dense<1.5>", 1 << 20, 0);
    // One entry under 2^20 rows: the positions are the stored part, 76
    // bytes per row.
    check(
        "tensor<1048576x4xf32, #CSR> = sparse<[[1048575, 3]], [1.0]>",
        1 << 20,
        0,
    );
    let _ = std::fs::remove_dir_all(&dir);
}
