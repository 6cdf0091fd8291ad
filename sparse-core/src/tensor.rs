//! The sparse tensor: per-level position/coordinate buffers and values,
//! borrowed from slices (including `'static` data in flash).

use core::marker::PhantomData;

use crate::encoding::Encoding;
use crate::error::{Buffer, CapacityError};
use crate::layout::Layout;
use crate::vocab::{LevelExpr, LevelFormat, LevelType};

/// The buffers of one level as given to [`SparseTensor::assemble`], in the
/// storage layout of MLIR's `sparse_tensor` dialect (`StorageLayout`).
///
/// | level format | `positions` | `coordinates` |
/// | --- | --- | --- |
/// | dense, batch, counting (ELL) | empty | empty |
/// | compressed | `parent + 1` entries | one per entry |
/// | loose_compressed | `2 * parent` entries, `lo, hi` pairs | entries addressed by the pairs |
/// | singleton(soa) | empty | one per entry |
/// | start of an AoS COO region | as compressed | one tuple per entry: the coordinates of this level and every following AoS singleton, interleaved |
/// | singleton (AoS, fused) | empty | empty (its coordinates live in the COO start's buffer) |
/// | `structured[n, m]` | empty | `n` per parent entry |
///
/// [`SparseTensor::assemble`] checks every rule; see [`crate::assemble`].
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
    /// A `structured[n, m]` level: `n` coordinates per parent entry.
    pub const fn structured(coordinates: &'a [C]) -> Self {
        Self::singleton(coordinates)
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
    /// Empty for a pattern tensor (`explicitVal`).
    pub(crate) values: &'a [V],
    /// The number of stored entries: `values.len()`, except for a pattern
    /// tensor, where it comes from the last level.
    pub(crate) entries: usize,
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
    /// The values array, one per stored entry; empty for a pattern tensor
    /// (an encoding with `explicitVal`), whose entries all hold
    /// [`explicit_value`](Self::explicit_value).
    #[inline(always)]
    pub fn values(&self) -> &'a [V] {
        self.values
    }
    /// The number of stored entries (MLIR's `number_of_entries`, printed as
    /// `nse`): explicit zeros and the padding of dense levels included.
    ///
    /// It counts the values stored, not the visits of
    /// [`for_each`](Self::for_each): segments of a `loose_compressed`
    /// level may overlap (MLIR does not forbid it, and `assemble` cannot
    /// check it without scratch memory), and `for_each` and kernels visit
    /// an entry once per segment that holds it, at that segment's
    /// coordinates. Segments that do not overlap give exactly
    /// `number_of_entries` visits, the free space between them none.
    #[inline(always)]
    pub fn number_of_entries(&self) -> usize {
        self.entries
    }
    /// The value of every stored entry of a pattern tensor (the encoding's
    /// `explicitVal`); `None` if the tensor stores its values.
    #[inline(always)]
    pub fn explicit_value(&self) -> Option<V> {
        E::explicit_value::<V>()
    }
}

impl<'a, V, E: Encoding, const DIM: usize, const LVL: usize> SparseTensor<'a, V, E, DIM, LVL> {
    /// The size of dimension `d`, `None` if `d >= DIM`.
    #[inline]
    pub fn dim_size(&self, d: usize) -> Option<usize> {
        self.dim_sizes.get(d).copied()
    }
    /// The size of level `l`, `None` if `l >= LVL`.
    #[inline]
    pub fn level_size(&self, l: usize) -> Option<usize> {
        self.lvl_sizes.get(l).copied()
    }
    /// The type (format and properties) of level `l`.
    ///
    /// # Panics
    ///
    /// If `l >= LVL`, like [`level`](Self::level).
    pub fn level_type(&self, l: usize) -> LevelType {
        assert!(l < LVL, "level {l} out of range for a {LVL}-level tensor");
        // A tensor exists only for a checked encoding (or under
        // `assemble_unchecked`'s contract), so the code is valid here.
        E::level_type(l).unwrap_or(LevelType::new(LevelFormat::Dense))
    }
    /// MLIR's `crd_translate lvl_to_dim`: the dimension coordinates of the
    /// level coordinates `lvl` (`d = outer * b + inner` for a block pair).
    /// Counting levels contribute nothing.
    pub fn lvl_to_dim(&self, lvl: [usize; LVL]) -> [usize; DIM] {
        Layout::<DIM, LVL>::decode::<E>().lvl_to_dim(&lvl)
    }
    /// MLIR's `crd_translate dim_to_lvl`: the level coordinates of the
    /// dimension coordinates `dim`. A counting level (ELL's `c * K * d`)
    /// has no coordinate determined by the dimensions alone: it gives 0.
    pub fn dim_to_lvl(&self, dim: [usize; DIM]) -> [usize; LVL] {
        Layout::<DIM, LVL>::decode::<E>().dim_to_lvl(&dim)
    }

    /// MLIR's `sparse_tensor.reinterpret_map`: the same buffers viewed
    /// under encoding `E2` with dimension sizes `dim_sizes`, without a copy.
    ///
    /// The typical use is a block tensor seen in level space and back: a
    /// BSR matrix `(i, j) -> (i floordiv 2 : dense, j floordiv 2 :
    /// compressed, i mod 2 : dense, j mod 2 : dense)` is the 4-D tensor
    /// `(ib, jb, ii, jj) -> (ib : dense, jb : compressed, ii : dense, jj :
    /// dense)` of sizes [`lvl_sizes`](Self::lvl_sizes), whose entries are
    /// the blocks' coordinates. The buffers are checked against `E2`
    /// exactly as [`assemble`](Self::assemble) checks them (in time linear
    /// in the stored entries), so an `E2` that stores its levels otherwise
    /// is an error, not a misread.
    ///
    /// ```
    /// use sparse_core::{sparse_kernel, Level};
    /// sparse_kernel! {
    ///     #BSR = #sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense) }>
    ///     #Blocks = #sparse_tensor.encoding<{ map = (ib, jb, ii, jj) -> (ib : dense, jb : compressed, ii : dense, jj : dense) }>
    /// }
    /// let (pos, crd, val) = ([0usize, 1, 1], [1usize], [1.0, 2.0, 3.0, 4.0]);
    /// let levels = [Level::dense(), Level::compressed(&pos, &crd), Level::dense(), Level::dense()];
    /// let bsr = BSR::<f64>::assemble([4, 4], levels, &val).unwrap();
    /// let blocks: Blocks<f64> = bsr.reinterpret_map(bsr.lvl_sizes()).unwrap();
    /// let mut seen = Vec::new();
    /// blocks.for_each(|c, v| seen.push((c, *v)));
    /// assert_eq!(seen[3], ([0, 1, 1, 1], 4.0));
    /// let back: BSR<f64> = blocks.reinterpret_map([4, 4]).unwrap();
    /// assert_eq!(back.values(), bsr.values());
    /// ```
    pub fn reinterpret_map<E2, const D2: usize>(
        &self,
        dim_sizes: [usize; D2],
    ) -> Result<SparseTensor<'a, V, E2, D2, LVL>, crate::AssembleError>
    where
        E2: Encoding<Pos = E::Pos, Crd = E::Crd>,
    {
        let (_, levels, values) = self.disassemble();
        SparseTensor::assemble(dim_sizes, levels, values)
    }

    /// The same storage seen with its dimensions permuted: dimension `d`
    /// of the result is dimension `perm[d]` of `self`. `E2` must be `E`
    /// with each level's dimension renamed accordingly (same level types,
    /// widths and explicit value); `None` when it is not or `perm` is not
    /// a permutation. `O(LVL)`: the levels and their sizes do not change,
    /// so nothing else needs checking.
    pub(crate) fn permute_dims<E2>(
        &self,
        perm: [usize; DIM],
    ) -> Option<SparseTensor<'a, V, E2, DIM, LVL>>
    where
        E2: Encoding<Pos = E::Pos, Crd = E::Crd>,
    {
        let mut seen = [false; DIM];
        for &p in &perm {
            if p >= DIM || core::mem::replace(&mut seen[p], true) {
                return None;
            }
        }
        if E2::VALUES != E::VALUES {
            return None;
        }
        for l in 0..LVL {
            let (LevelExpr::Dim(from), LevelExpr::Dim(to)) = (E::level_expr(l), E2::level_expr(l))
            else {
                return None;
            };
            if E::level_type(l) != E2::level_type(l)
                || perm.get(usize::from(to)) != Some(&usize::from(from))
            {
                return None;
            }
        }
        Some(SparseTensor {
            dim_sizes: core::array::from_fn(|d| self.dim_sizes[perm[d]]),
            lvl_sizes: self.lvl_sizes,
            levels: self.levels,
            values: self.values,
            entries: self.entries,
            encoding: PhantomData,
        })
    }

    /// MLIR's `disassemble` without the copy: exactly the dimension sizes,
    /// buffers and values [`assemble`](Self::assemble) was given (fused AoS
    /// singleton levels get back their empty [`Level::fused`]; a pattern
    /// tensor's values are empty).
    // The tuple mirrors `assemble`'s parameters; an alias would hide that.
    #[allow(clippy::type_complexity)]
    pub fn disassemble(&self) -> ([usize; DIM], [Level<'a, E::Pos, E::Crd>; LVL], &'a [V]) {
        let mut levels = [Level::dense(); LVL];
        for (level, st) in levels.iter_mut().zip(&self.levels) {
            level.positions = st.positions;
            if st.crd_offset == 0 {
                level.coordinates = st.coordinates;
            }
        }
        (self.dim_sizes, levels, self.values)
    }

    /// MLIR's `sparse_tensor.disassemble`: copies each level's positions and
    /// coordinates and the values into caller buffers and returns the
    /// lengths used. Buffers may be longer than needed; a level that stores
    /// no buffer may be given empty ones ([`LevelBuffersMut::none`]).
    ///
    /// A pattern tensor writes no values (`values` may be empty, and the
    /// returned `values` length is 0), as MLIR's `disassemble` of a tensor
    /// without a values buffer.
    ///
    /// All capacities are checked before anything is written: on
    /// `Err(CapacityError)` (naming the first buffer too small, in level
    /// order, values last) the buffers are untouched.
    pub fn disassemble_into(
        &self,
        mut levels: [LevelBuffersMut<'_, E::Pos, E::Crd>; LVL],
        values: &mut [V],
    ) -> Result<DisassembledLens<LVL>, CapacityError>
    where
        V: Clone,
    {
        let (_, source, source_values) = self.disassemble();
        let capacity = |level, buffer, needed: usize, capacity: usize| {
            if needed <= capacity {
                Ok(())
            } else {
                Err(CapacityError {
                    level,
                    buffer,
                    needed,
                    capacity,
                })
            }
        };
        for (l, (src, dst)) in source.iter().zip(&levels).enumerate() {
            capacity(
                l,
                Buffer::Positions,
                src.positions.len(),
                dst.positions.len(),
            )?;
            capacity(
                l,
                Buffer::Coordinates,
                src.coordinates.len(),
                dst.coordinates.len(),
            )?;
        }
        let last = LVL.saturating_sub(1);
        capacity(last, Buffer::Values, source_values.len(), values.len())?;

        let mut lens = DisassembledLens {
            levels: [LevelLens::default(); LVL],
            values: source_values.len(),
        };
        for ((src, dst), len) in source.iter().zip(&mut levels).zip(&mut lens.levels) {
            copy(src.positions, dst.positions);
            copy(src.coordinates, dst.coordinates);
            *len = LevelLens {
                positions: src.positions.len(),
                coordinates: src.coordinates.len(),
            };
        }
        copy(source_values, values);
        Ok(lens)
    }
}

/// Copies `src` into the front of `dst` (whose length was checked).
fn copy<T: Clone>(src: &[T], dst: &mut [T]) {
    if let Some(front) = dst.get_mut(..src.len()) {
        front.clone_from_slice(src);
    }
}

/// Caller buffers for one level of
/// [`disassemble_into`](SparseTensor::disassemble_into).
#[derive(Debug)]
pub struct LevelBuffersMut<'b, P, C> {
    /// Receives the positions.
    pub positions: &'b mut [P],
    /// Receives the coordinates (the interleaved tuples at the start of an
    /// AoS COO region).
    pub coordinates: &'b mut [C],
}

impl<'b, P, C> LevelBuffersMut<'b, P, C> {
    /// Buffers for a level.
    pub fn new(positions: &'b mut [P], coordinates: &'b mut [C]) -> Self {
        LevelBuffersMut {
            positions,
            coordinates,
        }
    }
    /// No buffers: for dense, batch and fused singleton levels.
    pub fn none() -> Self {
        LevelBuffersMut {
            positions: &mut [],
            coordinates: &mut [],
        }
    }
}

/// How much of one level's buffers
/// [`disassemble_into`](SparseTensor::disassemble_into) used (MLIR's
/// `lvl_lens`, split per buffer).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LevelLens {
    /// Positions written.
    pub positions: usize,
    /// Coordinates written.
    pub coordinates: usize,
}

/// The lengths [`disassemble_into`](SparseTensor::disassemble_into) wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DisassembledLens<const LVL: usize> {
    /// Per level, in level order.
    pub levels: [LevelLens; LVL],
    /// Values written (MLIR's `val_len`).
    pub values: usize,
}
