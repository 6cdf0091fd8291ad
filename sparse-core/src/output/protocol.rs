//! The insertion protocol generated kernels drive, as a sealed trait that
//! only `__private` exports: `begin`, `insert`/`segment`, the workspace's
//! `workspace`/`compress`/`reset_workspace`, `finish`.
//!
//! These calls are how a kernel builds its output, not how a user does:
//! called out of order they record an error that `finish` returns, and
//! between `begin` and `finish` the output shows an empty tensor. Users
//! build outputs through kernels and [`convert`](crate::convert), so the
//! methods are not on [`SparseTensorOut`]'s public API; generated code
//! brings this trait into scope (`use ::sparse_core::__private::OutputProtocol
//! as _;`) and calls them as methods. Each forwards to the crate-private
//! method of the same name, where the protocol is documented.

use super::{OutputBuffers, Segment, SparseTensorOut, Workspace};
use crate::encoding::Encoding;
use crate::error::KernelError;

mod sealed {
    /// Only [`SparseTensorOut`](super::SparseTensorOut) speaks the protocol.
    pub trait Sealed {}
}

impl<V, E, B, const DIM: usize, const LVL: usize> sealed::Sealed
    for SparseTensorOut<V, E, B, DIM, LVL>
where
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
}

/// The calls a generated kernel makes on a sparse output of `LVL` levels
/// holding `V` values: the insertion protocol, described in the
/// [`output`](crate::output) module docs. Not public API.
pub trait OutputProtocol<V, const LVL: usize>: sealed::Sealed {
    /// The open segment of the last level, from [`segment`](Self::segment).
    type Segment<'a>
    where
        Self: 'a;
    /// The dense workspace, from [`workspace`](Self::workspace).
    type Workspace<'a>
    where
        Self: 'a;

    /// Starts a kernel's output: empties every buffer.
    fn begin(&mut self);
    /// Makes room for `entries` stored entries where buffers can grow.
    fn reserve_entries(&mut self, entries: usize);
    /// Inserts `value` at level coordinates `lvl`, in lexicographic order.
    fn insert(&mut self, lvl: [usize; LVL], value: V);
    /// Opens the segment of the last level under the parent at `lvl`.
    fn segment(&mut self, lvl: [usize; LVL]) -> Self::Segment<'_>;
    /// The workspace of length `n` (the innermost level size).
    fn workspace(&mut self, n: usize) -> Result<Self::Workspace<'_>, KernelError>;
    /// Inserts the workspace's added entries under the parent at `lvl`.
    fn compress(&mut self, lvl: [usize; LVL]);
    /// Resets the workspace's added entries without inserting them.
    fn reset_workspace(&mut self);
    /// Ends the kernel: a valid tensor, or the recorded error for `name`.
    fn finish(&mut self, name: &'static str) -> Result<(), KernelError>;
}

impl<V, E, B, const DIM: usize, const LVL: usize> OutputProtocol<V, LVL>
    for SparseTensorOut<V, E, B, DIM, LVL>
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    type Segment<'a>
        = Segment<'a, V, E, B, DIM, LVL>
    where
        Self: 'a;
    type Workspace<'a>
        = Workspace<'a, V, B::Idx>
    where
        Self: 'a;

    #[inline(always)]
    fn begin(&mut self) {
        SparseTensorOut::begin(self)
    }
    #[inline(always)]
    fn reserve_entries(&mut self, entries: usize) {
        SparseTensorOut::reserve_entries(self, entries)
    }
    #[inline(always)]
    fn insert(&mut self, lvl: [usize; LVL], value: V) {
        SparseTensorOut::insert(self, lvl, value)
    }
    #[inline(always)]
    fn segment(&mut self, lvl: [usize; LVL]) -> Segment<'_, V, E, B, DIM, LVL> {
        SparseTensorOut::segment(self, lvl)
    }
    #[inline(always)]
    fn workspace(&mut self, n: usize) -> Result<Workspace<'_, V, B::Idx>, KernelError> {
        SparseTensorOut::workspace(self, n)
    }
    #[inline(always)]
    fn compress(&mut self, lvl: [usize; LVL]) {
        SparseTensorOut::compress(self, lvl)
    }
    #[inline(always)]
    fn reset_workspace(&mut self) {
        SparseTensorOut::reset_workspace(self)
    }
    #[inline(always)]
    fn finish(&mut self, name: &'static str) -> Result<(), KernelError> {
        SparseTensorOut::finish(self, name)
    }
}
