//! Parallel outer loops into a sparse output written per row, in two
//! passes and without locks.
//!
//! Pass 1: the iterations are cut into chunks balanced by work, exactly as
//! for a dense output (each chunk owns a contiguous run of output rows, and
//! a compressed level 0 is cut only where its coordinate grows), and each
//! chunk runs the kernel's loop body, unchanged, into a chunk output of its
//! own ([`ChunkOut`]: the output's encoding with `usize` positions over
//! `Vec`s, with its own workspace), inserting row `i` as `i - row0`. The
//! chunks share nothing but the (read-only) operands. The output keeps the
//! chunk outputs for its next call, whose chunks reuse their memory.
//!
//! Pass 2, on the calling thread: the chunk outputs, in row order, are
//! joined into the real output (`SparseTensorOut::concat_rows`): counts
//! per row become positions shifted by the entries of the chunks before,
//! and the coordinates and values are copied; or, when the output cannot
//! take them directly (a full buffer, a position wider than `posWidth`),
//! they are inserted one by one in the sequential kernel's order, so that
//! the error and the emptied output are the sequential kernel's.
//!
//! Every entry is computed by the sequential kernel's instructions in the
//! same order (a row never spans two chunks, and nothing is summed across
//! rows), so the result is the sequential result bit for bit.

use alloc::vec::Vec;

use super::{grain, halfway, row_starts, work_of, Coordinates, Cut};
use crate::encoding::Encoding;
use crate::error::KernelError;
use crate::index::Index;
use crate::output::{Chunk, ChunkOut, OutputBuffers, SparseTensorOut};

/// A chunk of a split loop: the iterations `lo..hi`, which write the output
/// rows `row_lo..row_hi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Span {
    lo: usize,
    hi: usize,
    row_lo: usize,
    row_hi: usize,
}

/// Cuts `span` where half its work is done until chunks are at most the
/// grain, pushing the chunks in order. A cut whose row is outside the
/// span's rows (only on invalid input) is not made.
fn plan<W, R>(span: Span, cut: &Cut<'_, W, R>, out: &mut Vec<Span>)
where
    W: Fn(usize) -> usize,
    R: Fn(usize) -> Option<usize>,
{
    let at = halfway(span.lo, span.hi, cut).and_then(|mid| {
        let row = (cut.row)(mid)?;
        (span.row_lo <= row && row <= span.row_hi).then_some((mid, row))
    });
    match at {
        Some((mid, row)) => {
            let left = Span {
                hi: mid,
                row_hi: row,
                ..span
            };
            let right = Span {
                lo: mid,
                row_lo: row,
                ..span
            };
            plan(left, cut, out);
            plan(right, cut, out);
        }
        None => out.push(span),
    }
}

/// The chunks of the iterations `lo..hi` writing rows `0..rows`: one when
/// the work is below the threshold (or there is one thread).
fn spans<W, R>(lo: usize, hi: usize, rows: usize, work: &W, row: &R) -> Vec<Span>
where
    W: Fn(usize) -> usize,
    R: Fn(usize) -> Option<usize>,
{
    let whole = Span {
        lo,
        hi,
        row_lo: 0,
        row_hi: rows,
    };
    let mut out = Vec::new();
    match grain(work(hi).saturating_sub(work(lo)), 1) {
        None => out.push(whole),
        Some(grain) => {
            let cut = Cut {
                stride: 1,
                work,
                row,
                grain,
            };
            plan(whole, &cut, &mut out);
        }
    }
    out
}

/// A chunk in pass 1: its span, its output, and how its body ended.
type Task<V, E> = (Span, Chunk<V, E, 2, 2>, Result<(), KernelError>);

/// Runs `body` on every chunk's output (in parallel with `rayon`), then
/// joins them into `out`. On a chunk's error, `out` is emptied and the
/// first such error (in row order) returned.
fn run<V, E, B, F>(
    out: &mut SparseTensorOut<V, E, B, 2, 2>,
    spans: &[Span],
    body: F,
) -> Result<(), KernelError>
where
    V: Default + Clone + Send + Sync + 'static,
    E: Encoding,
    E::Crd: Send + Sync,
    B: OutputBuffers<E::Pos, E::Crd, V>,
    F: Fn(Span, &mut ChunkOut<V, E, 2, 2>) -> Result<(), KernelError> + Sync,
{
    // The chunk outputs of the last call, reused: their memory is
    // allocated and paged in already.
    let mut kept = out.take_chunks();
    let mut chunks: Vec<Task<V, E>> = spans
        .iter()
        .map(|&s| {
            let rows = s.row_hi.saturating_sub(s.row_lo);
            let chunk = Chunk {
                row0: s.row_lo,
                out: out.chunk_out_from(rows, kept.pop()),
            };
            (s, chunk, Ok(()))
        })
        .collect();
    // Each chunk output is started (`begin`) already.
    let fill = |(s, chunk, result): &mut Task<V, E>| {
        *result = body(*s, &mut chunk.out).and_then(|()| chunk.out.finish("output"));
    };
    #[cfg(feature = "rayon")]
    {
        use rayon::iter::{IntoParallelRefMutIterator, ParallelIterator};
        if chunks.len() > 1 {
            chunks.par_iter_mut().for_each(fill);
        } else {
            chunks.iter_mut().for_each(fill);
        }
    }
    #[cfg(not(feature = "rayon"))]
    chunks.iter_mut().for_each(fill);
    let mut joined = Vec::with_capacity(chunks.len());
    let mut failed = None;
    for (_, chunk, result) in chunks {
        if let (Err(e), None) = (result, &failed) {
            failed = Some(e);
        }
        joined.push(chunk);
    }
    let done = match failed {
        Some(e) => {
            out.clear();
            Err(e)
        }
        None => {
            out.concat_rows(&joined);
            Ok(())
        }
    };
    out.keep_chunks(joined.into_iter().map(|c| c.out).collect());
    done
}

/// A parallel dense outer loop `for i in 0..n` whose iteration `i` inserts
/// only into row `i` of the sparse output `out`, in the sequential
/// kernel's order (called after `out.begin()`; the kernel calls
/// `out.finish(..)` after it).
///
/// `body(row0, hi, part)` runs the iterations `row0..hi` into `part`, a
/// chunk output of rows `row0..hi` (iteration `i` inserts row
/// `i - row0`). The chunks partition `0..n`, balanced by `weights` as in
/// [`dense`](super::dense), and run in parallel with the `rayon` feature;
/// then their entries become `out`'s (see the module docs). An error from
/// `body` empties `out` and is returned.
#[inline]
pub fn sparse_dense<V, E, B, P, F>(
    out: &mut SparseTensorOut<V, E, B, 2, 2>,
    n: usize,
    weights: Option<&[P]>,
    body: F,
) -> Result<(), KernelError>
where
    V: Default + Clone + Send + Sync + 'static,
    E: Encoding,
    E::Crd: Send + Sync,
    B: OutputBuffers<E::Pos, E::Crd, V>,
    P: Index + Sync,
    F: Fn(usize, usize, &mut ChunkOut<V, E, 2, 2>) -> Result<(), KernelError> + Sync,
{
    let work = work_of(weights);
    let row = |b: usize| Some(b);
    let spans = spans(0, n, n, &work, &row);
    run(out, &spans, |s, part| body(s.lo, s.hi, part))
}

/// A parallel walk over the entries `lo..hi` of an ordered compressed
/// level 0 whose entry with coordinate `i` inserts only into row `i` of
/// the sparse output `out` (rows `0..n_rows`), in the sequential kernel's
/// order (called after `out.begin()`; the kernel calls `out.finish(..)`
/// after it).
///
/// `body(plo, phi, row0, part)` walks the entries `plo..phi` into `part`,
/// a chunk output whose row 0 is output row `row0` (an entry with
/// coordinate `i` inserts row `i - row0`). Chunks are cut as in
/// [`compressed`](super::compressed) and run in parallel with the `rayon`
/// feature; then their entries become `out`'s (see the module docs). An
/// error from `body` empties `out` and is returned.
#[inline]
pub fn sparse_compressed<V, E, B, P, C, F>(
    out: &mut SparseTensorOut<V, E, B, 2, 2>,
    n_rows: usize,
    coordinates: Coordinates<'_, C>,
    (lo, hi): (usize, usize),
    weights: Option<&[P]>,
    body: F,
) -> Result<(), KernelError>
where
    V: Default + Clone + Send + Sync + 'static,
    E: Encoding,
    E::Crd: Send + Sync,
    B: OutputBuffers<E::Pos, E::Crd, V>,
    P: Index + Sync,
    C: Index + Sync,
    F: Fn(usize, usize, usize, &mut ChunkOut<V, E, 2, 2>) -> Result<(), KernelError> + Sync,
{
    let work = work_of(weights);
    let row = row_starts(coordinates, n_rows);
    let spans = spans(lo, hi.max(lo), n_rows, &work, &row);
    run(out, &spans, |s, part| body(s.lo, s.hi, s.row_lo, part))
}
