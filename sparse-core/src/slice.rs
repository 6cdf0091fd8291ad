//! Slices of a sparse tensor: MLIR's `tensor.extract_slice` on a sparse
//! tensor, zero-copy.
//!
//! A [`SliceView`] is an assembled tensor plus, per dimension, an offset, a
//! size and a stride (MLIR's `#sparse_tensor<slice(offset, size, stride)>`).
//! Coordinate `c` of dimension `d` of the slice is coordinate
//! `offset[d] + c * stride[d]` of the tensor, for `c < size[d]`; an entry of
//! the tensor is in the slice when every one of its coordinates is of that
//! form. Nothing is copied: the view borrows the tensor's buffers, walks
//! its stored entries and keeps those inside the slice. For CSR and CSC
//! (a dense level over a compressed one) only the slice's rows are opened,
//! each from the slice's first column on (binary search where ordered),
//! so a walk costs the slice; for other formats it costs the tensor's
//! stored entries. Kernels walk a sliced operand whose strides are all 1
//! in its encoding in place, over [`SliceView::tensor`]'s storage from
//! [`SliceView::offsets`] (relying on `offset + size` being within the
//! tensor, which [`SparseTensor::extract_slice`] checks); other slices
//! they read through a compact copy their prologue makes
//! ([`convert::convert_slice`](crate::convert::convert_slice)), so their
//! loops see an ordinary tensor of the slice's sizes.
//!
//! ```
//! use sparse_core::levels::{compressed, d0, d1, dense};
//! use sparse_core::{Enc, Level, SparseTensor};
//!
//! type Csr = Enc<usize, usize, (dense, compressed), (d0, d1)>;
//! // [[1, 0, 2, 0],
//! //  [0, 3, 0, 4],
//! //  [5, 0, 6, 0]]
//! let a = SparseTensor::<i32, Csr, 2, 2>::assemble(
//!     [3, 4],
//!     [Level::dense(), Level::compressed(&[0, 2, 4, 6], &[0, 2, 1, 3, 0, 2])],
//!     &[1, 2, 3, 4, 5, 6],
//! )?;
//! // Rows 1.., every second column from 0: [[0, 0], [5, 6]].
//! let s = a.extract_slice([1, 0], [2, 2], [1, 2])?;
//! assert_eq!(s.dim_sizes(), [2, 2]);
//! assert_eq!((s.slice_offset(0), s.slice_stride(1)), (Some(1), Some(2)));
//! let mut seen = Vec::new();
//! s.for_each(|c, v| seen.push((c, *v)));
//! assert_eq!(seen, [([1, 0], 5), ([1, 1], 6)]);
//! assert_eq!(s.number_of_entries(), 2);
//! // Leaving the tensor is an error, not a panic.
//! assert!(a.extract_slice([0, 1], [3, 2], [1, 3]).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt::{self, Display, Formatter};

use crate::encoding::Encoding;
use crate::tensor::SparseTensor;

/// Why [`SparseTensor::extract_slice`] refused its offsets, sizes and
/// strides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum SliceError {
    /// A size of 0: MLIR's slices hold at least one coordinate per
    /// dimension.
    ZeroSize {
        /// The dimension.
        dim: usize,
    },
    /// A stride of 0.
    ZeroStride {
        /// The dimension.
        dim: usize,
    },
    /// The slice's last coordinate, `offset + (size - 1) * stride`, is not
    /// below the tensor's size in that dimension (or does not fit `usize`).
    OutOfBounds {
        /// The dimension.
        dim: usize,
        /// The offset asked for.
        offset: usize,
        /// The size asked for.
        size: usize,
        /// The stride asked for.
        stride: usize,
        /// The tensor's size in that dimension.
        dim_size: usize,
    },
}

impl Display for SliceError {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match *self {
            SliceError::ZeroSize { dim } => {
                write!(
                    f,
                    "slice of dimension {dim} has size 0 (at least 1 is needed)"
                )
            }
            SliceError::ZeroStride { dim } => {
                write!(
                    f,
                    "slice of dimension {dim} has stride 0 (at least 1 is needed)"
                )
            }
            SliceError::OutOfBounds {
                dim,
                offset,
                size,
                stride,
                dim_size,
            } => write!(
                f,
                "slice({offset}, {size}, {stride}) of dimension {dim} leaves the tensor: its \
                 last coordinate, {offset} + ({size} - 1) * {stride}, is not below the \
                 dimension's size {dim_size}"
            ),
        }
    }
}

impl core::error::Error for SliceError {}

/// One of the three parameters of a dimension slice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SliceParam {
    /// The first coordinate.
    Offset,
    /// The number of coordinates.
    Size,
    /// The step between coordinates.
    Stride,
}

impl Display for SliceParam {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SliceParam::Offset => "offset",
            SliceParam::Size => "size",
            SliceParam::Stride => "stride",
        })
    }
}

/// A zero-copy slice of a [`SparseTensor`] (MLIR's `tensor.extract_slice`
/// of a sparse tensor, whose type carries
/// `#sparse_tensor<slice(offset, size, stride)>` per dimension). Made by
/// [`SparseTensor::extract_slice`]; see the [slices chapter of the guide](crate::guide::slices).
///
/// The alias a `sparse_kernel!` block emits for an encoding with dimension
/// slices is this type over the encoding without its slices, and kernels
/// take such operands by reference: the block's static slice parameters
/// are checked at the call (`KernelError::SliceMismatch`), the `?` ones
/// are free.
///
/// Invariant (the fields are private, and `extract_slice` is the only
/// constructor): in every dimension the last coordinate of the slice,
/// `offset + (size - 1) * stride`, is below the tensor's size. Kernels that
/// walk a stride-1 slice in place read the tensor's storage at `offset +
/// i` for `i < size` without further checks on that basis.
pub struct SliceView<'a, V, E: Encoding, const DIM: usize, const LVL: usize> {
    tensor: SparseTensor<'a, V, E, DIM, LVL>,
    offsets: [usize; DIM],
    sizes: [usize; DIM],
    strides: [usize; DIM],
}

impl<V, E: Encoding, const DIM: usize, const LVL: usize> Clone for SliceView<'_, V, E, DIM, LVL> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<V, E: Encoding, const DIM: usize, const LVL: usize> Copy for SliceView<'_, V, E, DIM, LVL> {}

impl<V, E: Encoding, const DIM: usize, const LVL: usize> fmt::Debug
    for SliceView<'_, V, E, DIM, LVL>
{
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.debug_struct("SliceView")
            .field("dim_sizes", &self.tensor.dim_sizes())
            .field("offsets", &self.offsets)
            .field("sizes", &self.sizes)
            .field("strides", &self.strides)
            .finish_non_exhaustive()
    }
}

impl<'a, V, E: Encoding, const DIM: usize, const LVL: usize> SparseTensor<'a, V, E, DIM, LVL> {
    /// MLIR's `tensor.extract_slice` of a sparse tensor: the view of the
    /// coordinates `offsets[d] + c * strides[d]`, `c < sizes[d]`, of every
    /// dimension `d`, renumbered from 0. No copy is made.
    ///
    /// # Errors
    ///
    /// [`SliceError`] when a size or stride is 0 or the slice leaves the
    /// tensor (its last coordinate is not below the dimension's size).
    pub fn extract_slice(
        &self,
        offsets: [usize; DIM],
        sizes: [usize; DIM],
        strides: [usize; DIM],
    ) -> Result<SliceView<'a, V, E, DIM, LVL>, SliceError> {
        let dims = self.dim_sizes();
        for dim in 0..DIM {
            let (Some(&offset), Some(&size), Some(&stride), Some(&dim_size)) = (
                offsets.get(dim),
                sizes.get(dim),
                strides.get(dim),
                dims.get(dim),
            ) else {
                continue;
            };
            if size == 0 {
                return Err(SliceError::ZeroSize { dim });
            }
            if stride == 0 {
                return Err(SliceError::ZeroStride { dim });
            }
            let last = (size - 1)
                .checked_mul(stride)
                .and_then(|s| s.checked_add(offset));
            if last.is_none_or(|l| l >= dim_size) {
                return Err(SliceError::OutOfBounds {
                    dim,
                    offset,
                    size,
                    stride,
                    dim_size,
                });
            }
        }
        Ok(SliceView {
            tensor: *self,
            offsets,
            sizes,
            strides,
        })
    }
}

impl<'a, V, E: Encoding, const DIM: usize, const LVL: usize> SliceView<'a, V, E, DIM, LVL> {
    /// The sliced tensor.
    #[inline(always)]
    pub fn tensor(&self) -> &SparseTensor<'a, V, E, DIM, LVL> {
        &self.tensor
    }
    /// The slice's dimension sizes (its `sizes`).
    #[inline(always)]
    pub fn dim_sizes(&self) -> [usize; DIM] {
        self.sizes
    }
    /// The slice's dimension sizes, borrowed (the kernels' shape check).
    #[inline(always)]
    pub(crate) fn size_list(&self) -> &[usize] {
        &self.sizes
    }
    /// The offset of every dimension.
    #[inline(always)]
    pub fn offsets(&self) -> [usize; DIM] {
        self.offsets
    }
    /// The stride of every dimension.
    #[inline(always)]
    pub fn strides(&self) -> [usize; DIM] {
        self.strides
    }
    /// MLIR's `sparse_tensor.slice.offset`: the offset of dimension `dim`
    /// (`None` past the rank).
    pub fn slice_offset(&self, dim: usize) -> Option<usize> {
        self.offsets.get(dim).copied()
    }
    /// MLIR's `sparse_tensor.slice.stride`: the stride of dimension `dim`
    /// (`None` past the rank).
    pub fn slice_stride(&self, dim: usize) -> Option<usize> {
        self.strides.get(dim).copied()
    }
    /// The slice's coordinates of the tensor's coordinates `crd`, if the
    /// entry there lies in the slice.
    pub fn to_slice(&self, crd: [usize; DIM]) -> Option<[usize; DIM]> {
        let mut out = [0; DIM];
        for (d, c) in crd.iter().enumerate() {
            let (Some(&offset), Some(&size), Some(&stride), Some(o)) = (
                self.offsets.get(d),
                self.sizes.get(d),
                self.strides.get(d),
                out.get_mut(d),
            ) else {
                return None;
            };
            let from = c.checked_sub(offset)?;
            // `stride` is at least 1 (checked by `extract_slice`).
            let (q, r) = (from.checked_div(stride)?, from.checked_rem(stride)?);
            if r != 0 || q >= size {
                return None;
            }
            *o = q;
        }
        Some(out)
    }
    /// Calls `f` with the slice's coordinates and the value of every stored
    /// entry of the tensor that lies in the slice, in the tensor's storage
    /// order (which is the lexicographic order of the slice's level
    /// coordinates when the tensor's map only permutes dimensions and its
    /// levels are ordered: the slice keeps the order of each dimension).
    pub fn for_each(&self, mut f: impl FnMut([usize; DIM], &V)) {
        if self.for_each_rows(&mut f) {
            return;
        }
        self.tensor.for_each(|crd, v| {
            if let Some(c) = self.to_slice(crd) {
                f(c, v);
            }
        });
    }

    /// [`for_each`](Self::for_each) for `(d0 : dense, d1 : compressed)`
    /// storage (CSR, CSC, any widths): only the rows of the slice are
    /// opened, and within a row, when its coordinates are ordered, the
    /// walk starts at the slice's first column (binary search) and stops
    /// past its last, so it costs the slice's rows and entries rather than
    /// the tensor's. The visits and their order are the general walk's.
    /// `false` (nothing visited) for any other storage.
    fn for_each_rows(&self, f: &mut impl FnMut([usize; DIM], &V)) -> bool {
        use crate::index::Index;
        use crate::vocab::{LevelExpr, LevelFormat};
        if LVL != 2 || DIM != 2 {
            return false;
        }
        let (Some(t0), Some(t1)) = (E::level_type(0), E::level_type(1)) else {
            return false;
        };
        let (LevelExpr::Dim(d0), LevelExpr::Dim(d1)) = (E::level_expr(0), E::level_expr(1)) else {
            return false;
        };
        let (d0, d1) = (usize::from(d0), usize::from(d1));
        let plain =
            d0 != d1 && t0.format == LevelFormat::Dense && t1.format == LevelFormat::Compressed;
        let Some(level) = self.tensor.levels.get(1).filter(|_| plain) else {
            return false;
        };
        if level.crd_stride() != 1 || level.crd_offset() != 0 {
            return false;
        }
        let (pos, crd) = (level.positions(), level.coordinates());
        let values = self.tensor.values();
        let explicit = self.tensor.explicit_value();
        let ordered = t1.is_ordered();
        let at = |v: &[usize; DIM], d: usize| v.get(d).copied().unwrap_or(0);
        let (rows, row0, row_step) = (
            at(&self.sizes, d0),
            at(&self.offsets, d0),
            at(&self.strides, d0),
        );
        let (col0, col_step) = (at(&self.offsets, d1), at(&self.strides, d1));
        // The slice's last column (checked to fit by `extract_slice`).
        let col_end = at(&self.sizes, d1)
            .saturating_sub(1)
            .saturating_mul(col_step)
            .saturating_add(col0);
        let mut out = [0usize; DIM];
        for r in 0..rows {
            let row = row_step.saturating_mul(r).saturating_add(row0);
            let (Some(lo), Some(hi)) = (pos.get(row), pos.get(row.saturating_add(1))) else {
                continue;
            };
            let Some(segment) = crd.get(lo.as_usize()..hi.as_usize()) else {
                continue;
            };
            let first = if ordered {
                segment.partition_point(|c| c.as_usize() < col0)
            } else {
                0
            };
            for (k, c) in segment.iter().enumerate().skip(first) {
                let c = c.as_usize();
                if ordered && c > col_end {
                    break;
                }
                let Some(from) = c.checked_sub(col0) else {
                    continue;
                };
                if from % col_step.max(1) != 0 || c > col_end {
                    continue;
                }
                let p = lo.as_usize().saturating_add(k);
                let Some(v) = values.get(p).or(explicit.as_ref()) else {
                    continue;
                };
                if let Some(o) = out.get_mut(d0) {
                    *o = r;
                }
                if let Some(o) = out.get_mut(d1) {
                    *o = from / col_step.max(1);
                }
                f(out, v);
            }
        }
        true
    }
    /// The number of stored entries inside the slice (the calls
    /// [`for_each`](Self::for_each) makes; explicit zeros included). It
    /// walks the tensor's entries.
    pub fn number_of_entries(&self) -> usize {
        let mut n = 0usize;
        self.for_each(|_, _| n = n.saturating_add(1));
        n
    }
}

/// A list printed as `( a, b, c )`.
struct List<I>(I);

impl<T: Display, I: Iterator<Item = T> + Clone> Display for List<I> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str("(")?;
        for (n, x) in self.0.clone().enumerate() {
            if n > 0 {
                f.write_str(",")?;
            }
            write!(f, " {x}")?;
        }
        f.write_str(" )")
    }
}

/// The layout of `sparse_tensor.print` for a slice: the slice's parameters,
/// then its entries in slice coordinates (the tensor's buffers are not
/// the slice's, so they are not printed):
///
/// ```text
/// ---- Sparse Tensor Slice ----
/// nse = 2
/// dim = ( 2, 2 )
/// offset = ( 1, 0 )
/// stride = ( 1, 2 )
/// crd : ( (1, 0), (1, 1) )
/// values : ( 5, 6 )
/// ----
/// ```
impl<V: Display, E: Encoding, const DIM: usize, const LVL: usize> Display
    for SliceView<'_, V, E, DIM, LVL>
{
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        writeln!(f, "---- Sparse Tensor Slice ----")?;
        writeln!(f, "nse = {}", self.number_of_entries())?;
        writeln!(f, "dim = {}", List(self.sizes.iter()))?;
        writeln!(f, "offset = {}", List(self.offsets.iter()))?;
        writeln!(f, "stride = {}", List(self.strides.iter()))?;
        f.write_str("crd : (")?;
        let mut result = Ok(());
        let mut first = true;
        self.for_each(|c, _| {
            let sep = if first { " " } else { ", " };
            first = false;
            result = result.and_then(|()| {
                f.write_str(sep)?;
                f.write_str("(")?;
                for (n, x) in c.iter().enumerate() {
                    if n > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{x}")?;
                }
                f.write_str(")")
            });
        });
        result?;
        f.write_str(" )\nvalues : (")?;
        let mut first = true;
        self.for_each(|_, v| {
            let sep = if first { " " } else { ", " };
            first = false;
            result = result.and_then(|()| write!(f, "{sep}{v}"));
        });
        result?;
        f.write_str(" )\n----")
    }
}

#[cfg(test)]
mod tests;
