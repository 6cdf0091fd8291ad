//! Ending a call: `finish` closes the parents no insertion reached (MLIR's
//! `hasInserts` finalization) or, after a fault, empties the output and
//! reports the error with the lengths counted since.

use crate::encoding::Encoding;
use crate::error::Buffer as Which;
use crate::error::KernelError;
use crate::index::Index;

use super::buffer::{Buffer, OutputBuffers};
use super::{Fault, SparseTensorOut, State};

impl<V, E, B, const DIM: usize, const LVL: usize> SparseTensorOut<V, E, B, DIM, LVL>
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    /// Ends the kernel: closes every trailing parent (MLIR's `hasInserts`
    /// finalization) so the output is a valid tensor, or on any recorded
    /// fault empties it (still valid) and returns the error for `name`.
    pub(crate) fn finish(&mut self, name: &'static str) -> Result<(), KernelError> {
        if self.state == State::Writing {
            self.check_settled();
            self.finalize();
        }
        self.state = State::Ready;
        self.appendable = false;
        let Some(fault) = self.fault else {
            return Ok(());
        };
        let error = self.error(fault, name);
        self.clear();
        Err(error)
    }

    /// A [`Segment`](super::Segment) settles the lengths when it drops; one
    /// leaked instead (`mem::forget`) leaves entries in the last level's
    /// buffer that the lengths do not count, and positions built from them
    /// would not describe the buffers. Such a call fails (as an insertion
    /// out of order) and the output is emptied, so what it shows stays a
    /// valid tensor.
    pub(super) fn check_settled(&mut self) {
        let Some(l) = LVL.checked_sub(1) else {
            return;
        };
        let counted = self.cur.crd_len.get(l).copied();
        let stored = self.coordinates.get(l).map(|b| b.len());
        if self.writing && self.fault.is_none() && self.appends && counted != stored {
            self.set_fault(Fault::Order {
                insert: self.cur.inserts,
                level: l,
            });
        }
    }

    /// Closes the parents no insertion reached, level by level, and puts
    /// the open n:m group in order.
    pub(super) fn finalize(&mut self) {
        self.close_group();
        for l in 0..LVL {
            if !self
                .layout
                .levels
                .get(l)
                .is_some_and(|i| i.ty.has_positions())
            {
                continue;
            }
            let parents = match l.checked_sub(1) {
                Some(p) => self.cur.count.get(p).copied().unwrap_or(0),
                None => 1,
            };
            self.close_up_to(l, parents);
        }
    }

    /// The error a fault reports, with the exact lengths counted since.
    pub(super) fn error(&self, fault: Fault, tensor: &'static str) -> KernelError {
        match fault {
            Fault::Capacity {
                level,
                buffer,
                capacity,
                needed,
            } => {
                let counted = match buffer {
                    Which::Positions => self.cur.pos_len.get(level).copied(),
                    Which::Coordinates => self
                        .cur
                        .crd_len
                        .get(level)
                        .map(|&n| <E::Crd as Index>::elements(n)),
                    Which::Values => Some(self.cur.val_len),
                    Which::Workspace => None,
                };
                KernelError::Capacity {
                    tensor,
                    level,
                    buffer,
                    needed: counted.unwrap_or(needed),
                    capacity,
                }
            }
            Fault::Position { level } => KernelError::PositionOverflow {
                tensor,
                level,
                entries: self.cur.count.get(level).copied().unwrap_or(0),
                max: <E::Pos as Index>::MAX,
            },
            Fault::Range {
                level,
                coordinate,
                size,
            } => KernelError::InsertOutOfRange {
                tensor,
                level,
                coordinate,
                size,
            },
            Fault::Group {
                level,
                group,
                coordinate,
                n,
                m,
            } => KernelError::GroupOverflow {
                tensor,
                level,
                group,
                coordinate,
                n,
                m,
            },
            Fault::Order { insert, level } => KernelError::InsertOutOfOrder {
                tensor,
                insert,
                level,
            },
        }
    }

    /// Records the first fault; any fault stops writing.
    pub(super) fn set_fault(&mut self, fault: Fault) {
        self.writing = false;
        self.appendable = false;
        if self.fault.is_none() {
            self.fault = Some(fault);
        }
    }
}
