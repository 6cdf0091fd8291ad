//! In-place updates of a sparse output's values (`a[i, j] = a[i, j] * 2.0`
//! over `a: &mut tensor<.., #CSR>`): the kernel walks the stored entries
//! and overwrites their values; positions and coordinates are untouched, so
//! the tensor stays valid whatever values are written.

use crate::encoding::Encoding;
use crate::tensor::{Level, LevelStorage};

use super::buffer::{Buffer, OutputBuffers};
use super::{SparseTensorOut, State};

/// A sparse output opened for an in-place update: its levels read-only,
/// its values writable. Made by [`SparseTensorOut::in_place`].
pub struct InPlace<'a, V, P, C, const LVL: usize> {
    /// Per level, the validated storage (as
    /// [`SparseTensor::level`](crate::SparseTensor::level)).
    pub levels: [LevelStorage<'a, P, C>; LVL],
    /// The values, one per stored entry.
    pub values: &'a mut [V],
}

impl<V, E, B, const DIM: usize, const LVL: usize> SparseTensorOut<V, E, B, DIM, LVL>
where
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    /// The stored tensor with its values open for writing: the levels of
    /// [`view`](Self::view) and the values array. Writing values keeps
    /// every invariant (they are not part of them), so the output stays a
    /// valid tensor.
    pub fn in_place(&mut self) -> InPlace<'_, V, E::Pos, E::Crd, LVL> {
        let writing = self.state == State::Writing;
        let levels = core::array::from_fn(|l| Level {
            positions: if writing {
                &[][..]
            } else {
                self.positions.get(l).map_or(&[][..], |b| b.as_slice())
            },
            coordinates: if writing {
                &[][..]
            } else {
                self.coordinates.get(l).map_or(&[][..], |b| b.as_slice())
            },
        });
        InPlace {
            levels: crate::assemble::level_storage(&self.layout, &levels),
            values: if writing {
                &mut []
            } else {
                self.values.as_mut_slice()
            },
        }
    }
}
