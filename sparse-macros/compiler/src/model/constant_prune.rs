//! `prune_2_4(dense<...>)` / `prune_2_4(file(..))`: NVIDIA's 2:4
//! structured pruning at compile time, for a constant whose encoding has a
//! `structured[2, 4]` level; `prune_blocks` is in `constant_prune_blocks`.

use proc_macro2::Span;

use super::constant::Elements;
use super::constant_prune_blocks::prune_blocks;
use super::constant_value::Scalar;
use super::ValueType;
use crate::errors::Errors;
use crate::syntax::{ConstantSyntax, PruneKind};

/// Prunes the dense value `elements` of sizes `shape` as `kind` says, for
/// the constant's encoding; `None` (with the error recorded) when the
/// encoding has no structure of that kind.
#[allow(clippy::too_many_arguments)]
pub(super) fn prune(
    def: &ConstantSyntax,
    encoding: Option<&super::Encoding>,
    span: Span,
    kind: PruneKind,
    shape: &[u64],
    elements: &mut Elements,
    elem: ValueType,
    errors: &mut Errors,
) -> Option<()> {
    match kind {
        PruneKind::TwoFour => {
            let dim = prune_dim(def, encoding, span, errors)?;
            prune_2_4(shape, dim, elements, elem);
        }
        PruneKind::Blocks { keep, .. } => {
            prune_blocks(def, encoding, span, keep, shape, elements, elem, errors)?;
        }
    }
    Some(())
}

/// The magnitude pruning compares, as a key ordered by `total_cmp` (floats)
/// or by value (integers): `|x|`, the modulus of a complex number.
fn magnitude(v: Scalar) -> (u8, f64, u128) {
    match v {
        Scalar::F32(x) => (0, f64::from(x.abs()), 0),
        Scalar::F64(x) => (0, x.abs(), 0),
        Scalar::Int(n) => (1, 0.0, n.unsigned_abs()),
        Scalar::Bool(b) => (1, 0.0, u128::from(b)),
        Scalar::F16(b) => (0, half::f16::from_bits(b).to_f64().abs(), 0),
        Scalar::BF16(b) => (0, half::bf16::from_bits(b).to_f64().abs(), 0),
        Scalar::C32(re, im) => (0, f64::from(re).hypot(f64::from(im)), 0),
        Scalar::C64(re, im) => (0, re.hypot(im), 0),
    }
}

/// The dimension `prune_2_4` groups along: that of the encoding's
/// `structured[2, 4]` level (`j` in `j mod 4 : block2_4`).
fn prune_dim(
    def: &ConstantSyntax,
    encoding: Option<&super::Encoding>,
    span: Span,
    errors: &mut Errors,
) -> Option<usize> {
    let level = encoding.and_then(|enc| {
        enc.levels.iter().find(|l| {
            matches!(
                l.ty.format,
                crate::vocab::LevelFormat::Structured { n: 2, m: 4 }
            )
        })
    });
    match level {
        Some(level) => Some(level.expr.dim()),
        None => {
            errors.error(
                span,
                format!(
                    "`prune_2_4` keeps 2 of every 4 values for a `structured[2, 4]` (`block2_4`) \
                     level, but `{}` has {}; give it an encoding such as `map = (i, j) -> (i : \
                     dense, j floordiv 4 : dense, j mod 4 : block2_4)`",
                    def.name,
                    match &def.encoding {
                        Some(name) => format!("the encoding `#{name}`, which has none"),
                        None => "no encoding".to_string(),
                    }
                ),
            );
            None
        }
    }
}

/// 2:4 pruning: in every group of four consecutive elements along
/// dimension `dim` (coordinates `4g..4g + 4`), keeps the two of largest
/// magnitude and sets the others to zero. Ties go to the lower index; NaN
/// counts as the largest magnitude (IEEE total order on `|x|`).
fn prune_2_4(shape: &[u64], dim: usize, elements: &mut Elements, elem: ValueType) {
    let inner: usize = shape[dim + 1..].iter().map(|&n| n as usize).product();
    let size = shape[dim] as usize;
    let outer: usize = shape[..dim].iter().map(|&n| n as usize).product();
    let larger = |a: Scalar, b: Scalar| {
        let (ka, xa, na) = magnitude(a);
        let (_, xb, nb) = magnitude(b);
        if ka == 0 {
            xa.total_cmp(&xb).is_gt()
        } else {
            na > nb
        }
    };
    for o in 0..outer {
        for r in 0..inner {
            for g in (0..size).step_by(4) {
                let group: Vec<usize> = (g..(g + 4).min(size))
                    .map(|c| (o * size + c) * inner + r)
                    .collect();
                // Rank each member: how many others beat it (a strictly
                // larger magnitude, or an equal one at a lower index).
                let keep: Vec<bool> = group
                    .iter()
                    .enumerate()
                    .map(|(a, &ka)| {
                        let beaten = group
                            .iter()
                            .enumerate()
                            .filter(|&(b, &kb)| {
                                b != a
                                    && (larger(elements[kb].0, elements[ka].0)
                                        || (b < a && !larger(elements[ka].0, elements[kb].0)))
                            })
                            .count();
                        beaten < 2
                    })
                    .collect();
                for (&k, keep) in group.iter().zip(keep) {
                    if !keep {
                        elements[k].0 = Scalar::zero(elem);
                    }
                }
            }
        }
    }
}
