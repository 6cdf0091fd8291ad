//! Sparse outputs: [`SparseTensorOut`], a sparse tensor a kernel writes
//! into buffers it can grow, and the insertion protocol generated kernels
//! use to fill it (MLIR's `lexInsert`, `expand`/`compress` and the
//! `hasInserts` finalization).
//!
//! # What generated kernels rely on
//!
//! - The workspace cannot be handed out as plain slices that live across
//!   `insert` calls (both borrow the output mutably), so it comes as a
//!   [`Workspace`] value, and the compress step is a method:
//!   `c.workspace(n)` returns `Result<Workspace<'_, V, B::Idx>,
//!   KernelError>` (accumulate with `*ws.entry(j).unwrap() += x` — `entry`
//!   returns `None` only for `j >= n` — or take `ws.parts()`), then, after
//!   the `Workspace` is dropped, `c.compress([i, .., 0])` sorts the added
//!   coordinates, inserts each (the last level coordinate taken from the
//!   added list) and resets exactly those slots. `c.reset_workspace()`
//!   resets without inserting. On `Err` from `workspace`, the output is
//!   already empty and valid; `return c.finish("c")` returns the same
//!   error with the tensor's name (the one `workspace` returns says
//!   `"output"`).
//! - `new` can also return `AssembleError::Capacity` (a buffer cannot hold
//!   even the empty tensor, e.g. CSR with `n` rows needs `n + 1`
//!   positions) and `AssembleError::UnsupportedOutput` (counting levels,
//!   and `structured` levels above another level, which insertion cannot
//!   write; an n:m last level is padded group by group).
//! - Besides `KernelError::Capacity`, `finish` returns
//!   `KernelError::PositionOverflow` (a level has more entries than
//!   `posWidth` counts), `GroupOverflow` (a group of an n:m last level
//!   would hold more than `n` entries), `InsertOutOfRange` and
//!   `InsertOutOfOrder` (both only from hand-written insertions).
//! - `insert`, `workspace`, `compress` and `clear` need `V: Default` (the
//!   zero of dense levels and of the workspace).
//! - The buffer trait is `sparse_core::output::Buffer`, re-exported at the
//!   crate root as `OutputBuffer` (`sparse_core::Buffer` is the error
//!   enum naming a buffer). The families are re-exported at the root:
//!   `OutputBuffers`, `Slices`, `SliceBuffer`, `Fixed`, `Owned`.
//!
//! # Buffers
//!
//! An output keeps one positions buffer and one coordinates buffer per
//! level (levels that store none take an empty one: dense levels, fused
//! AoS singletons, positions of singletons), the values, and three
//! workspace buffers. They come from one [`OutputBuffers`] family:
//! [`Slices`] (caller memory through [`SliceBuffer`]), `Fixed<N>`
//! (`heapless::Vec<_, N>`, feature `heapless`) or `Owned` (`Vec`, feature
//! `alloc`; never full).
//!
//! # The insertion protocol
//!
//! A kernel calls `begin`, then `insert` once per result entry in strictly
//! increasing lexicographic order of level coordinates, then `finish` (the
//! methods of a sealed trait only generated code reaches: the protocol is
//! how kernels and conversions fill an output, not public API). Each insertion compares its
//! coordinates with the previous one: levels above the first difference
//! keep their entry; from there down (from the first non-unique level, if
//! that is higher: it takes a new entry even for an equal coordinate) each
//! level makes a new entry: a compressed or loose compressed level closes
//! the segments of the parents before its new parent and pushes the
//! coordinate, a singleton pushes its coordinate (into the COO region's
//! AoS buffer, or its own for `soa`), a dense level computes its entry
//! from its parent's. When a new entry has dense levels below it, their
//! entries are created at once and, if they reach the last level, their
//! values are pushed as `V::default()`; an insertion into a dense last
//! level overwrites its slot. `finish` closes the parents no insertion
//! reached, so every compressed level ends with `parents + 1` positions.
//!
//! The stored entries are exactly the inserted ones, explicit zeros
//! included (plus the zero padding of dense levels): nothing tests values.
//!
//! # Capacity
//!
//! Buffers only grow during a call. When a push does not fit, nothing more
//! is written but every later push is still counted, so `finish` returns
//! `KernelError::Capacity` naming the first buffer that overflowed and the
//! exact length it needs for this result; the output is then emptied
//! (valid) and can be reused as is: a second call with that much room in
//! the buffer gets past it, and nothing is ever reallocated.
//!
//! # Why the view is valid
//!
//! [`view`](SparseTensorOut::view) builds its `SparseTensor` with
//! `assemble_unchecked`, through the same `Layout` as `assemble`, without
//! re-validating. That is sound because the only ways to change the
//! buffers are this module's methods, and between calls (state `Ready`)
//! they hold either the empty tensor (`new`, `clear`, a failed `finish`;
//! `new` checked that it fits) or a finished insertion sequence, which
//! satisfies every rule of [`crate::assemble`]:
//! positions start at 0 and are counts of entries taken in order, so they
//! are monotone and end at the number of coordinates; each compressed
//! level gets exactly one position per parent (closed lazily, finalized by
//! `finish`), a loose level one `lo, hi` pair with `lo <= hi`; coordinates
//! were checked below their level sizes (which `new` checked against the
//! coordinate width) and, by the lexicographic order, increase within each
//! segment (equal only on non-unique levels, and never on a unique
//! singleton within its region's segment: `insert` rejects that, as it
//! rejects a second entry of a singleton under the same parent; a
//! [`Segment`] appends only what `insert`'s fast path would — under the
//! parent of the previous accepted insertion, a larger coordinate below
//! the level size, with room for the value — and settles the lengths before
//! anything else reads them); a
//! position that would not fit `posWidth` is never written (the call fails
//! and the output is emptied); values are pushed once per entry of the
//! last level. During a call (between `begin` and `finish`, when the
//! buffers are half-built) `view` shows the empty tensor of dimension
//! sizes 0, whose positions (at most one `[0, 0]` pair) come from a field
//! of the output; `new` rejects the encodings where that would need more.
//!
//! # Example: a CSR output built by insertions
//!
//! The calls a generated kernel makes, written out (user code fills
//! outputs through kernels and [`convert`](crate::convert); the protocol's
//! trait is not public API, hence the hidden import):
//!
//! ```
//! # use sparse_core::__private::OutputProtocol;
//! use sparse_core::levels::{compressed, d0, d1, dense};
//! use sparse_core::{Enc, SliceBuffer, Slices, SparseTensorOut};
//!
//! type Csr = Enc<u8, u8, (dense, compressed), (d0, d1)>;
//!
//! let (mut pos, mut crd, mut val) = ([0u8; 5], [0u8; 8], [0.0f64; 8]);
//! let mut c = SparseTensorOut::<f64, Csr, Slices<'_>, 2, 2>::new(
//!     [4, 8],
//!     [SliceBuffer::default(), SliceBuffer::new(&mut pos)],
//!     [SliceBuffer::default(), SliceBuffer::new(&mut crd)],
//!     SliceBuffer::new(&mut val),
//!     SliceBuffer::default(),
//!     SliceBuffer::default(),
//!     SliceBuffer::default(),
//! )?;
//!
//! // | 1 . 2 . . . . . |
//! // | . . . . . . . . |
//! // | . 3 . . . . . . |
//! // | . . 4 . . . . 5 |
//! c.begin();
//! c.insert([0, 0], 1.0);
//! c.insert([0, 2], 2.0);
//! c.insert([2, 1], 3.0);
//! c.insert([3, 2], 4.0);
//! c.insert([3, 7], 5.0);
//! c.finish("c")?;
//!
//! let v = c.view();
//! assert_eq!(v.level(1).positions(), &[0, 2, 2, 3, 5]);
//! assert_eq!(v.level(1).coordinates(), &[0, 2, 1, 2, 7]);
//! assert_eq!(v.values(), &[1.0, 2.0, 3.0, 4.0, 5.0]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod buffer;
mod build;
#[cfg(feature = "alloc")]
mod chunk;
mod close;
mod empty_size;
mod finish;
mod in_place;
mod insert;
mod insert_any;
mod new;
mod next_row;
mod order;
mod protocol;
mod row;
mod row_extend;
mod run;
mod segment;
#[cfg(target_pointer_width = "64")]
pub(crate) mod small_sort;
mod workspace;

use core::fmt;

#[cfg(feature = "heapless")]
pub use buffer::Fixed;
#[cfg(feature = "alloc")]
pub use buffer::Owned;
pub use buffer::{Buffer, OutputBuffers, SliceBuffer, Slices};
pub use build::OutputBuilder;
#[cfg(feature = "alloc")]
#[doc(hidden)]
pub use chunk::{Chunk, ChunkOut, Wide};
#[doc(hidden)]
pub use in_place::InPlace;
pub use insert_any::Repeats;
#[doc(hidden)]
pub use protocol::OutputProtocol;
pub use row::Row;
pub use segment::Segment;
pub use workspace::Workspace;

use crate::encoding::Encoding;
use crate::error::Buffer as Which;
use crate::layout::Layout;
use crate::tensor::{Level, SparseTensor};
use insert::Cursor;

/// Where an output is in the protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum State {
    /// Between calls: the buffers hold a valid tensor.
    Ready,
    /// Between `begin` and `finish`: the buffers are half-built.
    Writing,
    /// A call failed early (workspace too small): the buffers hold the
    /// empty tensor, the fault waits for `finish`.
    Failed,
    /// Between `begin_unordered` and `finish_unordered`: the level buffers
    /// hold the empty tensor, the workspace the staged insertions
    /// (`insert_any.rs`).
    Staging,
}

/// The first thing that went wrong in a call; `finish` reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fault {
    /// A push did not fit; `needed` is only used for the workspace (other
    /// buffers report their counted length).
    Capacity {
        level: usize,
        buffer: Which,
        capacity: usize,
        needed: usize,
    },
    /// A position did not fit `posWidth`.
    Position { level: usize },
    /// An inserted coordinate was not below its level size.
    Range {
        level: usize,
        coordinate: usize,
        size: usize,
    },
    /// An insertion out of order (or a repeat a unique level cannot hold).
    Order { insert: usize, level: usize },
    /// A group of an n:m level would hold more than `n` entries.
    Group {
        level: usize,
        group: usize,
        coordinate: usize,
        n: usize,
        m: usize,
    },
}

impl Fault {
    /// Range and order faults end the call; capacity and width faults keep
    /// counting so the error can state the exact need.
    fn stops_inserts(self) -> bool {
        matches!(
            self,
            Fault::Range { .. } | Fault::Order { .. } | Fault::Group { .. }
        )
    }
}

/// A sparse tensor a kernel writes: level buffers it can grow, plus the
/// workspace (access pattern expansion) buffers used when a kernel needs
/// them. Always a valid tensor between kernel calls; read it through
/// [`view`](Self::view). See the [module docs](crate::output).
pub struct SparseTensorOut<
    V,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
    const DIM: usize,
    const LVL: usize,
> {
    pub(crate) dim_sizes: [usize; DIM],
    pub(crate) lvl_sizes: [usize; LVL],
    pub(crate) layout: Layout<DIM, LVL>,
    pub(crate) positions: [B::Pos; LVL],
    pub(crate) coordinates: [B::Crd; LVL],
    pub(crate) values: B::Val,
    ws_values: B::Val,
    ws_filled: B::Flag,
    ws_added: B::Idx,
    /// Whether the added list was handed out raw (`Workspace::parts`)
    /// since the last `compress`: only then can it list a coordinate
    /// twice, so only then does `compress` check that its sorted list
    /// strictly increases.
    ws_listed_raw: bool,
    /// `[0, 0]`: the positions of the view shown during a call.
    zero: [E::Pos; 2],
    /// Per level, how many of `zero` that view's positions take.
    zero_len: [usize; LVL],
    /// The first compressed or loose level that is non-unique (`LVL` if
    /// none): the highest level a repeated coordinate can start at.
    first_nonunique: usize,
    pub(crate) state: State,
    cur: Cursor<LVL>,
    fault: Option<Fault>,
    /// False once anything faulted: pushes only count.
    writing: bool,
    /// The last level when it is `structured[n, m]`: `(level, n, m)`.
    groups: Option<(usize, usize, usize)>,
    /// Whether the encoding admits `insert`'s fast path at all: every
    /// level unique, the last compressed with a coordinate buffer of its
    /// own.
    appends: bool,
    /// Whether `insert`'s fast path applies now (see
    /// `insert::appends_in_row`): `appends`, writing, no fault, and the
    /// previous insertion accepted. Loop-invariant across a kernel's
    /// insertions, so it is kept rather than re-derived per call.
    appendable: bool,
    /// The chunk outputs of the last `#[parallel]` call, kept (emptied,
    /// memory kept) for the next one.
    #[cfg(feature = "alloc")]
    pub(crate) scratch: chunk::Scratch,
}

impl<V, E, B, const DIM: usize, const LVL: usize> SparseTensorOut<V, E, B, DIM, LVL>
where
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    /// The dimension sizes (fixed at `new`).
    pub fn dim_sizes(&self) -> [usize; DIM] {
        self.dim_sizes
    }
    /// The level sizes.
    pub fn lvl_sizes(&self) -> [usize; LVL] {
        self.lvl_sizes
    }
    /// The stored tensor, borrowed as the read-only type kernels take. No
    /// re-validation: the insertion protocol keeps the invariants (see the
    /// [module docs](crate::output)).
    pub fn view(&self) -> SparseTensor<'_, V, E, DIM, LVL> {
        if self.state == State::Writing {
            return self.empty_view();
        }
        let levels = core::array::from_fn(|l| Level {
            positions: self.positions.get(l).map_or(&[][..], |b| b.as_slice()),
            coordinates: self.coordinates.get(l).map_or(&[][..], |b| b.as_slice()),
        });
        // SAFETY: outside a call the buffers hold the empty tensor (checked
        // to fit by `new`) or a finished insertion sequence, both of which
        // satisfy every rule of `assemble` (module docs, "Why the view is
        // valid"); the dimension sizes are the ones `new` checked.
        unsafe { SparseTensor::assemble_unchecked(self.dim_sizes, levels, self.values.as_slice()) }
    }

    /// The empty tensor of dimension sizes 0, shown during a call.
    fn empty_view(&self) -> SparseTensor<'_, V, E, DIM, LVL> {
        let levels = core::array::from_fn(|l| {
            let n = self.zero_len.get(l).copied().unwrap_or(0);
            Level {
                positions: self.zero.get(..n).unwrap_or(&[]),
                coordinates: &[],
            }
        });
        // SAFETY: `new` computed `zero_len` as the positions of the empty
        // tensor of dimension sizes 0 (`check_output_layout`): at most two
        // zeros per compressed or loose level, no coordinates, no values.
        unsafe { SparseTensor::assemble_unchecked([0; DIM], levels, &[]) }
    }

    /// The number of stored entries (`nse`), explicit zeros and dense
    /// padding included.
    pub fn number_of_entries(&self) -> usize {
        self.view().number_of_entries()
    }
}

impl<V: fmt::Display, E, B, const DIM: usize, const LVL: usize> fmt::Display
    for SparseTensorOut<V, E, B, DIM, LVL>
where
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    /// The view's `Display` (`{:#}` too).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.view(), f)
    }
}

#[cfg(feature = "defmt")]
impl<V, E, B, const DIM: usize, const LVL: usize> defmt::Format
    for SparseTensorOut<V, E, B, DIM, LVL>
where
    V: defmt::Format,
    E: Encoding,
    E::Pos: defmt::Format,
    E::Crd: defmt::Format,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    /// The view in MLIR's `sparse_tensor.print` layout (as `Display`).
    fn format(&self, f: defmt::Formatter<'_>) {
        defmt::Format::format(&self.view(), f)
    }
}

#[cfg(test)]
mod tests;
