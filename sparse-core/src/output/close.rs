//! Writing the level buffers: the zero blocks of dense levels and the
//! padded groups of an n:m level under new entries, the positions that
//! close parents, and the pushes of coordinates and values, each counted
//! even when nothing more is written (counting mode after a fault).

use crate::encoding::Encoding;
use crate::error::Buffer as Which;
use crate::index::Index;
use crate::vocab::LevelFormat;

use super::buffer::{Buffer, OutputBuffers};
use super::{Fault, SparseTensorOut};

impl<V, E, B, const DIM: usize, const LVL: usize> SparseTensorOut<V, E, B, DIM, LVL>
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    pub(super) fn format(&self, l: usize) -> LevelFormat {
        self.layout
            .levels
            .get(l)
            .map_or(LevelFormat::Dense, |i| i.ty.format)
    }

    /// Creates the entries of the dense levels from `from` down that hang
    /// below `new` new entries of level `from - 1`; if they reach the last
    /// level, pushes their zero values.
    pub(super) fn grow_dense(&mut self, from: usize, new: usize) {
        let mut n = new;
        for l in from..LVL {
            if let Some((_, per, _)) = self.groups.filter(|g| g.0 == l) {
                self.grow_groups(l, n, per);
                return;
            }
            let dense = self.layout.levels.get(l).is_some_and(|i| i.is_dense());
            if !dense {
                return;
            }
            n = n.saturating_mul(self.lvl_sizes.get(l).copied().unwrap_or(0));
            if let Some(c) = self.cur.count.get_mut(l) {
                *c = c.saturating_add(n);
            }
        }
        // The block's room is asked for at once: an `Owned` output of a
        // dense array too large for memory fails here in one request (a
        // capacity error) rather than growing push by push into all of it.
        if n > 0 && self.writing && !self.values.make_room(n) {
            let capacity = self.values.capacity();
            self.set_fault(Fault::Capacity {
                level: LVL.saturating_sub(1),
                buffer: Which::Values,
                capacity,
                needed: 0,
            });
        }
        let mut left = n;
        while left > 0 && self.writing {
            self.push_val(V::default());
            left -= 1;
        }
        // Counting mode: the rest of the block is only counted.
        self.cur.val_len = self.cur.val_len.saturating_add(left);
    }

    /// Creates the groups of n:m last level `l` under `groups` new parent
    /// entries: `per` slots each, holding the padding entries `0..per`
    /// (zero values) until insertions fill them.
    pub(super) fn grow_groups(&mut self, l: usize, groups: usize, per: usize) {
        let slots = groups.saturating_mul(per);
        if let Some(c) = self.cur.count.get_mut(l) {
            *c = c.saturating_add(slots);
        }
        let owner = l.saturating_sub(self.layout.levels.get(l).map_or(0, |i| i.offset));
        let mut left = groups;
        while left > 0 && self.writing {
            for x in 0..per {
                self.push_crd(owner, x);
                self.push_val(V::default());
            }
            left -= 1;
        }
        // Counting mode: the rest is only counted.
        let rest = left.saturating_mul(per);
        if let Some(n) = self.cur.crd_len.get_mut(owner) {
            *n = n.saturating_add(rest);
        }
        self.cur.val_len = self.cur.val_len.saturating_add(rest);
    }

    /// Closes the parents of compressed or loose level `l` below `parents`.
    pub(super) fn close_up_to(&mut self, l: usize, parents: usize) {
        // The first close may end an open segment; every later one closes
        // an empty parent, pushing the same position (a loose level: the
        // same pair): those go in one `extend_fill`, so a run of empty rows
        // costs one allocation request (`Owned`: refused at once when it
        // cannot be had, rather than grown row by row into all memory).
        if self.writing && self.cur.closed.get(l).is_some_and(|&k| k < parents) {
            self.close(l);
        }
        self.fill_empty_parents(l, parents);
        let Some(&closed) = self.cur.closed.get(l) else {
            return;
        };
        if closed >= parents {
            return;
        }
        // Counting mode: count the rest at once (a gap may span many rows).
        let per = if self.format(l) == LevelFormat::LooseCompressed {
            2
        } else {
            1
        };
        let end = self.cur.count.get(l).copied().unwrap_or(0);
        if let Some(n) = self.cur.pos_len.get_mut(l) {
            *n = n.saturating_add((parents - closed).saturating_mul(per));
        }
        if <E::Pos as Index>::from_usize(end).is_none() {
            self.set_fault(Fault::Position { level: l });
        }
        if let Some(s) = self.cur.seg_start.get_mut(l) {
            *s = end;
        }
        if let Some(k) = self.cur.closed.get_mut(l) {
            *k = parents;
        }
    }

    /// Closes the parents of level `l` below `parents`, none of which has
    /// an open segment, in one bulk write; on a full buffer it records the
    /// fault and leaves them to the caller's counting.
    pub(super) fn fill_empty_parents(&mut self, l: usize, parents: usize) {
        let Some(&closed) = self.cur.closed.get(l) else {
            return;
        };
        if !self.writing || closed >= parents {
            return;
        }
        let per = if self.format(l) == LevelFormat::LooseCompressed {
            2
        } else {
            1
        };
        let end = self.cur.count.get(l).copied().unwrap_or(0);
        let Some(p) = <E::Pos as Index>::from_usize(end) else {
            self.set_fault(Fault::Position { level: l });
            return;
        };
        let n = (parents - closed).saturating_mul(per);
        let Some(buffer) = self.positions.get_mut(l) else {
            return;
        };
        if !buffer.extend_fill(n, p) {
            let capacity = buffer.capacity();
            self.set_fault(Fault::Capacity {
                level: l,
                buffer: Which::Positions,
                capacity,
                needed: 0,
            });
            return;
        }
        if let Some(len) = self.cur.pos_len.get_mut(l) {
            *len = len.saturating_add(n);
        }
        if let Some(s) = self.cur.seg_start.get_mut(l) {
            *s = end;
        }
        if let Some(k) = self.cur.closed.get_mut(l) {
            *k = parents;
        }
    }

    /// Closes the open parent of compressed or loose level `l`.
    pub(super) fn close(&mut self, l: usize) {
        let end = self.cur.count.get(l).copied().unwrap_or(0);
        if self.format(l) == LevelFormat::LooseCompressed {
            let lo = self.cur.seg_start.get(l).copied().unwrap_or(0);
            self.push_pos(l, lo);
            self.push_pos(l, end);
            if let Some(s) = self.cur.seg_start.get_mut(l) {
                *s = end;
            }
        } else {
            self.push_pos(l, end);
        }
        if let Some(k) = self.cur.closed.get_mut(l) {
            *k += 1;
        }
    }

    pub(super) fn push_pos(&mut self, l: usize, position: usize) {
        if let Some(n) = self.cur.pos_len.get_mut(l) {
            *n = n.saturating_add(1);
        }
        let Some(p) = <E::Pos as Index>::from_usize(position) else {
            self.set_fault(Fault::Position { level: l });
            return;
        };
        if !self.writing {
            return;
        }
        let Some(buffer) = self.positions.get_mut(l) else {
            return;
        };
        if buffer.push(p).is_err() {
            let capacity = buffer.capacity();
            self.set_fault(Fault::Capacity {
                level: l,
                buffer: Which::Positions,
                capacity,
                needed: 0,
            });
        }
    }

    pub(super) fn push_crd(&mut self, owner: usize, coordinate: usize) {
        if let Some(n) = self.cur.crd_len.get_mut(owner) {
            *n = n.saturating_add(1);
        }
        if !self.writing {
            return;
        }
        // `new` checked that every level size fits the coordinate width, and
        // `check_insert` that the coordinate is below its size.
        let Some(c) = <E::Crd as Index>::from_usize(coordinate) else {
            return;
        };
        let Some(buffer) = self.coordinates.get_mut(owner) else {
            return;
        };
        // Packed coordinates: a new element (holding `c` first, the rest 0)
        // every `PER_ELEMENT` coordinates, else `c` goes into the last one.
        let per = <E::Crd as Index>::PER_ELEMENT;
        let q = self
            .cur
            .crd_len
            .get(owner)
            .copied()
            .unwrap_or(1)
            .saturating_sub(1);
        if per > 1 && q % per != 0 {
            <E::Crd as Index>::set_at(buffer.as_mut_slice(), q, coordinate);
            return;
        }
        if buffer.push(c).is_err() {
            let capacity = buffer.capacity();
            self.set_fault(Fault::Capacity {
                level: owner,
                buffer: Which::Coordinates,
                capacity,
                needed: 0,
            });
        }
    }

    pub(super) fn push_val(&mut self, value: V) {
        self.cur.val_len = self.cur.val_len.saturating_add(1);
        if !self.writing {
            return;
        }
        if self.values.push(value).is_err() {
            let capacity = self.values.capacity();
            self.set_fault(Fault::Capacity {
                level: LVL.saturating_sub(1),
                buffer: Which::Values,
                capacity,
                needed: 0,
            });
        }
    }
}
