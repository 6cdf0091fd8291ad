//! Named-buffer construction of a [`SparseTensorOut`] and its `Debug`.
//!
//! [`SparseTensorOut::new`] takes seven positional arguments, one array per
//! kind of buffer with an empty buffer for every level that stores none;
//! over caller memory ([`Slices`](super::Slices)) that is the only way in,
//! and it is easy to hand the coordinates of level 1 to level 0. The
//! builder names each buffer and its level, starts every other buffer
//! empty, and converts `&mut [T]`, `&mut [T; N]` and `&mut Vec<T>` into [`SliceBuffer`]s
//! itself.

use core::fmt;

use super::{Buffer, OutputBuffers, SliceBuffer, SparseTensorOut};
use crate::encoding::{Encoding, StoresValues};
use crate::error::{AssembleError, Buffer as Which};

impl<'a, T> From<&'a mut [T]> for SliceBuffer<'a, T> {
    /// An empty buffer over `data` (its capacity is `data.len()`).
    fn from(data: &'a mut [T]) -> Self {
        SliceBuffer::new(data)
    }
}

impl<'a, T, const N: usize> From<&'a mut [T; N]> for SliceBuffer<'a, T> {
    /// An empty buffer over the array (capacity `N`).
    fn from(data: &'a mut [T; N]) -> Self {
        SliceBuffer::new(data)
    }
}

#[cfg(feature = "alloc")]
impl<'a, T> From<&'a mut alloc::vec::Vec<T>> for SliceBuffer<'a, T> {
    /// An empty buffer over the vector's elements (capacity `len()`; the
    /// vector does not grow: that is the `Owned` family).
    fn from(data: &'a mut alloc::vec::Vec<T>) -> Self {
        SliceBuffer::new(data)
    }
}

/// The buffers of a [`SparseTensorOut`], named one at a time; made by
/// [`SparseTensorOut::builder`]. Buffers not given are empty (capacity 0
/// for [`Slices`](super::Slices), `N` for `Fixed<N>`, unbounded for
/// `Owned`).
pub struct OutputBuilder<V, E, B, const DIM: usize, const LVL: usize>
where
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    dim_sizes: [usize; DIM],
    positions: [B::Pos; LVL],
    coordinates: [B::Crd; LVL],
    values: B::Val,
    ws_values: B::Val,
    ws_filled: B::Flag,
    ws_added: B::Idx,
    /// The first buffer given for a level the tensor does not have.
    misplaced: Option<(usize, Which)>,
}

impl<V, E, B, const DIM: usize, const LVL: usize> SparseTensorOut<V, E, B, DIM, LVL>
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
    B::Pos: Default,
    B::Crd: Default,
    B::Val: Default,
    B::Flag: Default,
    B::Idx: Default,
{
    /// Starts naming the buffers of an output of these dimension sizes;
    /// [`OutputBuilder::build`] checks them as [`new`](Self::new) does.
    /// Buffers not named are empty: with [`Slices`](super::Slices), name
    /// every buffer the encoding stores (for CSR: the positions and
    /// coordinates of level 1, and the values).
    ///
    /// ```
    /// use sparse_core::levels::{compressed, d0, d1, dense};
    /// use sparse_core::{Enc, Slices, SparseTensorOut};
    /// # // The ordered insertion a generated kernel performs (its protocol
    /// # // is not public API; a user's kernel does this).
    /// # use sparse_core::__private::OutputProtocol as _;
    ///
    /// type Csr = Enc<u8, u8, (dense, compressed), (d0, d1)>;
    ///
    /// let (mut pos, mut crd, mut val) = ([0u8; 5], [0u8; 8], [0.0f64; 8]);
    /// let mut c = SparseTensorOut::<f64, Csr, Slices<'_>, 2, 2>::builder([4, 8])
    ///     .positions(1, &mut pos)
    ///     .coordinates(1, &mut crd)
    ///     .values(&mut val)
    ///     .build()?;
    /// c.begin();
    /// c.insert([0, 3], 1.5);
    /// c.insert([2, 7], 2.5);
    /// c.finish("c")?;
    /// assert_eq!(c.view().values(), &[1.5, 2.5]);
    /// assert_eq!(c.view().level(1).positions(), &[0, 1, 1, 2, 2]);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn builder(dim_sizes: [usize; DIM]) -> OutputBuilder<V, E, B, DIM, LVL>
    where
        E: StoresValues,
    {
        OutputBuilder {
            dim_sizes,
            positions: core::array::from_fn(|_| B::Pos::default()),
            coordinates: core::array::from_fn(|_| B::Crd::default()),
            values: B::Val::default(),
            ws_values: B::Val::default(),
            ws_filled: B::Flag::default(),
            ws_added: B::Idx::default(),
            misplaced: None,
        }
    }
}

impl<V, E, B, const DIM: usize, const LVL: usize> OutputBuilder<V, E, B, DIM, LVL>
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    /// The positions buffer of storage level `level` (the compressed and
    /// loose compressed levels have one; CSR's is level 1).
    pub fn positions(mut self, level: usize, buffer: impl Into<B::Pos>) -> Self {
        match self.positions.get_mut(level) {
            Some(slot) => *slot = buffer.into(),
            None => self.misplace(level, Which::Positions),
        }
        self
    }

    /// The coordinates buffer of storage level `level` (compressed, loose
    /// compressed, `soa` singleton and n:m levels; an AoS COO region keeps
    /// every coordinate in its first level's buffer).
    pub fn coordinates(mut self, level: usize, buffer: impl Into<B::Crd>) -> Self {
        match self.coordinates.get_mut(level) {
            Some(slot) => *slot = buffer.into(),
            None => self.misplace(level, Which::Coordinates),
        }
        self
    }

    /// The values buffer.
    pub fn values(mut self, buffer: impl Into<B::Val>) -> Self {
        self.values = buffer.into();
        self
    }

    /// The workspace of a kernel that expands this output (SpGEMM and other
    /// out-of-order results): dense values and filled flags, one per
    /// coordinate of the last level, and the list of added coordinates.
    pub fn workspace(
        mut self,
        values: impl Into<B::Val>,
        filled: impl Into<B::Flag>,
        added: impl Into<B::Idx>,
    ) -> Self {
        self.ws_values = values.into();
        self.ws_filled = filled.into();
        self.ws_added = added.into();
        self
    }

    /// The output, checked as [`SparseTensorOut::new`] checks it; a buffer
    /// named for a level the tensor does not have is
    /// `AssembleError::UnexpectedBuffer`.
    pub fn build(self) -> Result<SparseTensorOut<V, E, B, DIM, LVL>, AssembleError>
    where
        E: StoresValues,
    {
        if let Some((level, buffer)) = self.misplaced {
            return Err(AssembleError::UnexpectedBuffer { level, buffer });
        }
        SparseTensorOut::new(
            self.dim_sizes,
            self.positions,
            self.coordinates,
            self.values,
            self.ws_values,
            self.ws_filled,
            self.ws_added,
        )
    }

    fn misplace(&mut self, level: usize, buffer: Which) {
        self.misplaced.get_or_insert((level, buffer));
    }
}

impl<V, E, B, const DIM: usize, const LVL: usize> fmt::Debug for SparseTensorOut<V, E, B, DIM, LVL>
where
    V: fmt::Debug,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    /// The stored tensor (the view's `Debug`: encoding, sizes, buffers,
    /// values) and the capacity of every buffer, so that a capacity error
    /// can be read against it (`usize::MAX`: unbounded).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pos: [usize; LVL] =
            core::array::from_fn(|l| self.positions.get(l).map_or(0, |b| b.capacity()));
        let crd: [usize; LVL] =
            core::array::from_fn(|l| self.coordinates.get(l).map_or(0, |b| b.capacity()));
        f.debug_struct("SparseTensorOut")
            .field("tensor", &self.view())
            .field("positions_capacity", &pos)
            .field("coordinates_capacity", &crd)
            .field("values_capacity", &self.values.capacity())
            .field("workspace_capacity", &self.ws_values.capacity())
            .finish()
    }
}
