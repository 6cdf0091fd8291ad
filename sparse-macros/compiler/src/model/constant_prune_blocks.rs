//! `prune_blocks(VALUE, keep = K)`: block pruning at compile time, for a
//! constant stored in blocks (BSR: `(i, j) -> (i floordiv R : dense,
//! j floordiv C : compressed, i mod R : dense, j mod C : dense)`).
//!
//! The dense value is cut into the encoding's blocks (`R x C` for BSR; a
//! dimension without a `mod` level has blocks of 1). In every *block row*
//! (the blocks sharing their block coordinates in all dimensions but the
//! last) the `K` blocks of largest norm are kept whole and every other
//! block is set to zero, so the BSR constant stores at most `K` blocks per
//! block row. The norm is the Frobenius norm (the sum of the squared
//! magnitudes; a complex value's squared modulus), summed exactly in
//! `u128` for integers (saturating) and in `f64` for floats; a NaN counts
//! as the largest norm. Ties go to the block of lower column. A block row
//! with fewer than `K` nonzero blocks keeps them all (a kept block of
//! zeros stores nothing).

use proc_macro2::Span;

use super::constant::Elements;
use super::constant_value::Scalar;
use super::ValueType;
use crate::errors::Errors;
use crate::syntax::ConstantSyntax;
use crate::vocab::{LevelExpr, LevelFormat};

/// A block's squared Frobenius norm: exact for integers, `f64` for floats.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Norm {
    Int(u128),
    Float(f64),
}

impl Norm {
    fn add(self, v: Scalar) -> Norm {
        let square = |x: f64| x * x;
        match (self, v) {
            (Norm::Int(acc), Scalar::Int(n)) => {
                let m = n.unsigned_abs();
                Norm::Int(acc.saturating_add(m.saturating_mul(m)))
            }
            (Norm::Int(acc), Scalar::Bool(b)) => Norm::Int(acc + u128::from(b)),
            (Norm::Float(acc), v) => Norm::Float(
                acc + match v {
                    Scalar::F32(x) => square(f64::from(x)),
                    Scalar::F64(x) => square(x),
                    Scalar::F16(b) => square(half::f16::from_bits(b).to_f64()),
                    Scalar::BF16(b) => square(half::bf16::from_bits(b).to_f64()),
                    Scalar::C32(re, im) => square(f64::from(re)) + square(f64::from(im)),
                    Scalar::C64(re, im) => square(re) + square(im),
                    Scalar::Int(n) => square(n as f64),
                    Scalar::Bool(b) => f64::from(u8::from(b)),
                },
            ),
            (Norm::Int(acc), _) => Norm::Int(acc),
        }
    }

    /// Whether `self` is the larger norm (NaN above every number).
    fn larger(self, other: Norm) -> bool {
        match (self, other) {
            (Norm::Int(a), Norm::Int(b)) => a > b,
            (Norm::Float(a), Norm::Float(b)) => a.abs().total_cmp(&b.abs()).is_gt(),
            _ => false,
        }
    }
}

/// Keeps the `keep` blocks of largest norm in every block row of the
/// dense value `elements` (row-major, sizes `shape`) and zeroes the rest.
#[allow(clippy::too_many_arguments)]
pub(super) fn prune_blocks(
    def: &ConstantSyntax,
    encoding: Option<&super::Encoding>,
    span: Span,
    keep: u64,
    shape: &[u64],
    elements: &mut Elements,
    elem: ValueType,
    errors: &mut Errors,
) -> Option<()> {
    let sizes = block_sizes(def, encoding, shape.len(), span, errors)?;
    let counts: Vec<usize> = shape
        .iter()
        .zip(&sizes)
        .map(|(&n, &b)| n.div_ceil(b) as usize)
        .collect();
    let blocks: usize = counts.iter().product();
    let per_row = counts.last().copied().unwrap_or(1);
    if blocks == 0 || per_row == 0 {
        return Some(());
    }
    let zero = if elem.is_float() {
        Norm::Float(0.0)
    } else {
        Norm::Int(0)
    };
    // Each element's block, row-major over the block coordinates.
    let block_of = |flat: usize| -> usize {
        let mut rest = flat;
        let mut block = 0;
        let mut scale = 1;
        for d in (0..shape.len()).rev() {
            let n = shape[d] as usize;
            let c = rest % n;
            rest /= n;
            block += (c / sizes[d] as usize) * scale;
            scale *= counts[d];
        }
        block
    };
    let mut norms = vec![zero; blocks];
    for (flat, (v, _)) in elements.iter().enumerate() {
        let b = block_of(flat);
        norms[b] = norms[b].add(*v);
    }
    let mut kept = vec![false; blocks];
    for row in 0..blocks / per_row {
        let first = row * per_row;
        let mut order: Vec<usize> = (first..first + per_row).collect();
        // Largest norm first; among equal norms the lower column first
        // (a stable sort keeps the column order).
        order.sort_by(|&a, &b| {
            if norms[a].larger(norms[b]) {
                std::cmp::Ordering::Less
            } else if norms[b].larger(norms[a]) {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        });
        for &b in order.iter().take(keep.min(per_row as u64) as usize) {
            kept[b] = true;
        }
    }
    for flat in 0..elements.len() {
        if !kept[block_of(flat)] {
            elements[flat].0 = Scalar::zero(elem);
        }
    }
    Some(())
}

/// The block size of each dimension: the modulus of its `mod` level, 1
/// without one. An encoding without blocks stored densely is an error at
/// `prune_blocks`.
fn block_sizes(
    def: &ConstantSyntax,
    encoding: Option<&super::Encoding>,
    rank: usize,
    span: Span,
    errors: &mut Errors,
) -> Option<Vec<u64>> {
    let mut sizes = vec![1u64; rank];
    let mut dense_blocks = false;
    let mut structured = false;
    for level in encoding.map_or(&[][..], |e| &e.levels[..]) {
        if let LevelExpr::Mod { dim, modulus } = level.expr {
            if let Some(size) = sizes.get_mut(usize::from(dim)) {
                *size = u64::from(modulus);
            }
            match level.ty.format {
                LevelFormat::Dense => dense_blocks = true,
                _ => structured = true,
            }
        }
    }
    if dense_blocks && !structured {
        return Some(sizes);
    }
    let has = match (&def.encoding, structured) {
        (Some(name), true) => format!(
            "the encoding `#{name}`, whose blocks are not stored whole (a `structured` or \
             sparse level inside them; 2:4 is `prune_2_4`)"
        ),
        (Some(name), false) => format!("the encoding `#{name}`, which stores no blocks"),
        (None, _) => "no encoding".to_string(),
    };
    errors.error(
        span,
        format!(
            "`prune_blocks` keeps whole blocks for an encoding that stores them (BSR), but `{}` \
             has {has}; give it an encoding such as `map = (i, j) -> (i floordiv 4 : dense, j \
             floordiv 4 : compressed, i mod 4 : dense, j mod 4 : dense)`",
            def.name
        ),
    );
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn norms_order_as_documented() {
        let f = |xs: &[f64]| {
            xs.iter()
                .fold(Norm::Float(0.0), |n, &x| n.add(Scalar::F64(x)))
        };
        // Squared magnitudes summed: |(3, 4)| beats |(4.9)|.
        assert!(f(&[3.0, -4.0]).larger(f(&[4.9])));
        assert!(!f(&[4.9]).larger(f(&[3.0, -4.0])));
        // NaN is larger than every number, infinity included.
        assert!(f(&[f64::NAN]).larger(f(&[f64::INFINITY])));
        assert!(f(&[-0.0, f64::NAN]).larger(f(&[1e300, 1e300])));
        // Complex values by their squared modulus.
        let c = Norm::Float(0.0).add(Scalar::C64(3.0, 4.0));
        assert_eq!(c, Norm::Float(25.0));
        // Integers exactly, saturating rather than wrapping.
        let i = |xs: &[i128]| xs.iter().fold(Norm::Int(0), |n, &x| n.add(Scalar::Int(x)));
        assert_eq!(i(&[-128, 127]), Norm::Int(128 * 128 + 127 * 127));
        assert!(i(&[i128::from(i64::MIN); 8]).larger(i(&[i128::from(i64::MAX); 4])));
        assert_eq!(i(&[i128::MIN, 1]), Norm::Int(u128::MAX));
        // Equal norms: neither is larger (the lower column wins the tie).
        assert!(!i(&[3, 4]).larger(i(&[-4, 3])));
    }
}
