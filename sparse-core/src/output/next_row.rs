//! Opening the next row of a CSR/CSC output in a few instructions: what a
//! bounded [`Row`](super::row) does once per row when the rows come one
//! after the other and every buffer already has the room.
//!
//! The general opening (`opens_row`, `open_row`: `close_up_to` with its
//! runs of empty rows and counting mode, then a `try_reserve` per buffer
//! for the row's slots) was ~174 instructions per row of a sparse add,
//! ~4 per input entry at 40 entries per row. A generated kernel reserves
//! the whole output's bound up front (`reserve_entries`: nnz(a) + nnz(b)
//! for `a + b`), so on the common path every row's slots are already in
//! the buffers' spare capacity and the previous row is the only one to
//! close: one position pushed into a buffer with room. Anything else
//! (empty rows before this one, a full buffer, a position too wide, an
//! output not writing) is left to the general path, which then does
//! exactly what it always did: the results and errors are the same.

use crate::encoding::Encoding;
use crate::index::Index;
use crate::vocab::LevelFormat;

use super::buffer::{Buffer, OutputBuffers};
use super::SparseTensorOut;

impl<V, E, B, const DIM: usize, const LVL: usize> SparseTensorOut<V, E, B, DIM, LVL>
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    /// Opens row `lvl[0]` of a `(dense, compressed)` output whose
    /// previous row is the last one open (or none is yet), as
    /// [`opens_row`](Self::opens_row) with [`open_row`](Self::open_row)
    /// would, when the positions buffer has room for the one position
    /// that closes the previous row. `false` with nothing changed
    /// otherwise. (The row's slots are reserved after, as on the general
    /// path.)
    #[inline]
    pub(super) fn open_next_row(&mut self, lvl: &[usize; LVL]) -> bool {
        let i = lvl.first().copied().unwrap_or(0);
        let closed = self.cur.closed.get(1).copied().unwrap_or(usize::MAX);
        // Row `i` opens by closing at most row `i - 1` (`closed` counts the
        // closed rows: `i` when none is left to close).
        let closes = i.wrapping_sub(closed);
        if closes > 1 || !self.opens_row(lvl, 0) || self.format(1) != LevelFormat::Compressed {
            return false;
        }
        if closes == 1 {
            // `close(1)`: the position after the previous row's entries.
            let end = self.cur.count.get(1).copied().unwrap_or(0);
            let Some(p) = <E::Pos as Index>::from_usize(end) else {
                return false;
            };
            let Some(buffer) = self.positions.get_mut(1) else {
                return false;
            };
            if buffer.len() >= buffer.capacity() || buffer.push(p).is_err() {
                return false;
            }
            if let Some(n) = self.cur.pos_len.get_mut(1) {
                *n = n.saturating_add(1);
            }
            if let Some(k) = self.cur.closed.get_mut(1) {
                *k = i;
            }
        }
        if let Some(e) = self.cur.entry.first_mut() {
            *e = i;
        }
        true
    }
}
