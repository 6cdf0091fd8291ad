//! The conversion driver: checks the sizes, then streams the source into
//! the output's insertion protocol when it is stored in the target's
//! order, or stages it (`stage.rs`) otherwise.

use crate::encoding::Encoding;
use crate::error::KernelError;
use crate::layout::Layout;
use crate::output::{OutputBuffers, SparseTensorOut};

use super::source::Source;
use super::{stage, ConvertError, Merge};

/// Whether the target keeps repeated coordinates as separate entries:
/// every level from the first non-unique compressed or loose one on is
/// non-unique (COO with `singleton(nonunique)`). Otherwise repeats are
/// merged (or refused).
pub(crate) fn keeps_repeats<const DIM: usize, const LVL: usize>(layout: &Layout<DIM, LVL>) -> bool {
    match first_nonunique(layout) {
        Some(f) => layout.levels.iter().skip(f).all(|i| !i.ty.is_unique()),
        None => false,
    }
}

/// The first compressed or loose level that is non-unique.
pub(crate) fn first_nonunique<const DIM: usize, const LVL: usize>(
    layout: &Layout<DIM, LVL>,
) -> Option<usize> {
    layout
        .levels
        .iter()
        .position(|i| i.ty.has_positions() && !i.ty.is_unique())
}

/// The `structured[n, m]` level of a target, if it has one.
fn structured_level<const DIM: usize, const LVL: usize>(
    layout: &Layout<DIM, LVL>,
) -> Option<usize> {
    layout
        .levels
        .iter()
        .position(|i| matches!(i.ty.format, crate::vocab::LevelFormat::Structured { .. }))
}

/// Converts `src` into `out`; on error `out` is left empty.
pub(crate) fn run<V, E, B, Src, const DIM: usize, const LVL: usize>(
    src: &Src,
    out: &mut SparseTensorOut<V, E, B, DIM, LVL>,
    merge: Merge<V>,
) -> Result<(), ConvertError>
where
    V: Clone + Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
    Src: Source<V, DIM>,
{
    let have = out.dim_sizes();
    let want = src.dims();
    if let Some(dim) = (0..DIM).find(|&d| have.get(d) != want.get(d)) {
        out.clear();
        return Err(ConvertError::DimensionMismatch {
            dim,
            size: have.get(dim).copied().unwrap_or(0),
            expected: want.get(dim).copied().unwrap_or(0),
        });
    }
    let result = if let Some(done) = src.fast(out, merge) {
        done
    } else if src.streams::<E, LVL>() {
        stream(src, out, merge)
    } else if let Some(level) = structured_level(&out.layout) {
        // Staging builds positions and coordinates, not n:m groups.
        Err(ConvertError::StructuredOrder { level })
    } else {
        stage::stage(src, out, merge)
    };
    if result.is_err() {
        out.clear();
    }
    result
}

/// Inserts the source's entries, which come in the target's order, one by
/// one; repeats are adjacent, and are kept, merged or refused.
fn stream<V, E, B, Src, const DIM: usize, const LVL: usize>(
    src: &Src,
    out: &mut SparseTensorOut<V, E, B, DIM, LVL>,
    merge: Merge<V>,
) -> Result<(), ConvertError>
where
    V: Clone + Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
    Src: Source<V, DIM>,
{
    let layout = out.layout;
    let keep = keeps_repeats(&layout);
    out.begin();
    let mut pending: Option<([usize; LVL], V)> = None;
    let mut fault = None;
    src.each_lvl(&layout, &mut |lvl, v| {
        if fault.is_some() {
            return;
        }
        pending = match pending.take() {
            Some((p, pv)) if p == lvl && !keep => match merge.apply(pv, v.clone()) {
                Ok(sum) => Some((p, sum)),
                Err(why) => {
                    fault = Some(why.error(&layout.lvl_to_dim(&p)));
                    None
                }
            },
            Some((p, pv)) => {
                out.insert(p, pv);
                Some((lvl, v.clone()))
            }
            None => Some((lvl, v.clone())),
        };
    });
    if let (Some((p, pv)), None) = (pending, fault) {
        out.insert(p, pv);
    }
    let finished = out.finish("convert");
    if let Some(f) = fault {
        return Err(f);
    }
    finished.map_err(finish_error)
}

/// The conversion error for what an output's `finish` reported (the
/// output's protocol speaks [`KernelError`], a conversion [`ConvertError`]).
fn finish_error(e: KernelError) -> ConvertError {
    match e {
        KernelError::Capacity {
            level,
            buffer,
            needed,
            capacity,
            ..
        } => ConvertError::Capacity {
            level,
            buffer,
            needed,
            capacity,
        },
        KernelError::PositionOverflow {
            level,
            entries,
            max,
            ..
        } => ConvertError::PositionOverflow {
            level,
            entries,
            max,
        },
        KernelError::GroupOverflow {
            level,
            group,
            coordinate,
            n,
            m,
            ..
        } => ConvertError::GroupOverflow {
            level,
            group,
            coordinate,
            n,
            m,
        },
        KernelError::InsertOutOfOrder { level, .. }
        | KernelError::InsertOutOfRange { level, .. } => ConvertError::NotRepresentable { level },
        // `finish` returns only the variants above; the prologue errors
        // of generated kernels never reach a conversion.
        _ => ConvertError::NotRepresentable { level: 0 },
    }
}
