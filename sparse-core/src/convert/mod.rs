//! Conversions between encodings (MLIR's `sparse_tensor.convert`,
//! `reorder_coo`, `sort` and `concatenate`), into a [`SparseTensorOut`],
//! without an allocator and without scratch memory beyond the output's own
//! buffers.
//!
//! | function | what it does |
//! | --- | --- |
//! | [`convert`] | any sparse tensor into any encoding an output can hold (level order, widths, formats, AoS/SoA); a repeated coordinate the target cannot keep is an error |
//! | [`convert_sum`] | the same, summing repeated coordinates (`V: Add`), as MLIR reads `nonunique` storage |
//! | [`from_dense`], [`from_dense_view`] | a row-major dense array into any encoding, zeros (`V::default()`) dropped |
//! | [`to_dense`], [`to_dense_view`] | a sparse tensor into a row-major dense array, implicit zeros made explicit, repeats summed |
//! | [`concatenate`], [`concatenate_sum`] | tensors of one type joined along a dimension, every stored entry kept |
//! | [`concatenate_mixed`], [`concatenate_mixed_sum`], [`concatenate_mixed_dense`] | MLIR's `concatenate` in full: sparse tensors of any encodings, slices and dense arrays in one call, into a sparse output of any encoding or a dense array (the nonzero elements) |
//! | [`convert_slice`], [`convert_slice_sum`] | a [`SliceView`](crate::SliceView) (MLIR's `extract_slice`) into a compact tensor of the slice's sizes, in any encoding |
//! | [`reshape`], [`reshape_sum`], [`collapse_shape`], [`expand_shape`] | MLIR's `tensor.reshape` / `collapse_shape` / `expand_shape` of a sparse tensor, into any encoding (the zero-copy forms are [`SparseTensor::collapse_shape`] and [`SparseTensor::expand_shape`]) |
//! | [`reorder_coo`] | MLIR's `reorder_coo`: `convert` between two encodings with the same map |
//! | [`sort_coo_aos`], [`sort_coo_soa`] | COO coordinate buffers and their values sorted in place |
//! | [`sort`] | MLIR's `sort` in full: key permutation (`perm_map`), `ny` payload values per tuple, arrays sorted jointly, the four algorithms |
//!
//! The output's dimension sizes are fixed when it is made
//! ([`SparseTensorOut::new`] or `with_dims`), and a conversion checks them
//! against the source's ([`ConvertError::DimensionMismatch`]). The widths
//! are the output's: a level size whose coordinates do not fit `crdWidth`
//! is refused when the output is made (`AssembleError::WidthOverflow`), a
//! level with more entries than `posWidth` counts when the conversion runs
//! ([`ConvertError::PositionOverflow`]).
//!
//! # Strategies
//!
//! **Streaming.** When the source is stored in the target's order (the
//! same dim→lvl map and every source level ordered, or a dense source,
//! which can be walked in any order), the entries are inserted one by one
//! through the output's insertion protocol. Cost `O(nse)` (plus the dense
//! levels' positions); the buffers need exactly the result's lengths.
//!
//! **Staging** (any other pair: CSR → CSC, DCSR → DCSC, 3-D permutations,
//! `nonordered` sources, block maps). The entries are written into the
//! output's own buffers as target level coordinates and sorted there,
//! then the levels are built in place:
//!
//! 1. The leading dense levels of the target (CSC's column level) are not
//!    stored as coordinates at all: a first pass counts the entries per
//!    dense prefix into the first sparse level's positions buffer, a
//!    second pass scatters each entry to its bucket (the classic
//!    transpose). Every other level's coordinates go into that level's
//!    coordinate buffer (an AoS region's tuples into its start's), the
//!    values into the values buffer.
//! 2. Each bucket is sorted in place by the remaining level coordinates
//!    (heap sort, skipped when the bucket is already sorted, as it is for
//!    CSR → CSC).
//! 3. Repeated coordinates are summed ([`convert_sum`]), refused
//!    ([`convert`]) or kept (targets whose levels from the first
//!    `nonunique` one on are all `nonunique`), compacting in place.
//! 4. The levels are built bottom-up: each sparse level's positions are
//!    counted from the sorted rows and its coordinates compacted to one
//!    per entry; values below trailing dense levels (BSR blocks) are
//!    spread into their zero-filled blocks, moving backwards.
//!
//! Cost: two passes over the source, `O(k log k)` per bucket of `k`
//! entries (`O(k)` when already sorted), `O(levels × (nse + entries))`
//! for the build; memory: the output's buffers and a few words of stack.
//! During staging the buffers hold one slot per *source* entry: the
//! coordinate buffer of every non-leading level (an otherwise unused one
//! for a dense level below a sparse one) and the values need room for
//! `nse` entries (tuples for AoS), the first sparse level's positions for
//! one counter per dense prefix plus one. For CSR ↔ CSC that is exactly
//! the result's size; for DCSR → DCSC the outer coordinate buffer needs
//! `nse` slots instead of one per non-empty column.
//!
//! Sorting is not stable: entries with equal coordinates that a target
//! keeps (or sums) may end up in another order than the source's.
//!
//! **Count and scatter** (the common 2-D cases, a specialisation of
//! staging). CSR ↔ CSC and COO (sorted or not, AoS or SoA, repeats or
//! not) → CSR or CSC, at any widths, run as the classic typed transpose:
//! count per outer coordinate into the positions, prefix sum, scatter the
//! inner coordinates and values, shift back; then, for COO, each bucket
//! sorted (on 64-bit targets up to 32 entries by branch-free sorting
//! networks on packed keys, otherwise insertion sort up to 64, heap sort
//! beyond; one comparison per entry when already sorted) and repeats
//! merged in place. It is taken
//! only when the buffers already have the room staging needs (`nse`
//! coordinates and values, one position per outer coordinate plus one)
//! and `nse` fits `posWidth`; otherwise the general paths run and report
//! capacity errors exactly as above. The result is the same as theirs,
//! buffer for buffer (repeats a target keeps stay in the source's order
//! in rows of up to 64 entries, which staging does not promise).
//!
//! # Errors and capacity
//!
//! Every failure is a typed [`ConvertError`], and the output is left empty
//! (a valid tensor) and reusable. A [`ConvertError::Capacity`] names the
//! first buffer that is too small and the exact length the step that
//! failed needs (staging or the result): a second call with that much room
//! gets past it.
//!
//! # Example: CSR to CSC without an allocator
//!
//! ```
//! use sparse_core::convert::convert;
//! use sparse_core::levels::{compressed, d0, d1, dense};
//! use sparse_core::{Enc, Level, SliceBuffer, Slices, SparseTensor, SparseTensorOut};
//!
//! type Csr = Enc<u8, u8, (dense, compressed), (d0, d1)>;
//! type Csc = Enc<u8, u8, (dense, compressed), (d1, d0)>;
//!
//! // | 1 . 2 |
//! // | . 3 . |
//! let a = SparseTensor::<f32, Csr, 2, 2>::assemble(
//!     [2, 3],
//!     [Level::dense(), Level::compressed(&[0, 2, 3], &[0, 2, 1])],
//!     &[1.0, 2.0, 3.0],
//! )?;
//! let (mut pos, mut crd, mut val) = ([0u8; 4], [0u8; 3], [0.0f32; 3]);
//! let mut b = SparseTensorOut::<f32, Csc, Slices<'_>, 2, 2>::new(
//!     [2, 3],
//!     [SliceBuffer::default(), SliceBuffer::new(&mut pos)],
//!     [SliceBuffer::default(), SliceBuffer::new(&mut crd)],
//!     SliceBuffer::new(&mut val),
//!     SliceBuffer::default(),
//!     SliceBuffer::default(),
//!     SliceBuffer::default(),
//! )?;
//! convert(&a, &mut b)?;
//! let v = b.view();
//! assert_eq!(v.level(1).positions(), &[0, 1, 2, 3]);
//! assert_eq!(v.level(1).coordinates(), &[0, 1, 0]);
//! assert_eq!(v.values(), &[1.0, 3.0, 2.0]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod buckets;
mod concat;
mod dense;
pub(crate) mod engine;
mod error;
mod fast;
#[cfg(test)]
mod fast_tests;
pub(crate) mod merge;
#[cfg(feature = "alloc")]
mod owned;
mod reshape;
pub(crate) mod slice;
mod slots;
pub(crate) mod sort;
pub(crate) mod sort_keys;
pub(crate) mod source;
mod stage;
#[cfg(test)]
mod sum_tests;
#[cfg(test)]
mod tests;
mod transpose;

use core::ops::Add;

pub use concat::{concatenate_mixed, concatenate_mixed_dense, concatenate_mixed_sum, ConcatInput};
pub use dense::{to_dense, to_dense_view};
pub use error::{ConvertError, Coordinates};
pub(crate) use merge::Merge;
#[cfg(feature = "alloc")]
pub use owned::OwnedParts;
pub use reshape::{collapse_shape, expand_shape, reshape, reshape_sum};
pub use slice::{convert_slice, convert_slice_sum};
pub use sort::{sort_coo_aos, sort_coo_soa, SortError};
pub use sort_keys::{sort, Jointly, SortAlgorithm};

use crate::dense::DenseView;
use crate::encoding::Encoding;
use crate::output::{OutputBuffers, SparseTensorOut};
use crate::tensor::SparseTensor;
use source::{Concat, DenseSource, TensorSource};

/// MLIR's `sparse_tensor.convert` between two sparse encodings: every
/// stored entry of `src` (explicit zeros included) is written into `out`,
/// whose encoding may differ in level order, formats, properties and
/// widths. `out`'s previous contents are replaced.
///
/// A coordinate stored more than once in `src` (a `nonunique` source) is
/// kept as is if the target keeps repeats (its levels from the first
/// `nonunique` one on are all `nonunique`), else it is
/// [`ConvertError::Duplicate`]: use [`convert_sum`] to add them up.
///
/// See the [module docs](self) for the algorithm, its cost and the room the
/// buffers need.
pub fn convert<V, S, E, B, const DIM: usize, const LS: usize, const LVL: usize>(
    src: &SparseTensor<'_, V, S, DIM, LS>,
    out: &mut SparseTensorOut<V, E, B, DIM, LVL>,
) -> Result<(), ConvertError>
where
    V: Clone + Default,
    S: Encoding,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    engine::run(&TensorSource(src), out, Merge::Refuse)
}

/// [`convert`], with repeated coordinates summed (MLIR's meaning of
/// `nonunique` storage) wherever the target cannot keep them.
///
/// ```
/// use sparse_core::convert::convert_sum;
/// use sparse_core::levels::{compressed, d0, d1, dense, nonunique, singleton};
/// use sparse_core::{Enc, Level, SliceBuffer, Slices, SparseTensor, SparseTensorOut};
///
/// type CooNu = Enc<usize, usize, (compressed<nonunique>, singleton<nonunique>), (d0, d1)>;
/// type Csr = Enc<u32, u32, (dense, compressed), (d0, d1)>;
///
/// // (1, 2) is stored twice: it means 1 + 4.
/// let coo = SparseTensor::<i64, CooNu, 2, 2>::assemble(
///     [2, 3],
///     [Level::compressed(&[0, 3], &[0, 0, 1, 2, 1, 2]), Level::fused()],
///     &[7, 1, 4],
/// )?;
/// // Caller memory (with `alloc`, `Owned` and `with_dims` grow as needed).
/// let (mut pos, mut crd, mut val) = ([0u32; 3], [0u32; 6], [0i64; 6]);
/// let mut csr = SparseTensorOut::<i64, Csr, Slices<'_>, 2, 2>::new(
///     [2, 3],
///     [SliceBuffer::default(), SliceBuffer::new(&mut pos)],
///     [SliceBuffer::default(), SliceBuffer::new(&mut crd)],
///     SliceBuffer::new(&mut val),
///     SliceBuffer::default(),
///     SliceBuffer::default(),
///     SliceBuffer::default(),
/// )?;
/// convert_sum(&coo, &mut csr)?;
/// assert_eq!(csr.view().level(1).coordinates(), &[0, 2]);
/// assert_eq!(csr.view().values(), &[7, 5]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn convert_sum<V, S, E, B, const DIM: usize, const LS: usize, const LVL: usize>(
    src: &SparseTensor<'_, V, S, DIM, LS>,
    out: &mut SparseTensorOut<V, E, B, DIM, LVL>,
) -> Result<(), ConvertError>
where
    V: Clone + Default + Add<Output = V> + 'static,
    S: Encoding,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    engine::run(&TensorSource(src), out, Merge::sum())
}

/// MLIR's `sparse_tensor.reorder_coo`: a COO tensor (typically
/// `nonordered`) into a COO encoding with the same dim→lvl map (typically
/// ordered), sorting its entries. It is [`convert`] with the map checked
/// ([`ConvertError::MapMismatch`]); for a COO target the staged entries are
/// the result's own layout, so the buffers need exactly the result's
/// lengths. Repeated coordinates are handled as by [`convert`].
pub fn reorder_coo<V, S, E, B, const DIM: usize, const LVL: usize>(
    src: &SparseTensor<'_, V, S, DIM, LVL>,
    out: &mut SparseTensorOut<V, E, B, DIM, LVL>,
) -> Result<(), ConvertError>
where
    V: Clone + Default,
    S: Encoding,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    if S::MAP != E::MAP {
        out.clear();
        return Err(ConvertError::MapMismatch);
    }
    convert(src, out)
}

/// MLIR's `sparse_tensor.convert` from a dense tensor: the row-major array
/// `data` of dimension sizes `dims` into `out`, storing every element that
/// is not `V::default()` (MLIR's explicit test for nonzero values).
///
/// The source is walked in the target's level order, so this always
/// streams: `O(product of the level sizes)`, buffers of exactly the
/// result's lengths.
///
/// ```
/// use sparse_core::convert::from_dense;
/// use sparse_core::levels::{compressed, d0, d1, dense};
/// use sparse_core::{Enc, SliceBuffer, Slices, SparseTensorOut};
///
/// type Csc = Enc<u16, u16, (dense, compressed), (d1, d0)>;
///
/// let dense = [1.0, 0.0, 2.0,
///              0.0, 3.0, 0.0];
/// // Caller memory (with `alloc`, `Owned` and `with_dims` grow as needed).
/// let (mut pos, mut crd, mut val) = ([0u16; 4], [0u16; 6], [0.0f64; 6]);
/// let mut csc = SparseTensorOut::<f64, Csc, Slices<'_>, 2, 2>::new(
///     [2, 3],
///     [SliceBuffer::default(), SliceBuffer::new(&mut pos)],
///     [SliceBuffer::default(), SliceBuffer::new(&mut crd)],
///     SliceBuffer::new(&mut val),
///     SliceBuffer::default(),
///     SliceBuffer::default(),
///     SliceBuffer::default(),
/// )?;
/// from_dense(&dense, [2, 3], &mut csc)?;
/// assert_eq!(csc.view().level(1).positions(), &[0, 1, 2, 3]);
/// assert_eq!(csc.view().values(), &[1.0, 3.0, 2.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn from_dense<V, E, B, const DIM: usize, const LVL: usize>(
    data: &[V],
    dims: [usize; DIM],
    out: &mut SparseTensorOut<V, E, B, DIM, LVL>,
) -> Result<(), ConvertError>
where
    V: Clone + Default + PartialEq,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    let source = match DenseSource::new(data, dims) {
        Ok(s) => s,
        Err(e) => {
            out.clear();
            return Err(e);
        }
    };
    engine::run(&source, out, Merge::Refuse)
}

/// [`from_dense`] over a [`DenseView`].
pub fn from_dense_view<V, E, B, const DIM: usize, const LVL: usize>(
    view: &DenseView<'_, V, DIM>,
    out: &mut SparseTensorOut<V, E, B, DIM, LVL>,
) -> Result<(), ConvertError>
where
    V: Clone + Default + PartialEq,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    from_dense(view.as_slice(), view.dims(), out)
}

/// MLIR's `sparse_tensor.concatenate`: the tensors of `inputs`, in order,
/// joined along dimension `dim` into `out`. Every input has the sizes of
/// `out` except along `dim`, where `out`'s size is the sum of theirs
/// ([`ConvertError::DimensionMismatch`] otherwise, or
/// [`ConvertError::ConcatDimension`] for `dim >= DIM`).
///
/// It streams when the target's outermost level is the plain dimension
/// `dim` and every input is stored in the target's order (CSR inputs
/// stacked into a CSR by rows); otherwise it stages, as [`convert`]. Repeats
/// within one input are handled as by [`convert`].
///
/// ```
/// use sparse_core::convert::concatenate;
/// use sparse_core::levels::{compressed, d0, d1, dense};
/// use sparse_core::{Enc, Level, SliceBuffer, Slices, SparseTensor, SparseTensorOut};
///
/// type Csr = Enc<u8, u8, (dense, compressed), (d0, d1)>;
///
/// let a = SparseTensor::<i32, Csr, 2, 2>::assemble([1, 2], [Level::dense(), Level::compressed(&[0, 1], &[1])], &[5])?;
/// let b = SparseTensor::<i32, Csr, 2, 2>::assemble([1, 3], [Level::dense(), Level::compressed(&[0, 1], &[0])], &[6])?;
/// // Side by side: a 1x5 matrix.
/// // Caller memory (with `alloc`, `Owned` and `with_dims` grow as needed).
/// let (mut pos, mut crd, mut val) = ([0u8; 2], [0u8; 5], [0i32; 5]);
/// let mut c = SparseTensorOut::<i32, Csr, Slices<'_>, 2, 2>::new(
///     [1, 5],
///     [SliceBuffer::default(), SliceBuffer::new(&mut pos)],
///     [SliceBuffer::default(), SliceBuffer::new(&mut crd)],
///     SliceBuffer::new(&mut val),
///     SliceBuffer::default(),
///     SliceBuffer::default(),
///     SliceBuffer::default(),
/// )?;
/// concatenate(&[a, b], 1, &mut c)?;
/// assert_eq!(c.view().level(1).coordinates(), &[1, 2]);
/// assert_eq!(c.view().values(), &[5, 6]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn concatenate<V, S, E, B, const DIM: usize, const LS: usize, const LVL: usize>(
    inputs: &[SparseTensor<'_, V, S, DIM, LS>],
    dim: usize,
    out: &mut SparseTensorOut<V, E, B, DIM, LVL>,
) -> Result<(), ConvertError>
where
    V: Clone + Default,
    S: Encoding,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    concat_with(inputs, dim, out, Merge::Refuse)
}

/// [`concatenate`], with repeated coordinates within an input summed.
pub fn concatenate_sum<V, S, E, B, const DIM: usize, const LS: usize, const LVL: usize>(
    inputs: &[SparseTensor<'_, V, S, DIM, LS>],
    dim: usize,
    out: &mut SparseTensorOut<V, E, B, DIM, LVL>,
) -> Result<(), ConvertError>
where
    V: Clone + Default + Add<Output = V> + 'static,
    S: Encoding,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    concat_with(inputs, dim, out, Merge::sum())
}

fn concat_with<V, S, E, B, const DIM: usize, const LS: usize, const LVL: usize>(
    inputs: &[SparseTensor<'_, V, S, DIM, LS>],
    dim: usize,
    out: &mut SparseTensorOut<V, E, B, DIM, LVL>,
    merge: Merge<V>,
) -> Result<(), ConvertError>
where
    V: Clone + Default,
    S: Encoding,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    match Concat::new(inputs, dim, out.dim_sizes()) {
        Ok(source) => engine::run(&source, out, merge),
        Err(e) => {
            out.clear();
            Err(e)
        }
    }
}
