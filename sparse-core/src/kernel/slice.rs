//! What kernels over sliced operands call: the check of a static slice
//! parameter, and the copies of a slice their loops read.

use super::{convert_error, KernelError};
use crate::encoding::Encoding;
use crate::output::{OutputBuffers, SparseTensorOut};
use crate::slice::{SliceParam, SliceView};
use crate::tensor::SparseTensor;

/// The fixed part of a [`KernelError::SliceMismatch`].
#[doc(hidden)]
#[derive(Debug)]
pub struct SliceSite {
    /// The parameter.
    pub tensor: &'static str,
    /// Its dimension.
    pub dim: usize,
    /// The slice parameter checked.
    pub param: SliceParam,
}

/// Builds a kernel's [`KernelError::SliceMismatch`] out of line (see
/// [`dimension_mismatch`](super::dimension_mismatch)).
#[doc(hidden)]
#[cold]
#[inline(never)]
pub fn slice_mismatch(site: &'static SliceSite, found: usize, expected: usize) -> KernelError {
    KernelError::SliceMismatch {
        tensor: site.tensor,
        dim: site.dim,
        param: site.param,
        found,
        expected,
    }
}

/// Fills the workspace `copy` with the entries of the slice `src` (at the
/// slice's coordinates, in `copy`'s level order, repeats merged by
/// `merge`) and returns it as a tensor for the kernel's loops: the
/// prologue of a kernel with a sliced operand. Conversion errors name the
/// workspace parameter `name`.
#[doc(hidden)]
pub fn reorder_slice<'w, V, S, E, B, const DIM: usize, const LS: usize, const LVL: usize>(
    src: &SliceView<'_, V, S, DIM, LS>,
    copy: &'w mut SparseTensorOut<V, E, B, DIM, LVL>,
    name: &'static str,
    merge: fn(V, V) -> V,
) -> Result<SparseTensor<'w, V, E, DIM, LVL>, KernelError>
where
    V: Clone + Default,
    S: Encoding,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    crate::convert::slice::convert_slice_merged(
        src,
        None,
        copy,
        crate::convert::Merge::Total(merge),
    )
    .map_err(|error| convert_error(name, error))?;
    Ok(copy.view())
}

/// A statement that only copies a sliced input into a sparse output
/// (`c[i, j] = a[i, j]`, `c[j, i] = a[i, j]`): the slice, seen in the
/// output's dimension order (dimension `k` of `out` is dimension `perm[k]`
/// of the slice), converted into `out`, repeats merged by `merge`.
#[doc(hidden)]
pub fn convert_slice_into<V, S, E, B, const DIM: usize, const LS: usize, const LVL: usize>(
    src: &SliceView<'_, V, S, DIM, LS>,
    perm: [usize; DIM],
    out: &mut SparseTensorOut<V, E, B, DIM, LVL>,
    name: &'static str,
    merge: fn(V, V) -> V,
) -> Result<(), KernelError>
where
    V: Clone + Default,
    S: Encoding,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    let identity = perm.iter().enumerate().all(|(d, &p)| d == p);
    let perm = (!identity).then_some(perm);
    crate::convert::slice::convert_slice_merged(src, perm, out, crate::convert::Merge::Total(merge))
        .map_err(|error| convert_error(name, error))
}
