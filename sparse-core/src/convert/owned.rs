//! Moving the buffers out of an `Owned` output.

use alloc::vec::Vec;

use crate::encoding::Encoding;
use crate::output::{Owned, SparseTensorOut};

/// The buffers of an [`Owned`] output, moved out by
/// [`SparseTensorOut::into_parts`]: the layout [`SparseTensor::assemble`](crate::SparseTensor::assemble)
/// takes, one positions and one coordinates `Vec` per level (empty where
/// the level stores none; an AoS COO region's tuples in its start's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnedParts<V, P, C, const DIM: usize, const LVL: usize> {
    /// The dimension sizes.
    pub dim_sizes: [usize; DIM],
    /// Per level, the positions.
    pub positions: [Vec<P>; LVL],
    /// Per level, the coordinates.
    pub coordinates: [Vec<C>; LVL],
    /// The values.
    pub values: Vec<V>,
}

impl<V, E, const DIM: usize, const LVL: usize> SparseTensorOut<V, E, Owned, DIM, LVL>
where
    V: Default,
    E: Encoding,
{
    /// Moves the buffers out without copying them (MLIR's `disassemble`
    /// of a tensor that owns its storage), e.g. to hand them to another
    /// library. Called during a hand-written insertion sequence (between
    /// `begin` and `finish`), it gives the empty tensor.
    ///
    /// ```
    /// use sparse_core::convert::from_dense;
    /// use sparse_core::levels::{compressed, d0, d1, dense};
    /// use sparse_core::{Enc, Owned, SparseTensorOut};
    ///
    /// type Csr = Enc<usize, usize, (dense, compressed), (d0, d1)>;
    /// let mut a = SparseTensorOut::<i32, Csr, Owned, 2, 2>::with_dims([2, 2])?;
    /// from_dense(&[0, 1, 2, 0], [2, 2], &mut a)?;
    /// let parts = a.into_parts();
    /// assert_eq!(parts.positions[1], [0, 1, 2]);
    /// assert_eq!(parts.coordinates[1], [1, 0]);
    /// assert_eq!(parts.values, [1, 2]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn into_parts(mut self) -> OwnedParts<V, E::Pos, E::Crd, DIM, LVL> {
        if self.state != crate::output::State::Ready {
            self.clear();
        }
        OwnedParts {
            dim_sizes: self.dim_sizes,
            positions: self.positions,
            coordinates: self.coordinates,
            values: self.values,
        }
    }
}
