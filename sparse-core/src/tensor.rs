//! The sparse tensor: per-level position/coordinate buffers and values,
//! borrowed from slices (including `'static` data in flash).

use core::marker::PhantomData;

use crate::encoding::Encoding;

/// The buffers of one level as given to [`SparseTensor::assemble`], in the
/// storage layout of seed 000 (`sparse_tensor::StorageLayout`).
///
/// | level format | `positions` | `coordinates` |
/// | --- | --- | --- |
/// | dense, batch | empty | empty |
/// | compressed | `parent + 1` entries | one per entry |
/// | loose_compressed | `2 * parent` entries, `lo, hi` pairs | entries addressed by the pairs |
/// | singleton(soa) | empty | one per entry |
/// | start of an AoS COO region | as compressed | one tuple per entry: the coordinates of this level and every following AoS singleton, interleaved |
/// | singleton (AoS, fused) | empty | empty (its coordinates live in the COO start's buffer) |
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level<'a, P, C> {
    /// The positions array.
    pub positions: &'a [P],
    /// The coordinates array.
    pub coordinates: &'a [C],
}

impl<'a, P, C> Level<'a, P, C> {
    /// A level with no buffers: dense, batch, or an AoS singleton.
    pub const fn dense() -> Self {
        Level {
            positions: &[],
            coordinates: &[],
        }
    }
    /// A compressed or loose compressed level (or the start of a COO region).
    pub const fn compressed(positions: &'a [P], coordinates: &'a [C]) -> Self {
        Level {
            positions,
            coordinates,
        }
    }
    /// A singleton level stored as its own array (`singleton(soa)`).
    pub const fn singleton(coordinates: &'a [C]) -> Self {
        Level {
            positions: &[],
            coordinates,
        }
    }
    /// A singleton level fused into its COO region's AoS buffer.
    pub const fn fused() -> Self {
        Self::dense()
    }
}

/// The validated storage of one level, as kernels read it.
///
/// The coordinate of the entry at position `p` is
/// `coordinates[p * crd_stride + crd_offset]`; for AoS COO levels
/// `coordinates` is the region's shared buffer.
#[derive(Clone, Copy, Debug)]
pub struct LevelStorage<'a, P, C> {
    pub(crate) positions: &'a [P],
    pub(crate) coordinates: &'a [C],
    pub(crate) crd_stride: usize,
    pub(crate) crd_offset: usize,
}

impl<'a, P, C> LevelStorage<'a, P, C> {
    /// The positions array (empty for levels without one).
    #[inline(always)]
    pub fn positions(&self) -> &'a [P] {
        self.positions
    }
    /// The coordinate buffer this level reads (shared for AoS COO levels).
    #[inline(always)]
    pub fn coordinates(&self) -> &'a [C] {
        self.coordinates
    }
    /// Distance between consecutive entries' coordinates in the buffer.
    #[inline(always)]
    pub fn crd_stride(&self) -> usize {
        self.crd_stride
    }
    /// This level's slot within an entry's coordinate tuple.
    #[inline(always)]
    pub fn crd_offset(&self) -> usize {
        self.crd_offset
    }
}

/// A sparse tensor with `DIM` dimensions stored in `LVL` levels under the
/// encoding `E`, with values of type `V`, borrowing its buffers for `'a`.
///
/// Only [`assemble`](SparseTensor::assemble) (which validates) and the
/// `unsafe` [`assemble_unchecked`](SparseTensor::assemble_unchecked) make
/// one, so every `SparseTensor` satisfies the invariants kernels rely on:
/// positions monotone and within the coordinates, coordinates below their
/// level sizes, order and uniqueness as the level types promise.
pub struct SparseTensor<'a, V, E: Encoding, const DIM: usize, const LVL: usize> {
    pub(crate) dim_sizes: [usize; DIM],
    pub(crate) lvl_sizes: [usize; LVL],
    pub(crate) levels: [LevelStorage<'a, E::Pos, E::Crd>; LVL],
    pub(crate) values: &'a [V],
    pub(crate) encoding: PhantomData<E>,
}

impl<'a, V, E: Encoding, const DIM: usize, const LVL: usize> Clone
    for SparseTensor<'a, V, E, DIM, LVL>
{
    fn clone(&self) -> Self {
        *self
    }
}
impl<'a, V, E: Encoding, const DIM: usize, const LVL: usize> Copy
    for SparseTensor<'a, V, E, DIM, LVL>
{
}

impl<'a, V, E: Encoding, const DIM: usize, const LVL: usize> SparseTensor<'a, V, E, DIM, LVL> {
    /// The dimension sizes.
    #[inline(always)]
    pub fn dim_sizes(&self) -> [usize; DIM] {
        self.dim_sizes
    }
    /// The level sizes (MLIR's `sparse_tensor.lvl`).
    #[inline(always)]
    pub fn lvl_sizes(&self) -> [usize; LVL] {
        self.lvl_sizes
    }
    /// The validated storage of level `l`.
    ///
    /// Generated kernels call this with constant `l`, so the bounds check
    /// folds away.
    #[inline(always)]
    pub fn level(&self, l: usize) -> &LevelStorage<'a, E::Pos, E::Crd> {
        &self.levels[l]
    }
    /// The values array, one per stored entry.
    #[inline(always)]
    pub fn values(&self) -> &'a [V] {
        self.values
    }
    /// The number of stored entries (MLIR's `number_of_entries`, printed as
    /// `nse`): explicit zeros and the padding of dense levels included.
    #[inline(always)]
    pub fn number_of_entries(&self) -> usize {
        self.values.len()
    }
}
