//! Parallel outer loops: what a kernel marked `#[parallel]` calls to run
//! its outermost loop in chunks (feature `rayon`).
//!
//! The code generator splits a statement's outermost loop when it is
//! parallel (its index is the first index of the output, so two
//! iterations never write the same element) and walks a dense range
//! (`dense`) or the ordered coordinates of a compressed level 0
//! (`compressed`). The iteration range is cut into chunks of about equal
//! *work* (stored entries of the level below, found by binary search over
//! its positions, plus one per iteration), the output into the matching
//! disjoint `&mut` runs of rows with `split_at_mut`, and the chunks run
//! under `rayon::join`. No locks, no `unsafe`: each task owns its rows.
//! A sparse output stored by rows (CSR, DCSR) is written in two passes
//! instead, each chunk into an output of its own, then joined in row order
//! (`sparse_dense`, `sparse_compressed`; see `par/sparse.rs`).
//!
//! Every element of the output is computed by exactly the code the
//! sequential kernel runs for it, in the same order, so the result is the
//! sequential result bit for bit (no reduction crosses a chunk: a loop
//! whose index is summed is never split).
//!
//! Small problems stay on the calling thread: below `SEQUENTIAL_BELOW`
//! units of work (entries plus rows, times the output elements per row) the
//! body runs once over everything, and no chunk is smaller than
//! `MIN_CHUNK_WORK` (both settable, `crate::parallel::set_work_limits`).
//! Without the `rayon` feature the same functions run
//! the body once over everything; generated code reaches them only behind
//! `__private::require_rayon!`, which is a compile
//! error without the feature.

use crate::index::Index;

/// Work (entries plus rows, times the output elements per row) below which
/// a parallel kernel runs on the calling thread by default: 50 to 200 µs of
/// SpMV, several times the 10 to 15 µs that handing the chunks to rayon's
/// sleeping threads and waiting for them cost on the bench machine (an
/// SpMV of 40 000 entries, 16 µs on one thread, took 29 µs in chunks).
pub const SEQUENTIAL_BELOW: usize = 1 << 17;

/// The least work of one task by default, so that a large kernel on many
/// threads is not cut into chunks that cost more to schedule than to run.
pub const MIN_CHUNK_WORK: usize = 1 << 15;

/// Tasks per thread: more chunks than threads lets rayon's work stealing
/// even out rows whose cost the entry count misjudges.
const TASKS_PER_THREAD: usize = 4;

#[cfg(feature = "rayon")]
mod limits {
    use core::sync::atomic::{AtomicUsize, Ordering};

    static SEQUENTIAL: AtomicUsize = AtomicUsize::new(super::SEQUENTIAL_BELOW);
    static CHUNK: AtomicUsize = AtomicUsize::new(super::MIN_CHUNK_WORK);

    /// Sets, for the whole process, the work below which a `#[parallel]`
    /// kernel runs on the calling thread (default
    /// [`SEQUENTIAL_BELOW`](super::SEQUENTIAL_BELOW)) and the least work
    /// of one chunk (default [`MIN_CHUNK_WORK`](super::MIN_CHUNK_WORK)).
    /// Work is counted in stored entries plus rows of the split loop,
    /// times the output elements per row. `set_work_limits(0, 1)` cuts
    /// even the smallest inputs (tests); results do not depend on it.
    pub fn set(sequential_below: usize, min_chunk: usize) {
        SEQUENTIAL.store(sequential_below, Ordering::Relaxed);
        CHUNK.store(min_chunk, Ordering::Relaxed);
    }

    /// The limits in force, as `(sequential below, least work per chunk)`
    /// (see [`set_work_limits`](set)).
    pub fn get() -> (usize, usize) {
        (
            SEQUENTIAL.load(Ordering::Relaxed),
            CHUNK.load(Ordering::Relaxed),
        )
    }
}

#[cfg(feature = "rayon")]
pub use limits::{get as work_limits, set as set_work_limits};

/// The number of threads chunks are cut for: 1 (no cut) without `rayon`.
fn threads() -> usize {
    #[cfg(feature = "rayon")]
    {
        rayon::current_num_threads().max(1)
    }
    #[cfg(not(feature = "rayon"))]
    {
        1
    }
}

/// The work limits in force: (sequential below, least work per chunk).
fn limits() -> (usize, usize) {
    #[cfg(feature = "rayon")]
    {
        limits::get()
    }
    #[cfg(not(feature = "rayon"))]
    {
        (SEQUENTIAL_BELOW, MIN_CHUNK_WORK)
    }
}

/// Runs the two halves, in parallel with `rayon`.
fn join(a: impl FnOnce() + Send, b: impl FnOnce() + Send) {
    #[cfg(feature = "rayon")]
    {
        rayon::join(a, b);
    }
    #[cfg(not(feature = "rayon"))]
    {
        a();
        b();
    }
}

/// How a chunked loop is cut.
struct Cut<'a, W, R> {
    /// Output elements per outer index (the row length).
    stride: usize,
    /// Cumulative work at an iteration boundary (monotone on valid input).
    work: &'a W,
    /// The first output row a chunk starting at an iteration owns, `None`
    /// where the loop cannot be cut (two iterations share a row).
    row: &'a R,
    /// Chunks below this much work are not cut further.
    grain: usize,
}

/// Runs `body` on chunks of the iterations `lo..hi`, whose output rows
/// start at `row_lo` and fill `out`: cuts at the iteration where half the
/// work is done (binary search over `work`), splits `out` there and runs
/// both halves with `join`, until a chunk is at most the grain.
fn split<T, W, R, F>(
    out: &mut [T],
    lo: usize,
    hi: usize,
    row_lo: usize,
    cut: &Cut<'_, W, R>,
    body: &F,
) where
    T: Send,
    W: Fn(usize) -> usize + Sync,
    R: Fn(usize) -> Option<usize> + Sync,
    F: Fn(usize, usize, usize, &mut [T]) + Sync,
{
    let Some(mid) = halfway(lo, hi, cut) else {
        body(lo, hi, row_lo, out);
        return;
    };
    // Rows `row_lo..row_mid` go left; every cut is checked, and a loop
    // that cannot be cut here runs whole (never out of its rows).
    let halves = (cut.row)(mid)
        .and_then(|row_mid| Some((row_mid, row_mid.checked_sub(row_lo)?)))
        .and_then(|(row_mid, rows)| Some((row_mid, rows.checked_mul(cut.stride)?)))
        .and_then(|(row_mid, at)| Some((row_mid, out.split_at_mut_checked(at)?)));
    match halves {
        Some((row_mid, (left, right))) => join(
            || split(left, lo, mid, row_lo, cut, body),
            || split(right, mid, hi, row_mid, cut, body),
        ),
        None => body(lo, hi, row_lo, out),
    }
}

/// Where to cut the iterations `lo..hi`: the first boundary in
/// `lo + 1..hi` with half the work before it; `None` when the chunk is at
/// most the grain (or a single iteration).
fn halfway<W, R>(lo: usize, hi: usize, cut: &Cut<'_, W, R>) -> Option<usize>
where
    W: Fn(usize) -> usize,
{
    let start = (cut.work)(lo);
    let total = (cut.work)(hi).saturating_sub(start);
    if total <= cut.grain || hi.saturating_sub(lo) < 2 {
        return None;
    }
    let target = start + total / 2;
    let (mut a, mut z) = (lo + 1, hi - 1);
    while a < z {
        let m = a + (z - a) / 2;
        if (cut.work)(m) < target {
            a = m + 1;
        } else {
            z = m;
        }
    }
    Some(a)
}

/// The grain for `total` units of work whose rows hold `scale` output
/// elements each; `None` when the whole loop should run on this thread
/// (little work, or one thread).
fn grain(total: usize, scale: usize) -> Option<usize> {
    let scale = scale.max(1);
    let (sequential_below, min_chunk) = limits();
    let threads = threads();
    if threads <= 1 || total == 0 || total.saturating_mul(scale) < sequential_below {
        return None;
    }
    let tasks = threads.saturating_mul(TASKS_PER_THREAD);
    Some((total / tasks).max(min_chunk.div_ceil(scale)).max(1))
}

/// A parallel dense outer loop `for i in 0..n`, whose iteration `i` writes
/// only the output elements `i * stride .. (i + 1) * stride` of `out`.
///
/// `body(lo, hi, rows)` runs the iterations `lo..hi`, with `rows` the
/// elements of those iterations (`out[lo * stride..hi * stride]`, so
/// iteration `i` writes `rows[(i - lo) * stride + ..]`). The chunks
/// partition `0..n` and run in parallel with the `rayon` feature. `weights`
/// is a positions array with an entry per iteration boundary (`pos[i]` the
/// entries before row `i`, e.g. CSR's level 1): chunks are balanced by
/// entries plus rows; without it by rows. `scale` is the output elements
/// per row, which multiplies the work for the sequential threshold.
///
/// A positions array shorter than `n + 1` or an `out` shorter than
/// `n * stride` is never cut out of range: the chunks that cannot be cut
/// run whole.
#[inline]
pub fn dense<T, P, F>(out: &mut [T], stride: usize, n: usize, weights: Option<&[P]>, body: F)
where
    T: Send,
    P: Index + Sync,
    F: Fn(usize, usize, &mut [T]) + Sync,
{
    let work = work_of(weights);
    let Some(grain) = grain(work(n).saturating_sub(work(0)), stride) else {
        body(0, n, out);
        return;
    };
    let row = |b: usize| Some(b);
    let cut = Cut {
        stride,
        work: &work,
        row: &row,
        grain,
    };
    split(out, 0, n, 0, &cut, &|lo, hi, _, rows: &mut [T]| {
        body(lo, hi, rows)
    });
}

/// The coordinates of a compressed level 0 that a parallel loop walks:
/// the buffer, and where the coordinate of entry `p` is
/// (`crd[p * stride + offset]`, stride above 1 in an AoS COO region).
#[derive(Clone, Copy, Debug)]
pub struct Coordinates<'a, C> {
    /// The coordinate buffer.
    pub crd: &'a [C],
    /// Coordinates per entry.
    pub stride: usize,
    /// This level's slot in an entry's tuple.
    pub offset: usize,
}

/// The work done before iteration (or entry) `b`: `b` plus, with
/// `weights` (the positions array of the level below), the entries below
/// the first `b`. Chunks are cut where half of it is done.
fn work_of<P: Index>(weights: Option<&[P]>) -> impl Fn(usize) -> usize + '_ {
    move |b| {
        let entries = weights.map_or(0, |w| w.get(b).map_or(0, |p| p.as_usize()));
        entries.saturating_add(b)
    }
}

/// The output row a chunk starting at entry `b` of a compressed level 0
/// begins with, `None` where no chunk may start: a chunk may start at `b`
/// only if its coordinate is larger than the previous entry's (a
/// duplicate segment is never cut) and within the output's `n_rows` rows.
fn row_starts<C: Index>(
    coordinates: Coordinates<'_, C>,
    n_rows: usize,
) -> impl Fn(usize) -> Option<usize> + '_ {
    let Coordinates {
        crd,
        stride: cs,
        offset: co,
    } = coordinates;
    let at = move |p: usize| {
        let k = p.checked_mul(cs)?.checked_add(co)?;
        Some(crd.get(k)?.as_usize())
    };
    move |b| {
        let (prev, here) = (at(b.checked_sub(1)?)?, at(b)?);
        (prev < here && here <= n_rows).then_some(here)
    }
}

/// A parallel walk over the entries `lo..hi` of a compressed level 0 whose
/// coordinates are ordered, where the entry with coordinate `i` writes only
/// the output elements `i * stride .. (i + 1) * stride` of `out`, the rows
/// `0..n_rows`.
///
/// `body(plo, phi, row0, rows)` walks the entries `plo..phi` (a sub-range
/// of `lo..hi`), whose coordinates are at least `row0`; `rows` starts at
/// output row `row0` (entry coordinate `i` writes
/// `rows[(i - row0) * stride + ..]`) and holds every row the chunk's coordinates reach. A chunk
/// starts where the coordinate grows (`crd[p - 1] < crd[p]`), so a
/// duplicate segment of a non-unique level is never cut. `weights` is the
/// positions array of level 1 (`pos[p]` the entries before entry `p`):
/// chunks are balanced by entries below plus entries; without it by
/// entries.
#[inline]
#[allow(clippy::too_many_arguments)]
pub fn compressed<T, P, C, F>(
    out: &mut [T],
    stride: usize,
    n_rows: usize,
    coordinates: Coordinates<'_, C>,
    (lo, hi): (usize, usize),
    weights: Option<&[P]>,
    body: F,
) where
    T: Send,
    P: Index + Sync,
    C: Index + Sync,
    F: Fn(usize, usize, usize, &mut [T]) + Sync,
{
    let work = work_of(weights);
    let hi = hi.max(lo);
    let Some(grain) = grain(work(hi).saturating_sub(work(lo)), stride) else {
        body(lo, hi, 0, out);
        return;
    };
    let row = row_starts(coordinates, n_rows);
    let cut = Cut {
        stride,
        work: &work,
        row: &row,
        grain,
    };
    split(out, lo, hi, 0, &cut, &body);
}

#[cfg(feature = "alloc")]
mod sparse;
#[cfg(feature = "alloc")]
pub use sparse::{sparse_compressed, sparse_dense};

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use core::sync::atomic::{AtomicUsize, Ordering};
    use std::vec::Vec;

    /// Runs `dense` and checks the chunks: they partition `0..n`, each
    /// gets exactly its rows, and the output is what one pass writes.
    fn check_dense(n: usize, stride: usize, pos: Option<&[u32]>) -> usize {
        let mut out = std::vec![0usize; n * stride];
        let covered = AtomicUsize::new(0);
        let chunks = AtomicUsize::new(0);
        dense(&mut out, stride, n, pos, |lo, hi, rows| {
            assert!(lo <= hi && hi <= n);
            assert_eq!(rows.len(), (hi - lo) * stride);
            for i in lo..hi {
                for k in 0..stride {
                    rows[(i - lo) * stride + k] += i * stride + k + 1;
                }
            }
            covered.fetch_add(hi - lo, Ordering::Relaxed);
            chunks.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(covered.load(Ordering::Relaxed), n);
        let expected: Vec<usize> = (0..n * stride).map(|e| e + 1).collect();
        assert_eq!(out, expected);
        chunks.load(Ordering::Relaxed)
    }

    #[test]
    fn small_loops_run_whole() {
        assert_eq!(check_dense(0, 1, None), 1);
        assert_eq!(check_dense(10, 3, None), 1);
        let pos: Vec<u32> = (0..=100).map(|i| i * 10).collect();
        assert_eq!(check_dense(100, 1, Some(&pos)), 1);
    }

    // Large inputs (past the default limits): only cut with rayon, and
    // slow under Miri without it.
    #[test]
    #[cfg(feature = "rayon")]
    fn large_loops_are_cut_by_entries() {
        let n = 4 * SEQUENTIAL_BELOW;
        // One heavy row in the middle, the rest empty.
        let pos: Vec<u32> = (0..=n as u32)
            .map(|i| if i as usize > n / 2 { 1 << 20 } else { 0 })
            .collect();
        let chunks = check_dense(n, 1, Some(&pos));
        assert!(chunks >= threads().min(2), "{chunks} chunks");
        check_dense(n, 2, None);
        // Short positions: never out of range.
        check_dense(n, 1, Some(&pos[..10]));
    }

    #[test]
    #[cfg(feature = "rayon")]
    fn compressed_chunks_start_where_the_coordinate_grows() {
        // Coordinates 0, 0, 2, 2, 2, 3, 5, ... (segments of length 1..3).
        let n_rows = 3 * SEQUENTIAL_BELOW;
        let mut crd: Vec<u32> = Vec::new();
        for r in (0..n_rows).step_by(2) {
            for _ in 0..(r % 3 + 1) {
                crd.push(r as u32);
            }
        }
        let nnz = crd.len();
        for (stride, offset, buf) in [
            (1, 0, crd.clone()),
            (2, 1, crd.iter().flat_map(|&c| [7, c]).collect()),
        ] {
            let mut out = std::vec![0usize; n_rows];
            let seen = AtomicUsize::new(0);
            let c = Coordinates {
                crd: &buf,
                stride,
                offset,
            };
            compressed(
                &mut out,
                1,
                n_rows,
                c,
                (0, nnz),
                None::<&[u32]>,
                |plo, phi, row0, rows| {
                    assert!(plo <= phi && phi <= nnz);
                    if plo > 0 && plo < nnz {
                        assert!(crd[plo - 1] < crd[plo], "cut inside a segment at {plo}");
                    }
                    for &c in &crd[plo..phi] {
                        rows[c as usize - row0] += 1;
                    }
                    seen.fetch_add(phi - plo, Ordering::Relaxed);
                },
            );
            assert_eq!(seen.load(Ordering::Relaxed), nnz);
            let mut expected = std::vec![0usize; n_rows];
            for &c in &crd {
                expected[c as usize] += 1;
            }
            assert_eq!(out, expected);
        }
    }
}
