//! `assemble`: MLIR's `sparse_tensor.assemble`, with the validation MLIR
//! leaves to the user.
//!
//! MLIR trusts the buffers it is given. Here [`SparseTensor::assemble`]
//! checks everything a kernel later relies on, so that kernels can drop
//! bounds checks on validated input, and reports the first violation as an
//! [`AssembleError`] naming the level, the buffer and the offending index.
//! Nothing allocates; the work is linear in the buffer lengths except for
//! unique-but-`nonordered` levels (see below).
//!
//! # The rules, in the order they are checked
//!
//! 1. **The encoding** (a hand-written `Enc` may hold any codes):
//!    `DIM, LVL <= MAX_RANK`; every level `l < LVL` has a valid level type
//!    and an expression reading a dimension `< DIM`; `floordiv`, `mod` and
//!    counting constants are `>= 1`; every dimension is recovered by exactly
//!    one plain level `d`, or by exactly one `d floordiv b` / `d mod b` pair
//!    with the same `b` (counting levels, ELL's `c * K * d`, recover nothing
//!    and must be `dense`); a `singleton` level has a parent that stores
//!    coordinates; `structured[n, m]` stores `d mod m` with `1 <= n <= m`.
//!    Violations give `InvalidEncoding` naming the level (or, for a
//!    dimension no level reads, the dimension). An `explicitVal` (the
//!    `VALUES` code) must be valid (`InvalidExplicitValue`) and of the
//!    element type `V` (`ExplicitValueType`).
//! 2. **Per level, outermost first**, with `parent` = the number of entries
//!    of the level above (1 above level 0):
//!    - dense, batch and counting levels take no buffers (`UnexpectedBuffer`)
//!      and have `parent * size` entries (`TooLarge` on overflow);
//!    - a level with coordinates must have `size - 1 <= Crd::MAX`
//!      (`WidthOverflow { buffer: Coordinates }`);
//!    - compressed: at most `Pos::MAX` entries (`WidthOverflow { buffer:
//!      Positions }`), `parent + 1` positions (`WrongLength`), the first
//!      0, each at most the number of entries (`PositionOutOfRange`),
//!      non-decreasing (`NonMonotonePositions`), the last equal to the
//!      number of coordinates (`WrongLength` of the coordinates);
//!    - loose compressed: `2 * parent` positions as `lo, hi` pairs with
//!      `lo <= hi <= entries`; every coordinate slot is an entry, so gaps
//!      between segments are allowed (their coordinates are checked for range
//!      too, though no walk reaches them), and segments may come in any
//!      order or even overlap;
//!    - singleton: one coordinate per parent entry, no positions;
//!    - `structured[n, m]`: `n` coordinates per parent entry, no positions;
//!    - every coordinate is below the level size (`CoordinateOutOfRange`);
//!    - order and uniqueness as the level type promises, within each segment
//!      (`Unsorted`, `Duplicate`).
//! 3. **Values**: one per entry of the last level (`WrongLength`); none at
//!    all for a pattern tensor (an encoding with `explicitVal`), whose
//!    entries all hold the `explicitVal` (`PatternValues`).
//!
//! Positions in errors (`position` of `CoordinateOutOfRange`, `Unsorted`,
//! `Duplicate`) are entry positions: for AoS COO levels the index of the
//! tuple, not the offset into the shared buffer. `PositionOutOfRange`'s
//! `limit` is likewise counted in entries.
//!
//! # COO regions
//!
//! A compressed or loose compressed level `s` followed by a maximal run of
//! `singleton` levels without `soa` (`s+1..=e`) stores its coordinates as an
//! array of structures: level `s`'s coordinate buffer holds one tuple of
//! `e - s + 1` coordinates per entry, and levels `s+1..=e` take no buffers.
//!
//! Singleton levels order their coordinates as MLIR's sorted COO does:
//! lexicographically over the region. Within one segment of the region's
//! start `s`, consecutive tuples `(crd_s, ..., crd_l)` must be
//! non-decreasing if levels `s..=l` are all ordered, and pairwise distinct
//! if level `l` is unique. So `(i : compressed(nonunique), j : singleton)`
//! accepts repeated rows but not a repeated `(i, j)`.
//!
//! # Cost
//!
//! Linear in the buffers, except that a unique level that is `nonordered`
//! (or a unique singleton below a `nonordered` level) finds duplicates by
//! comparing every pair within a segment: `O(k²)` for a segment of `k`
//! entries, the price of not allocating.
//!
//! # Example
//!
//! ```
//! use sparse_core::levels::{compressed, d0, d1, dense};
//! use sparse_core::{AssembleError, Buffer, Enc, Level, SparseTensor};
//!
//! type Csr = Enc<u8, u8, (dense, compressed), (d0, d1)>;
//!
//! // | 1 . 2 . . . . . |
//! // | . . . . . . . . |
//! // | . 3 . . . . . . |
//! // | . . 4 . . . . 5 |
//! let pos = [0, 2, 2, 3, 5];
//! let crd = [0, 2, 1, 2, 7];
//! let val = [1.0, 2.0, 3.0, 4.0, 5.0];
//! let a = SparseTensor::<f64, Csr, 2, 2>::assemble(
//!     [4, 8],
//!     [Level::dense(), Level::compressed(&pos, &crd)],
//!     &val,
//! )?;
//! assert_eq!(a.number_of_entries(), 5);
//!
//! // Column 8 does not exist.
//! let bad = [0, 2, 1, 2, 8];
//! let err = SparseTensor::<f64, Csr, 2, 2>::assemble(
//!     [4, 8],
//!     [Level::dense(), Level::compressed(&pos, &bad)],
//!     &val,
//! );
//! assert_eq!(
//!     err.err(),
//!     Some(AssembleError::CoordinateOutOfRange { level: 1, position: 4, coordinate: 8, size: 8 })
//! );
//! # let _ = Buffer::Values;
//! # Ok::<(), AssembleError>(())
//! ```

use core::marker::PhantomData;

use crate::encoding::Encoding;
use crate::error::{AssembleError, Buffer};
use crate::index::Index;
use crate::layout::{Layout, LevelInfo};
use crate::tensor::{Level, LevelStorage, SparseTensor};
use crate::value::{decode, Undecodable};
use crate::vocab::LevelFormat;
use order::{check_region_order, check_segment_order};

impl<'a, V, E: Encoding, const DIM: usize, const LVL: usize> SparseTensor<'a, V, E, DIM, LVL> {
    /// Assembles a tensor from its dimension sizes, the buffers of each
    /// level (see [`Level`] for which buffers each format takes) and the
    /// values, after checking every rule of the [module docs](crate::assemble).
    ///
    /// The buffers are borrowed, not copied: `'static` arrays in flash work.
    pub fn assemble(
        dim_sizes: [usize; DIM],
        levels: [Level<'a, E::Pos, E::Crd>; LVL],
        values: &'a [V],
    ) -> Result<Self, AssembleError> {
        let layout = Layout::<DIM, LVL>::decode::<E>();
        layout.check::<E>()?;
        let pattern = match decode::<V>(E::VALUES) {
            Ok(explicit) => explicit.is_some(),
            Err(Undecodable::Type(explicit)) => {
                return Err(AssembleError::ExplicitValueType { explicit })
            }
            Err(Undecodable::Invalid) => return Err(AssembleError::InvalidExplicitValue),
        };
        let mut tensor = build(&layout, dim_sizes, &levels, values);
        let mut counts = [0usize; LVL];
        let mut parent = 1usize;
        for l in 0..LVL {
            let count = check_level(&layout, &tensor, &levels, &counts, l, parent)?;
            if let Some(slot) = counts.get_mut(l) {
                *slot = count;
            }
            parent = count;
        }
        if pattern {
            if !values.is_empty() {
                return Err(AssembleError::PatternValues {
                    found: values.len(),
                });
            }
            tensor.entries = parent;
        } else if values.len() != parent {
            return Err(AssembleError::WrongLength {
                level: LVL.saturating_sub(1),
                buffer: Buffer::Values,
                expected: parent,
                found: values.len(),
            });
        }
        Ok(tensor)
    }

    /// Assembles a tensor without checking anything.
    ///
    /// Computes the same layout (level sizes, AoS strides and offsets) as
    /// [`assemble`](Self::assemble), so a tensor that `assemble` accepts is
    /// the same whichever constructor built it.
    ///
    /// # Safety
    ///
    /// The input must satisfy every rule [`assemble`](Self::assemble) checks
    /// (it would return `Ok`). Safe code built on `SparseTensor`, in
    /// particular generated kernels, may rely on those invariants to skip
    /// bounds checks, so violating them is undefined behaviour there. Use it
    /// for data already proven valid, e.g. produced by a kernel or checked
    /// when it was written to flash.
    pub unsafe fn assemble_unchecked(
        dim_sizes: [usize; DIM],
        levels: [Level<'a, E::Pos, E::Crd>; LVL],
        values: &'a [V],
    ) -> Self {
        let layout = Layout::decode::<E>();
        let mut tensor = build(&layout, dim_sizes, &levels, values);
        if E::is_pattern() {
            tensor.entries = count_entries(&layout, &tensor);
        }
        tensor
    }
}

/// The tensor the buffers describe under `layout`, unchecked: fused AoS
/// levels read their region start's buffer at their slot.
fn build<'a, V, E: Encoding, const DIM: usize, const LVL: usize>(
    layout: &Layout<DIM, LVL>,
    dim_sizes: [usize; DIM],
    levels: &[Level<'a, E::Pos, E::Crd>; LVL],
    values: &'a [V],
) -> SparseTensor<'a, V, E, DIM, LVL> {
    SparseTensor {
        dim_sizes,
        lvl_sizes: layout.lvl_sizes(&dim_sizes),
        levels: level_storage(layout, levels),
        values,
        entries: values.len(),
        encoding: PhantomData,
    }
}

/// The storage kernels read for each level of `levels` under `layout`:
/// fused AoS levels read their region start's buffer at their slot.
pub(crate) fn level_storage<'a, P: Copy, C: Copy, const DIM: usize, const LVL: usize>(
    layout: &Layout<DIM, LVL>,
    levels: &[Level<'a, P, C>; LVL],
) -> [LevelStorage<'a, P, C>; LVL] {
    let mut storage = [LevelStorage {
        positions: &[][..],
        coordinates: &[][..],
        crd_stride: 1,
        crd_offset: 0,
    }; LVL];
    for ((st, info), (l, given)) in storage
        .iter_mut()
        .zip(&layout.levels)
        .zip(levels.iter().enumerate())
    {
        let owner = l.checked_sub(info.offset).and_then(|s| levels.get(s));
        st.positions = given.positions;
        st.coordinates = owner.map_or(&[][..], |o| o.coordinates);
        st.crd_stride = info.stride;
        st.crd_offset = info.offset;
    }
    storage
}

/// The number of entries of the last level, read from the buffers without
/// judging them (for a pattern tensor, which has no values to count). On
/// buffers `assemble` accepts it is the count `assemble` finds.
fn count_entries<V, E: Encoding, const DIM: usize, const LVL: usize>(
    layout: &Layout<DIM, LVL>,
    tensor: &SparseTensor<'_, V, E, DIM, LVL>,
) -> usize {
    entries_per_level(layout, tensor)
        .last()
        .copied()
        .unwrap_or(1)
}

/// The number of entries of every level, read as
/// [`count_entries`] reads them.
pub(crate) fn entries_per_level<V, E: Encoding, const DIM: usize, const LVL: usize>(
    layout: &Layout<DIM, LVL>,
    tensor: &SparseTensor<'_, V, E, DIM, LVL>,
) -> [usize; LVL] {
    let mut counts = [0usize; LVL];
    let mut parent = 1usize;
    for (((info, st), &size), count) in layout
        .levels
        .iter()
        .zip(&tensor.levels)
        .zip(&tensor.lvl_sizes)
        .zip(counts.iter_mut())
    {
        parent = if info.is_dense() {
            parent.saturating_mul(size)
        } else {
            match info.ty.format {
                LevelFormat::Compressed => st
                    .positions
                    .get(parent)
                    .and_then(|p| p.to_usize())
                    .unwrap_or(0),
                LevelFormat::LooseCompressed => st.coordinates.len() / st.crd_stride.max(1),
                LevelFormat::Structured { n, .. } => parent.saturating_mul(usize::from(n)),
                _ => parent,
            }
        };
        *count = parent;
    }
    counts
}

/// Checks level `l` with `parent` entries above it; returns its number of
/// entries. `counts` holds the entry counts of the levels above.
fn check_level<V, E: Encoding, const DIM: usize, const LVL: usize>(
    layout: &Layout<DIM, LVL>,
    tensor: &SparseTensor<'_, V, E, DIM, LVL>,
    given: &[Level<'_, E::Pos, E::Crd>; LVL],
    counts: &[usize; LVL],
    l: usize,
    parent: usize,
) -> Result<usize, AssembleError> {
    let (Some(info), Some(given), Some(storage), Some(&size)) = (
        layout.levels.get(l),
        given.get(l),
        tensor.levels.get(l),
        tensor.lvl_sizes.get(l),
    ) else {
        return Err(AssembleError::InvalidEncoding { level: l });
    };
    let unexpected = |buffer| Err(AssembleError::UnexpectedBuffer { level: l, buffer });
    let positions_given = !given.positions.is_empty();
    if info.is_dense() || info.is_fused() {
        if positions_given {
            return unexpected(Buffer::Positions);
        }
        if !given.coordinates.is_empty() {
            return unexpected(Buffer::Coordinates);
        }
    }
    if info.is_dense() {
        return parent
            .checked_mul(size)
            .ok_or(AssembleError::TooLarge { level: l });
    }
    if size > 0 && (size - 1) as u64 > <E::Crd as Index>::MAX {
        return Err(AssembleError::WidthOverflow {
            level: l,
            buffer: Buffer::Coordinates,
            value: (size - 1) as u64,
            max: <E::Crd as Index>::MAX,
        });
    }
    let count = match info.ty.format {
        LevelFormat::Compressed | LevelFormat::LooseCompressed => {
            check_positions::<E::Pos, E::Crd>(info, given, l, parent)?
        }
        _ if positions_given => return unexpected(Buffer::Positions),
        LevelFormat::Structured { n, .. } => {
            let count = parent
                .checked_mul(usize::from(n))
                .ok_or(AssembleError::TooLarge { level: l })?;
            let elements = <E::Crd as Index>::elements(count);
            expect_len(l, Buffer::Coordinates, elements, given.coordinates.len())?;
            check_packing::<E::Crd>(l, count, given.coordinates)?;
            count
        }
        _ => {
            // A singleton: one entry per parent entry; a fused one's buffer
            // was measured with its region start.
            if !info.is_fused() {
                expect_len(l, Buffer::Coordinates, parent, given.coordinates.len())?;
            }
            parent
        }
    };
    check_coordinate_range(info, storage, l, count, size)?;
    if info.ty.format == LevelFormat::Singleton {
        check_region_order(layout, tensor, counts, l)
    } else {
        check_segment_order(info, storage, l, parent, size)
    }?;
    Ok(count)
}

fn expect_len(
    level: usize,
    buffer: Buffer,
    expected: usize,
    found: usize,
) -> Result<(), AssembleError> {
    if expected == found {
        Ok(())
    } else {
        Err(AssembleError::WrongLength {
            level,
            buffer,
            expected,
            found,
        })
    }
}

/// Checks a compressed or loose compressed level's positions; returns its
/// number of entries (coordinate tuples).
fn check_positions<P: Index, C>(
    info: &LevelInfo,
    given: &Level<'_, P, C>,
    l: usize,
    parent: usize,
) -> Result<usize, AssembleError> {
    let stride = info.stride.max(1);
    let crd_len = given.coordinates.len();
    let available = crd_len / stride;
    if available as u64 > P::MAX {
        return Err(AssembleError::WidthOverflow {
            level: l,
            buffer: Buffer::Positions,
            value: available as u64,
            max: P::MAX,
        });
    }
    let loose = info.ty.format == LevelFormat::LooseCompressed;
    let too_large = AssembleError::TooLarge { level: l };
    let expected = if loose {
        parent.checked_mul(2).ok_or(too_large)?
    } else {
        parent.checked_add(1).ok_or(too_large)?
    };
    expect_len(l, Buffer::Positions, expected, given.positions.len())?;
    let mut prev = 0usize;
    for (index, &p) in given.positions.iter().enumerate() {
        // The first position of a compressed level must be 0.
        let limit = if index == 0 && !loose { 0 } else { available };
        let position = match p.to_usize() {
            Some(v) if v <= limit => v,
            _ => {
                return Err(AssembleError::PositionOutOfRange {
                    level: l,
                    index,
                    position: p.to_u64(),
                    limit,
                })
            }
        };
        // Compressed: each position against the previous one; loose: each
        // `hi` against its `lo`.
        let compare = if loose { index % 2 == 1 } else { index > 0 };
        if compare && position < prev {
            return Err(AssembleError::NonMonotonePositions {
                level: l,
                index: index - 1,
            });
        }
        prev = position;
    }
    let entries = if loose { available } else { prev };
    // `entries <= available`, so the product stays within `crd_len`.
    expect_len(l, Buffer::Coordinates, entries * stride, crd_len)?;
    Ok(entries)
}

/// Packed coordinates (`crdWidth = 2`): the fields of the last element
/// past the `count` coordinates are 0, so one tensor has one byte image.
fn check_packing<C: Index>(l: usize, count: usize, coordinates: &[C]) -> Result<(), AssembleError> {
    let per = C::PER_ELEMENT;
    if per == 1 || count % per == 0 {
        return Ok(());
    }
    let spare = (count..C::elements(count).saturating_mul(per))
        .find(|&q| C::get_at(coordinates, q).is_some_and(|c| c != 0));
    match spare {
        Some(position) => Err(AssembleError::PackingPadding { level: l, position }),
        None => Ok(()),
    }
}

fn check_coordinate_range<P, C: Index>(
    info: &LevelInfo,
    storage: &LevelStorage<'_, P, C>,
    l: usize,
    count: usize,
    size: usize,
) -> Result<(), AssembleError> {
    for position in 0..count {
        let at = position
            .checked_mul(storage.crd_stride)
            .and_then(|i| i.checked_add(storage.crd_offset));
        // Widened to u64 (a u64 coordinate need not fit a 32-bit usize).
        let raw = if C::PER_ELEMENT > 1 {
            at.and_then(|i| C::get_at(storage.coordinates, i))
                .map(|c| c as u64)
        } else {
            at.and_then(|i| storage.coordinates.get(i))
                .map(|c| c.to_u64())
        };
        let Some(raw) = raw else {
            // Lengths were checked against `count` above; kept total anyway.
            return Err(AssembleError::WrongLength {
                level: l,
                buffer: Buffer::Coordinates,
                expected: count.saturating_mul(storage.crd_stride),
                found: storage.coordinates.len(),
            });
        };
        match info.coordinate(storage, position) {
            Some(c) if c < size => {}
            _ => {
                return Err(AssembleError::CoordinateOutOfRange {
                    level: l,
                    position,
                    coordinate: raw,
                    size,
                })
            }
        }
    }
    Ok(())
}

#[path = "assemble_order.rs"]
mod order;

#[cfg(test)]
#[path = "assemble_tests.rs"]
mod tests;
