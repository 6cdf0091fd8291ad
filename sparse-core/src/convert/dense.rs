//! Sparse to dense: MLIR's `sparse_tensor.convert` into an unannotated
//! tensor, implicit zeros made explicit.

use core::ops::Add;

use crate::dense::DenseViewMut;
use crate::encoding::Encoding;
use crate::tensor::SparseTensor;

use super::merge::{checked_add, Unmerged};
use super::ConvertError;

/// Writes `src` into the row-major array `out` (of length the product of
/// `src`'s dimension sizes): every element `V::default()`, then each
/// stored entry added to its element, so repeated coordinates (a
/// `nonunique` source) are summed, as MLIR reads them. `O(dense size +
/// nse)`, no allocation. An integer sum that overflows the element type is
/// [`ConvertError::SumOverflow`] naming the element (never a wrap or a
/// panic); `out` is then all `V::default()`.
///
/// ```
/// use sparse_core::convert::to_dense;
/// use sparse_core::levels::{compressed, d0, d1, dense};
/// use sparse_core::{Enc, Level, SparseTensor};
///
/// type Csc = Enc<u8, u8, (dense, compressed), (d1, d0)>;
///
/// let a = SparseTensor::<i32, Csc, 2, 2>::assemble(
///     [2, 3],
///     [Level::dense(), Level::compressed(&[0, 1, 2, 3], &[0, 1, 0])],
///     &[1, 3, 2],
/// )?;
/// let mut dense = [9; 6];
/// to_dense(&a, &mut dense)?;
/// assert_eq!(dense, [1, 0, 2,
///                    0, 3, 0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn to_dense<V, S, const DIM: usize, const LS: usize>(
    src: &SparseTensor<'_, V, S, DIM, LS>,
    out: &mut [V],
) -> Result<(), ConvertError>
where
    V: Clone + Default + Add<Output = V> + 'static,
    S: Encoding,
{
    let dims = src.dim_sizes();
    let expected = dims.iter().try_fold(1usize, |n, &d| n.checked_mul(d));
    if expected != Some(out.len()) {
        return Err(ConvertError::ViewLength {
            len: out.len(),
            expected,
        });
    }
    for slot in out.iter_mut() {
        *slot = V::default();
    }
    let mut fault = None;
    src.for_each(|d, v| {
        if fault.is_some() {
            return;
        }
        let mut at = 0usize;
        for (&c, &n) in d.iter().zip(&dims) {
            // `for_each` hands out coordinates below the sizes, whose
            // product is `out.len()`: no overflow.
            at = at.wrapping_mul(n).wrapping_add(c);
        }
        if let Some(slot) = out.get_mut(at) {
            match checked_add(core::mem::take(slot), v.clone()) {
                Some(sum) => *slot = sum,
                None => fault = Some(Unmerged::Overflow.error(&d)),
            }
        }
    });
    match fault {
        None => Ok(()),
        Some(e) => {
            for slot in out.iter_mut() {
                *slot = V::default();
            }
            Err(e)
        }
    }
}

/// [`to_dense`] into a [`DenseViewMut`], whose dimensions must be `src`'s
/// ([`ConvertError::DimensionMismatch`]).
pub fn to_dense_view<V, S, const DIM: usize, const LS: usize>(
    src: &SparseTensor<'_, V, S, DIM, LS>,
    out: &mut DenseViewMut<'_, V, DIM>,
) -> Result<(), ConvertError>
where
    V: Clone + Default + Add<Output = V> + 'static,
    S: Encoding,
{
    let (have, want) = (out.dims(), src.dim_sizes());
    if let Some(dim) = (0..DIM).find(|&d| have.get(d) != want.get(d)) {
        return Err(ConvertError::DimensionMismatch {
            dim,
            size: have.get(dim).copied().unwrap_or(0),
            expected: want.get(dim).copied().unwrap_or(0),
        });
    }
    to_dense(src, out.as_mut_slice())
}
