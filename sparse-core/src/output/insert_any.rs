//! Insertion in any order: MLIR's `sparse_tensor.insert` into a tensor
//! whose insertions do not come in storage order, finalized by `load
//! hasInserts`, which sorts and merges them.
//!
//! The ordered protocol (`begin`/`insert`/`finish`) writes each entry
//! straight into the level buffers, so it needs lexicographic order on
//! every level. Here the insertions are *staged* instead, in the output's
//! own workspace buffers (which no insertion uses otherwise): each one
//! appends its level coordinates and its sequence number to the added
//! list (`LVL + 1` indices) and its value to the workspace values. At
//! [`finish_unordered`](SparseTensorOut::finish_unordered) the staged
//! tuples are sorted in place (hybrid quick sort on `(level coordinates,
//! sequence number)`, so equal coordinates stay in insertion order without
//! a stable sort), repeats are merged as asked, and the entries go
//! through the ordered protocol, which builds every format it can write
//! and checks the level buffers' room exactly as a kernel does.
//!
//! Memory: the caller's buffers only — `(LVL + 1) * k` indices and `k`
//! values of workspace for `k` insertions (`Owned` grows them), plus the
//! result's level buffers. Time: `O(k log k)` comparisons of `LVL + 1`
//! indices, plus the ordered protocol.

use crate::encoding::Encoding;
use crate::error::Buffer as Which;
use crate::error::KernelError;
use crate::vocab::MAX_RANK;

use super::buffer::{Buffer, OutputBuffers};
use super::{Fault, SparseTensorOut, State};
use crate::convert::engine::keeps_repeats;
use crate::convert::sort::Rows;
use crate::convert::sort_keys::{sort_rows, SortAlgorithm};

/// What [`finish_unordered`](SparseTensorOut::finish_unordered) does with
/// level coordinates inserted more than once, when the output's levels
/// cannot hold repeats. (An output that keeps repeats — COO whose levels
/// from the first `nonunique` one on are all `nonunique` — stores each
/// insertion as its own entry, in insertion order, whatever this says.)
#[derive(Clone, Copy, Debug)]
pub enum Repeats<V> {
    /// The latest insertion wins: MLIR's `tensor.insert`, whose result is
    /// the tensor with that one element replaced.
    Last,
    /// The values are folded in insertion order, `f(earlier, later)`
    /// (`|a, b| a + b` accumulates, as a COO read sums repeats).
    Combine(fn(V, V) -> V),
    /// A repeat fails the call with [`KernelError::InsertOutOfOrder`]
    /// naming the repeating insertion (counted from 0) and the last level.
    Refuse,
}

/// The staged tuples: `LVL + 1` indices each (level coordinates, then the
/// sequence number), all compared, and the values moved with them.
struct Staged<'a, V> {
    added: &'a mut [usize],
    values: &'a mut [V],
    width: usize,
}

impl<V> Rows for Staged<'_, V> {
    fn cmp_rows(&self, a: usize, b: usize) -> core::cmp::Ordering {
        let row = |r: usize| {
            let at = r.saturating_mul(self.width);
            self.added
                .get(at..at.saturating_add(self.width))
                .unwrap_or(&[])
        };
        row(a).cmp(row(b))
    }
    fn swap_rows(&mut self, a: usize, b: usize) {
        if a == b {
            return;
        }
        for k in 0..self.width {
            let (i, j) = (a * self.width + k, b * self.width + k);
            if i < self.added.len() && j < self.added.len() {
                self.added.swap(i, j);
            }
        }
        if a < self.values.len() && b < self.values.len() {
            self.values.swap(a, b);
        }
    }
}

impl<V, E, B, const DIM: usize, const LVL: usize> SparseTensorOut<V, E, B, DIM, LVL>
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    /// Starts insertions in any order: empties the tensor (a valid empty
    /// tensor until [`finish_unordered`](Self::finish_unordered)) and the
    /// workspace, which will stage the insertions.
    ///
    /// ```
    /// use sparse_core::levels::{compressed, d0, d1, dense};
    /// use sparse_core::output::Repeats;
    /// use sparse_core::{Enc, SliceBuffer, Slices, SparseTensorOut};
    ///
    /// type Csc = Enc<u8, u8, (dense, compressed), (d1, d0)>;
    /// // Caller memory: the result's buffers, and a workspace staging up
    /// // to 4 insertions (4 values, 4 * (levels + 1) indices).
    /// let (mut pos, mut crd, mut val) = ([0u8; 4], [0u8; 4], [0i32; 4]);
    /// let (mut ws_val, mut ws_added) = ([0i32; 4], [0usize; 12]);
    /// let mut c = SparseTensorOut::<i32, Csc, Slices<'_>, 2, 2>::new(
    ///     [2, 3],
    ///     [SliceBuffer::default(), SliceBuffer::new(&mut pos)],
    ///     [SliceBuffer::default(), SliceBuffer::new(&mut crd)],
    ///     SliceBuffer::new(&mut val),
    ///     SliceBuffer::new(&mut ws_val),
    ///     SliceBuffer::default(),
    ///     SliceBuffer::new(&mut ws_added),
    /// )?;
    /// c.begin_unordered();
    /// // Level coordinates of CSC: (column, row); any order, a repeat.
    /// for (i, j, v) in [(1, 2, 5), (0, 0, 1), (1, 0, 3), (1, 2, 6)] {
    ///     let lvl = c.view().dim_to_lvl([i, j]);
    ///     c.insert_unordered(lvl, v);
    /// }
    /// c.finish_unordered("c", Repeats::Combine(|a, b| a + b))?;
    /// assert_eq!(c.view().level(1).positions(), &[0, 2, 2, 3]);
    /// assert_eq!(c.view().level(1).coordinates(), &[0, 1, 1]);
    /// assert_eq!(c.view().values(), &[1, 3, 11]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn begin_unordered(&mut self) {
        self.clear();
        self.ws_added.clear();
        self.ws_values.clear();
        // Emptied too, so a later `workspace(n)` rebuilds the whole
        // workspace rather than trusting what staging left.
        self.ws_filled.clear();
        self.state = State::Staging;
    }

    /// Stages `value` at level coordinates `lvl` (MLIR's
    /// `sparse_tensor.insert`; `dim_to_lvl` of the [`view`](Self::view)
    /// translates dimension coordinates). Any order, repeats allowed.
    ///
    /// A coordinate not below its level size is recorded and ends the
    /// call (later insertions are ignored); a full workspace is recorded
    /// and the rest only counted, so
    /// [`finish_unordered`](Self::finish_unordered) reports the exact room
    /// needed. Outside `begin_unordered`..`finish_unordered` this does
    /// nothing.
    pub fn insert_unordered(&mut self, lvl: [usize; LVL], value: V) {
        if self.state != State::Staging || self.fault.is_some_and(|f| f.stops_inserts()) {
            return;
        }
        for (l, (&c, &size)) in lvl.iter().zip(&self.lvl_sizes).enumerate() {
            if c >= size {
                self.set_fault(Fault::Range {
                    level: l,
                    coordinate: c,
                    size,
                });
                return;
            }
        }
        let seq = self.cur.inserts;
        self.cur.inserts = seq.saturating_add(1);
        if !self.writing {
            return;
        }
        let mut tuple = [0usize; MAX_RANK + 1];
        for (slot, &c) in tuple.iter_mut().zip(&lvl) {
            *slot = c;
        }
        let Some(row) = tuple.get_mut(..=LVL) else {
            return;
        };
        if let Some(last) = row.last_mut() {
            *last = seq;
        }
        // Both pushes or neither, so staged tuples and values stay paired.
        let room = self.ws_added.capacity().saturating_sub(self.ws_added.len()) > LVL
            && self.ws_values.capacity() > self.ws_values.len();
        if !(room && self.ws_added.extend_from_slice(row) && self.ws_values.push(value).is_ok()) {
            let capacity = self.staging_capacity();
            self.set_fault(Fault::Capacity {
                level: LVL.saturating_sub(1),
                buffer: Which::Workspace,
                capacity,
                needed: 0,
            });
        }
    }

    /// How many insertions the workspace can stage.
    fn staging_capacity(&self) -> usize {
        (self.ws_added.capacity() / (LVL + 1)).min(self.ws_values.capacity())
    }

    /// Ends insertions in any order (MLIR's `load hasInserts`): sorts the
    /// staged insertions, merges repeats as `repeats` says, and builds the
    /// tensor, which then holds exactly the inserted coordinates.
    ///
    /// Errors (the output is then a valid empty tensor, reusable):
    /// - [`KernelError::Capacity`] with `buffer: Buffer::Workspace` when
    ///   the workspace could not stage every insertion: `needed` and
    ///   `capacity` count insertions, and the workspace needs `needed`
    ///   values and `(LVL + 1) * needed` added coordinates; with any other
    ///   buffer, the level buffers are too small for the result, exactly
    ///   as for a kernel;
    /// - [`KernelError::InsertOutOfRange`] for a coordinate not below its
    ///   level size;
    /// - [`KernelError::InsertOutOfOrder`] for a repeat under
    ///   [`Repeats::Refuse`];
    /// - what the ordered protocol's `finish` reports for the result
    ///   (`PositionOverflow`, `GroupOverflow`, and `InsertOutOfOrder` for
    ///   two entries a singleton level cannot hold under one parent).
    ///
    /// Called without `begin_unordered` it finishes like the ordered
    /// protocol (what generated kernels call).
    pub fn finish_unordered(
        &mut self,
        name: &'static str,
        repeats: Repeats<V>,
    ) -> Result<(), KernelError> {
        if self.state != State::Staging {
            return self.finish(name);
        }
        let staged = self.cur.inserts;
        if let Some(fault) = self.fault {
            let error = match fault {
                Fault::Range {
                    level,
                    coordinate,
                    size,
                } => KernelError::InsertOutOfRange {
                    tensor: name,
                    level,
                    coordinate,
                    size,
                },
                _ => KernelError::Capacity {
                    tensor: name,
                    level: LVL.saturating_sub(1),
                    buffer: Which::Workspace,
                    needed: staged,
                    capacity: self.staging_capacity(),
                },
            };
            self.drop_staging();
            return Err(error);
        }
        let width = LVL + 1;
        let n = staged
            .min(self.ws_added.len() / width)
            .min(self.ws_values.len());
        let mut rows = Staged {
            added: self.ws_added.as_mut_slice(),
            values: self.ws_values.as_mut_slice(),
            width,
        };
        sort_rows(&mut rows, SortAlgorithm::HybridQuickSort, n);

        let keep = keeps_repeats(&self.layout);
        self.begin();
        let mut pending: Option<([usize; LVL], V)> = None;
        let mut refused = None;
        for k in 0..n {
            let at = k * width;
            let Some(row) = self.ws_added.as_slice().get(at..at + width) else {
                break;
            };
            let lvl: [usize; LVL] = core::array::from_fn(|l| row.get(l).copied().unwrap_or(0));
            let seq = row.get(LVL).copied().unwrap_or(0);
            let value = self
                .ws_values
                .as_mut_slice()
                .get_mut(k)
                .map(core::mem::take)
                .unwrap_or_default();
            pending = match pending.take() {
                Some((p, earlier)) if p == lvl && !keep => match repeats {
                    Repeats::Last => Some((p, value)),
                    Repeats::Combine(f) => Some((p, f(earlier, value))),
                    Repeats::Refuse => {
                        refused = Some(seq);
                        None
                    }
                },
                Some((p, earlier)) => {
                    self.insert(p, earlier);
                    Some((lvl, value))
                }
                None => Some((lvl, value)),
            };
            if refused.is_some() {
                break;
            }
        }
        if let (Some((p, v)), None) = (pending, refused) {
            self.insert(p, v);
        }
        let result = self.finish(name);
        self.drop_staging();
        if let Some(insert) = refused {
            self.clear();
            return Err(KernelError::InsertOutOfOrder {
                tensor: name,
                insert,
                level: LVL.saturating_sub(1),
            });
        }
        result
    }

    /// Forgets the staged insertions (the workspace is rebuilt by the
    /// next `workspace(n)`); the level buffers are left as they are.
    fn drop_staging(&mut self) {
        self.ws_added.clear();
        self.ws_values.clear();
        if self.state == State::Staging {
            self.clear();
        }
    }
}
