//! `assemble` over buffers with spare capacity, as MLIR's
//! `sparse_tensor.assemble` takes them: a buffer may be longer than the
//! tensor uses, and only its used prefix is part of the tensor.
//!
//! MLIR's storage keeps, next to each buffer, the length in use (its
//! storage specifier): the positions of a level hold `parent + 1` (loose:
//! `2 * parent`) entries, its coordinates run up to the last position
//! (one per parent entry for a singleton, `n` per parent for an n:m
//! level, tuples for an AoS COO region), and the values run up to the
//! number of entries of the last level. Whatever lies past that is
//! capacity: `disassemble` returns the used lengths, and a buffer handed
//! back to `assemble` may keep its extra room.
//! [`SparseTensor::assemble`] requires exact lengths, so a buffer with
//! room to spare is a `WrongLength` there; for a `loose_compressed` level
//! it would even be read as entries (its segments may leave gaps, so
//! every coordinate slot counts). [`SparseTensor::assemble_with_capacity`]
//! first cuts each buffer to its used length, level by level, then
//! validates the prefixes exactly as `assemble` does.

use crate::encoding::Encoding;
use crate::error::AssembleError;
use crate::index::Index;
use crate::layout::Layout;
use crate::tensor::{Level, SparseTensor};
use crate::vocab::LevelFormat;

impl<'a, V, E: Encoding, const DIM: usize, const LVL: usize> SparseTensor<'a, V, E, DIM, LVL> {
    /// [`assemble`](Self::assemble) over buffers that may be longer than
    /// the tensor uses, as MLIR's `assemble` accepts them: each buffer is
    /// cut to its used length first, and only that prefix is checked and
    /// borrowed.
    ///
    /// Used lengths, level by level with `parent` entries above: a
    /// compressed level's positions are the first `parent + 1`, its
    /// coordinates run up to the last of them; a loose compressed level's
    /// positions are the first `2 * parent` (`lo, hi` pairs), its
    /// coordinates run up to the largest `hi` (gaps between segments below
    /// it stay entries, as for `assemble`); a singleton level uses one
    /// coordinate per parent entry, an n:m level `n`; an AoS COO region's
    /// tuples are counted once for the region. The values run up to the
    /// number of entries of the last level. Where a prefix cannot be
    /// determined (positions shorter than needed, a position that does not
    /// fit `usize` or points past its buffer), the buffers from that level
    /// on are passed whole, and `assemble`'s error names the problem.
    ///
    /// [`disassemble`](Self::disassemble) gives back the used prefixes and
    /// [`disassemble_into`](Self::disassemble_into) the used lengths
    /// (MLIR's `lvl_lens` and `val_len`).
    ///
    /// ```
    /// use sparse_core::levels::{compressed, d0, d1, loose_compressed, dense};
    /// use sparse_core::{Enc, Level, SparseTensor};
    ///
    /// type Csr = Enc<u32, u32, (dense, compressed), (d0, d1)>;
    /// // Room for 8 entries; 3 are used (positions end at 3).
    /// let pos = [0u32, 2, 3];
    /// let crd = [0u32, 2, 1, 0, 0, 0, 0, 0];
    /// let val = [1.0, 2.0, 3.0, 0.0, 0.0, 0.0, 0.0, 0.0];
    /// let a = SparseTensor::<f64, Csr, 2, 2>::assemble_with_capacity(
    ///     [2, 3],
    ///     [Level::dense(), Level::compressed(&pos, &crd)],
    ///     &val,
    /// )?;
    /// assert_eq!(a.number_of_entries(), 3);
    /// assert_eq!(a.level(1).coordinates(), &[0, 2, 1]);
    ///
    /// // A loose level: segments [0, 2) and [4, 5); slots 5.. are capacity.
    /// type Loose = Enc<u32, u32, (dense, loose_compressed), (d0, d1)>;
    /// let pos = [0u32, 2, 4, 5];
    /// let crd = [0u32, 1, 9, 9, 2, 7, 7];
    /// let val = [1, 2, 0, 0, 3, 0, 0];
    /// let b = SparseTensor::<i32, Loose, 2, 2>::assemble_with_capacity(
    ///     [2, 10],
    ///     [Level::dense(), Level::compressed(&pos, &crd)],
    ///     &val,
    /// )?;
    /// assert_eq!(b.values(), &[1, 2, 0, 0, 3]);
    /// # Ok::<(), sparse_core::AssembleError>(())
    /// ```
    pub fn assemble_with_capacity(
        dim_sizes: [usize; DIM],
        levels: [Level<'a, E::Pos, E::Crd>; LVL],
        values: &'a [V],
    ) -> Result<Self, AssembleError> {
        let (levels, values) = used_prefixes::<V, E, DIM, LVL>(&dim_sizes, levels, values);
        Self::assemble(dim_sizes, levels, values)
    }
}

/// The used prefix of every buffer, as far as the buffers determine it
/// (see [`SparseTensor::assemble_with_capacity`]); from the first level
/// whose prefix is undetermined on, the buffers are returned whole.
#[allow(clippy::type_complexity)]
fn used_prefixes<'a, V, E: Encoding, const DIM: usize, const LVL: usize>(
    dim_sizes: &[usize; DIM],
    mut levels: [Level<'a, E::Pos, E::Crd>; LVL],
    values: &'a [V],
) -> ([Level<'a, E::Pos, E::Crd>; LVL], &'a [V]) {
    let layout = Layout::<DIM, LVL>::decode::<E>();
    if layout.check::<E>().is_err() {
        return (levels, values);
    }
    let sizes = layout.lvl_sizes(dim_sizes);
    let mut parent = 1usize;
    for l in 0..LVL {
        let (Some(info), Some(&size)) = (layout.levels.get(l), sizes.get(l)) else {
            return (levels, values);
        };
        let stride = info.stride.max(1);
        let entries = if info.is_dense() {
            parent.checked_mul(size)
        } else {
            let Some(level) = levels.get_mut(l) else {
                return (levels, values);
            };
            match info.ty.format {
                LevelFormat::Compressed | LevelFormat::LooseCompressed => {
                    let loose = info.ty.format == LevelFormat::LooseCompressed;
                    let count = if loose {
                        parent.checked_mul(2)
                    } else {
                        parent.checked_add(1)
                    };
                    let Some(positions) = count.and_then(|c| level.positions.get(..c)) else {
                        return (levels, values);
                    };
                    level.positions = positions;
                    let last = if loose {
                        // The largest `hi`: every segment lies below it.
                        positions
                            .iter()
                            .skip(1)
                            .step_by(2)
                            .try_fold(0usize, |m, p| Some(m.max(p.to_usize()?)))
                    } else {
                        positions.last().map_or(Some(0), |p| p.to_usize())
                    };
                    let Some(entries) = last else {
                        return (levels, values);
                    };
                    if !cut(&mut level.coordinates, entries.checked_mul(stride)) {
                        return (levels, values);
                    }
                    Some(entries)
                }
                LevelFormat::Structured { n, .. } => {
                    let entries = parent.checked_mul(usize::from(n));
                    let elements = entries.map(<E::Crd as Index>::elements);
                    if !cut(&mut level.coordinates, elements) {
                        return (levels, values);
                    }
                    entries
                }
                _ => {
                    // A singleton: one entry per parent entry; a fused one
                    // was cut with its region's start.
                    if !info.is_fused() && !cut(&mut level.coordinates, Some(parent)) {
                        return (levels, values);
                    }
                    Some(parent)
                }
            }
        };
        let Some(entries) = entries else {
            return (levels, values);
        };
        parent = entries;
    }
    let mut values = values;
    // A pattern tensor takes no values at all: leave them for `assemble`
    // to judge.
    if !E::is_pattern() && !cut(&mut values, Some(parent)) {
        return (levels, values);
    }
    (levels, values)
}

/// Cuts `buffer` to its first `used` elements; `false` (buffer untouched)
/// if `used` is unknown or past the end.
fn cut<T>(buffer: &mut &[T], used: Option<usize>) -> bool {
    match used.and_then(|n| buffer.get(..n)) {
        Some(prefix) => {
            *buffer = prefix;
            true
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use crate::levels::{compressed, d0, d1, dense, nonunique, singleton, soa};
    use crate::{AssembleError, Buffer, Enc, Level, LevelBuffersMut, SparseTensor};

    type Coo = Enc<u8, u8, (compressed<nonunique>, singleton), (d0, d1)>;
    type CooSoa = Enc<u8, u8, (compressed<nonunique>, singleton<soa>), (d0, d1)>;
    type Csr = Enc<u8, u8, (dense, compressed), (d0, d1)>;

    #[test]
    fn aos_and_soa_coo_with_room_round_trip_through_disassemble() {
        // MLIR's doc example with room for two more tuples and values.
        let (pos, crd) = ([0u8, 3], [0u8, 0, 1, 2, 1, 3, 9, 9, 9, 9]);
        let val = [1.1, 2.2, 3.3, -1.0, -1.0];
        let t = SparseTensor::<f64, Coo, 2, 2>::assemble_with_capacity(
            [3, 4],
            [Level::compressed(&pos, &crd), Level::fused()],
            &val,
        )
        .unwrap();
        assert_eq!(t.number_of_entries(), 3);
        let (mut p, mut c, mut v) = ([0u8; 4], [0u8; 12], [0.0; 6]);
        let lens = t
            .disassemble_into(
                [
                    LevelBuffersMut::new(&mut p, &mut c),
                    LevelBuffersMut::none(),
                ],
                &mut v,
            )
            .unwrap();
        assert_eq!(
            (
                lens.levels[0].positions,
                lens.levels[0].coordinates,
                lens.values
            ),
            (2, 6, 3)
        );
        assert_eq!(&c[..6], &crd[..6]);

        let (i, j) = ([0u8, 1, 1, 7], [0u8, 2, 3, 7]);
        let t = SparseTensor::<f64, CooSoa, 2, 2>::assemble_with_capacity(
            [3, 4],
            [Level::compressed(&pos, &i), Level::singleton(&j)],
            &val,
        )
        .unwrap();
        assert_eq!(t.level(1).coordinates(), &[0, 2, 3]);
    }

    #[test]
    fn undetermined_prefixes_are_assembles_errors() {
        // Positions too short: assemble's own error.
        let r = SparseTensor::<f64, Csr, 2, 2>::assemble_with_capacity(
            [2, 3],
            [Level::dense(), Level::compressed(&[0, 1], &[0])],
            &[1.0],
        );
        assert!(matches!(
            r,
            Err(AssembleError::WrongLength {
                level: 1,
                buffer: Buffer::Positions,
                ..
            })
        ));
        // A last position past the coordinates.
        let r = SparseTensor::<f64, Csr, 2, 2>::assemble_with_capacity(
            [2, 3],
            [Level::dense(), Level::compressed(&[0, 1, 4], &[0, 1])],
            &[1.0, 2.0],
        );
        assert!(matches!(r, Err(AssembleError::PositionOutOfRange { .. })));
        // Fewer values than entries.
        let r = SparseTensor::<f64, Csr, 2, 2>::assemble_with_capacity(
            [2, 3],
            [Level::dense(), Level::compressed(&[0, 1, 2], &[0, 1, 2])],
            &[1.0],
        );
        assert!(matches!(
            r,
            Err(AssembleError::WrongLength {
                buffer: Buffer::Values,
                ..
            })
        ));
        // Spare room is not checked: garbage past the used prefix is fine.
        let t = SparseTensor::<f64, Csr, 2, 2>::assemble_with_capacity(
            [2, 3],
            [
                Level::dense(),
                Level::compressed(&[0, 1, 2, 200], &[0, 1, 250]),
            ],
            &[1.0, 2.0, f64::NAN],
        )
        .unwrap();
        assert_eq!(t.values(), &[1.0, 2.0]);
    }
}
