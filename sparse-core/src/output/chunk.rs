//! Chunk outputs: how a `#[parallel]` kernel writes a sparse output row by
//! row on several threads without locks (`crate::kernel::par::sparse_dense`
//! and `sparse_compressed` drive it).
//!
//! Pass 1: each chunk of rows `r0..r1` runs the kernel's unchanged loop
//! body into a [`ChunkOut`] of its own: an output of the same encoding
//! with native (`usize`) positions over `Owned` buffers, `r1 - r0` rows
//! (the kernel inserts row `i` as `i - r0`), built by the ordinary
//! insertion protocol, so it is a valid tensor with its own workspace.
//!
//! Pass 2 ([`SparseTensorOut::concat_rows`]): the chunks, in row order,
//! are appended to the real output. When its encoding is CSR-like (two
//! levels, the first dense or compressed, the second compressed, both
//! unique, plain coordinates) and every buffer has room and every
//! position fits `posWidth`, the buffers are written directly: positions
//! offset by the entries of the chunks before, level-0 coordinates
//! offset by the chunk's first row, coordinates and values copied. Anything
//! else (a buffer too small, a position too wide, another encoding) replays
//! the chunks' entries through `insert` in the same order the sequential
//! kernel inserts them, so the output, the error and the counted lengths
//! are exactly the sequential kernel's.
//!
//! Why the direct write leaves a valid tensor (what `view` relies on): the
//! chunks are valid tensors of the same encoding; their row ranges
//! partition the output's rows in order (checked); their column sizes are
//! the output's (checked). Concatenating CSR row blocks whose positions
//! are shifted by the entries before them gives positions that start at 0,
//! grow, and end at the number of coordinates (one per row plus one), and
//! coordinates that stay below the column size and increase within each
//! row; in DCSR the shifted row coordinates increase across chunks because
//! each chunk's rows lie inside its own range. Every position is checked
//! to fit `posWidth` before anything is written.

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::any::Any;
use core::marker::PhantomData;

use crate::encoding::{Encoding, StoresValues};
use crate::index::Index;
use crate::vocab::{LevelExpr, LevelFormat};

use super::buffer::{Buffer, OutputBuffers, Owned};
use super::insert::Cursor;
use super::{SparseTensorOut, State};

/// The encoding `E` with native (`usize`) positions: a chunk output, whose
/// entry count never overflows `posWidth` (the real output checks that
/// when the chunks are joined).
#[doc(hidden)]
pub struct Wide<E>(PhantomData<E>);

impl<E: Encoding> Encoding for Wide<E> {
    type Pos = usize;
    type Crd = E::Crd;
    const LEVELS: usize = E::LEVELS;
    const LEVEL_TYPES: u128 = E::LEVEL_TYPES;
    const MAP: u128 = E::MAP;
    const VALUES: u128 = E::VALUES;
}

impl<E: StoresValues> StoresValues for Wide<E> {}

/// The output one chunk of rows of a `#[parallel]` kernel writes.
#[doc(hidden)]
pub type ChunkOut<V, E, const DIM: usize, const LVL: usize> =
    SparseTensorOut<V, Wide<E>, Owned, DIM, LVL>;

/// The chunk outputs an output keeps between `#[parallel]` calls, so that
/// the next call writes into memory already allocated (and paged in)
/// instead of growing fresh `Vec`s: about the size of the last result,
/// freed with the output.
#[derive(Default)]
pub(crate) struct Scratch(Option<Box<dyn Any + Send + Sync>>);

/// One chunk's output and the output row its row 0 is.
#[doc(hidden)]
pub struct Chunk<V, E: Encoding, const DIM: usize, const LVL: usize> {
    /// The output row of the chunk's first row.
    pub row0: usize,
    /// The chunk's rows.
    pub out: ChunkOut<V, E, DIM, LVL>,
}

impl<V, E, B, const DIM: usize, const LVL: usize> SparseTensorOut<V, E, B, DIM, LVL>
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    /// A started (`begin`) chunk output holding `rows` rows (first dimension, at most
    /// this output's) of this output; every other dimension as here.
    ///
    /// Built from this output's checked layout rather than through
    /// [`new`](Self::new), so it cannot fail: `Wide<E>` decodes to the same
    /// layout (same level types and map), its coordinates have `E`'s width,
    /// and its level sizes are at most this output's, which `new` checked
    /// against that width (if fewer rows did not shrink every level size,
    /// the chunk takes this output's sizes); its positions are `usize`.
    pub(crate) fn chunk_out(&self, rows: usize) -> ChunkOut<V, E, DIM, LVL> {
        let (dim_sizes, lvl_sizes) = self.chunk_sizes(rows);
        let mut out = SparseTensorOut {
            dim_sizes,
            lvl_sizes,
            layout: self.layout,
            positions: core::array::from_fn(|_| Vec::new()),
            coordinates: core::array::from_fn(|_| Vec::new()),
            values: Vec::new(),
            ws_values: Vec::new(),
            ws_filled: Vec::new(),
            ws_added: Vec::new(),
            ws_listed_raw: false,
            zero: [0; 2],
            zero_len: self.zero_len,
            first_nonunique: self.first_nonunique,
            state: State::Ready,
            cur: Cursor::new(),
            fault: None,
            writing: true,
            groups: self.groups,
            appends: self.appends,
            appendable: false,
            scratch: Scratch::default(),
        };
        // Started: until the chunk's `finish`, its view is the empty
        // tensor (`begin` is O(levels); `clear` would close every row).
        out.begin();
        out
    }

    /// The sizes of a chunk of `rows` rows (see [`chunk_out`](Self::chunk_out)).
    fn chunk_sizes(&self, rows: usize) -> ([usize; DIM], [usize; LVL]) {
        let mut dim_sizes = self.dim_sizes;
        if let Some(d) = dim_sizes.first_mut() {
            *d = rows.min(*d);
        }
        let lvl_sizes = self.layout.lvl_sizes(&dim_sizes);
        if lvl_sizes.iter().zip(&self.lvl_sizes).any(|(a, b)| a > b) {
            return (self.dim_sizes, self.lvl_sizes);
        }
        (dim_sizes, lvl_sizes)
    }

    /// A chunk output for `rows` rows, reusing the memory of `old` (a
    /// chunk output of this output from an earlier call) when there is one.
    pub(crate) fn chunk_out_from(
        &self,
        rows: usize,
        old: Option<ChunkOut<V, E, DIM, LVL>>,
    ) -> ChunkOut<V, E, DIM, LVL> {
        let Some(mut part) = old else {
            return self.chunk_out(rows);
        };
        // Made by `chunk_out` of this output (same layout and derived
        // fields, which depend on the encoding only): only the sizes
        // change. The workspace keeps its length and is reset where a
        // chunk left entries (a row it did not finish).
        (part.dim_sizes, part.lvl_sizes) = self.chunk_sizes(rows);
        part.reset_workspace();
        part.begin();
        part
    }
}

impl<V, E, B, const DIM: usize, const LVL: usize> SparseTensorOut<V, E, B, DIM, LVL>
where
    V: Default + Send + Sync + 'static,
    E: Encoding,
    E::Crd: Send + Sync,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    /// The chunk outputs kept from the last `#[parallel]` call (none the
    /// first time).
    pub(crate) fn take_chunks(&mut self) -> Vec<ChunkOut<V, E, DIM, LVL>> {
        self.scratch
            .0
            .take()
            .and_then(|b| b.downcast::<Vec<ChunkOut<V, E, DIM, LVL>>>().ok())
            .map_or_else(Vec::new, |b| *b)
    }

    /// Keeps `chunks` for the next call (their entries are dropped then,
    /// by `begin`; their memory is reused).
    pub(crate) fn keep_chunks(&mut self, chunks: Vec<ChunkOut<V, E, DIM, LVL>>) {
        self.scratch.0 = Some(Box::new(chunks));
    }
}

impl<V, E, B, const DIM: usize, const LVL: usize> SparseTensorOut<V, E, B, DIM, LVL>
where
    V: Default + Clone,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    /// Pass 2: the chunks' entries, in order, become this output's (see the
    /// module docs). Either the buffers hold the finished tensor (state
    /// `Ready`; a later `finish` returns `Ok`), or the entries were
    /// inserted after `begin` and the caller's `finish` closes the tensor
    /// or reports the sequential kernel's error.
    pub(crate) fn concat_rows(&mut self, chunks: &[Chunk<V, E, DIM, LVL>]) {
        if !self.concat_direct(chunks) {
            self.replay(chunks);
        }
    }

    /// The insertions of the sequential kernel, from the chunks' entries.
    fn replay(&mut self, chunks: &[Chunk<V, E, DIM, LVL>]) {
        self.begin();
        for chunk in chunks {
            let part = &chunk.out;
            part.view().for_each_lvl(|lvl, v| {
                let mut dims = part.layout.lvl_to_dim(&lvl);
                if let Some(d) = dims.first_mut() {
                    *d = d.saturating_add(chunk.row0);
                }
                self.insert(self.layout.dim_to_lvl(&dims), v.clone());
            });
        }
    }

    /// The direct write of a CSR-like output; `false` (nothing changed)
    /// when it does not apply.
    fn concat_direct(&mut self, chunks: &[Chunk<V, E, DIM, LVL>]) -> bool {
        let (&[l0, l1], &[rows, cols]) = (self.layout.levels.as_slice(), self.lvl_sizes.as_slice())
        else {
            return false;
        };
        let plain = |i: crate::layout::LevelInfo, d: u8| {
            i.expr == LevelExpr::Dim(d) && i.ty.is_unique() && i.offset == 0 && i.stride == 1
        };
        let dcsr = match l0.ty.format {
            LevelFormat::Dense => false,
            LevelFormat::Compressed => true,
            _ => return false,
        };
        if !(plain(l0, 0) && plain(l1, 1) && l1.ty.format == LevelFormat::Compressed)
            || <E::Crd as Index>::PER_ELEMENT != 1
            || DIM != 2
        {
            return false;
        }
        // The chunks: finished, rows `row0..` in order covering `0..rows`,
        // every one `cols` wide, CSR-like too.
        let mut next_row = 0usize;
        let (mut entries, mut stored_rows) = (0usize, 0usize);
        for c in chunks {
            let p = &c.out;
            let (&[r, c1], [crd0, _]) = (p.lvl_sizes.as_slice(), p.coordinates.as_slice()) else {
                return false;
            };
            if p.state != State::Ready || p.fault.is_some() || c.row0 != next_row || c1 != cols {
                return false;
            }
            next_row = next_row.saturating_add(r);
            entries = entries.saturating_add(p.values.len());
            stored_rows = stored_rows.saturating_add(crd0.len());
        }
        if next_row != rows {
            return false;
        }
        let ([pos0, pos1], [crd0, crd1]) = (
            self.positions.as_mut_slice(),
            self.coordinates.as_mut_slice(),
        ) else {
            return false;
        };
        // Room, and positions that fit `posWidth`.
        let room = |len: usize, cap: usize| len <= cap;
        let pos1_len = if dcsr { stored_rows } else { rows }.saturating_add(1);
        let fits = <E::Pos as Index>::from_usize(entries).is_some()
            && <E::Pos as Index>::from_usize(stored_rows).is_some()
            && room(pos1_len, pos1.capacity())
            && room(entries, crd1.capacity())
            && room(entries, self.values.capacity())
            && (!dcsr || (room(2, pos0.capacity()) && room(stored_rows, crd0.capacity())));
        if !fits {
            return false;
        }
        self.reset_for_build();
        if !self.write_chunks(chunks, dcsr, [stored_rows, entries]) {
            // Unreachable (room and widths were checked): the insertions
            // instead.
            self.clear();
            return false;
        }
        true
    }

    /// Writes the chunks into the emptied buffers (room and widths
    /// checked); `false` if a push failed after all.
    fn write_chunks(
        &mut self,
        chunks: &[Chunk<V, E, DIM, LVL>],
        dcsr: bool,
        [stored_rows, entries]: [usize; 2],
    ) -> bool {
        for b in &mut self.coordinates {
            b.reserve(entries);
        }
        self.values.reserve(entries);
        let ([pos0, pos1], [crd0, crd1]) = (
            self.positions.as_mut_slice(),
            self.coordinates.as_mut_slice(),
        ) else {
            return false;
        };
        let pos = <E::Pos as Index>::from_usize;
        let mut ok = true;
        if dcsr {
            for p in [pos(0), pos(stored_rows)] {
                ok &= p.is_some_and(|p| pos0.push(p).is_ok());
            }
        }
        ok &= pos(0).is_some_and(|z| pos1.push(z).is_ok());
        let mut before = 0usize;
        for c in chunks {
            let ([_, p_pos1], [p_crd0, p_crd1]) =
                (c.out.positions.as_slice(), c.out.coordinates.as_slice())
            else {
                return false;
            };
            if dcsr {
                for &r in p_crd0.as_slice() {
                    let row = r.as_usize().saturating_add(c.row0);
                    let crd = <E::Crd as Index>::from_usize(row);
                    ok &= crd.is_some_and(|x| crd0.push(x).is_ok());
                }
            }
            // The chunk's positions after its first (0): one per row.
            for &end in p_pos1.as_slice().get(1..).unwrap_or(&[]) {
                ok &= pos(before.saturating_add(end)).is_some_and(|x| pos1.push(x).is_ok());
            }
            ok &= crd1.extend_from_slice(p_crd1.as_slice());
            ok &= self.values.extend_from_slice(c.out.values.as_slice());
            before = before.saturating_add(c.out.values.len());
        }
        ok
    }
}
