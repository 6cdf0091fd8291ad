//! `collapse_shape` and `expand_shape` of sparse tensors (MLIR's
//! `tensor.collapse_shape` / `tensor.expand_shape` on sparse operands) as
//! zero-copy views, where the result's encoding stores exactly the
//! source's buffers.
//!
//! Both operations relabel the row-major order of the elements:
//! collapsing dimensions `[i, j]` of sizes `[m, n]` gives the dimension
//! `i * n + j`, expanding is the inverse. Storage survives that relabeling
//! unchanged exactly when, level by level:
//!
//! - a **dense** level of the result covers, in order, the same
//!   dimensions (of size above 1) as a run of dense levels of the source —
//!   merging consecutive dense levels (or splitting one) changes no
//!   position: entry `(p * m + i) * n + j` is entry `p * (m n) + (i n +
//!   j)`;
//! - every **other** level (compressed, loose, singleton, n:m) reads one
//!   dimension whose coordinate the reshape keeps (its group's other
//!   dimensions have size 1; or all of them do, and it is 0), with the
//!   same level type, in the same order;
//! - dense levels of size 1 come and go freely (entry `p * 1 + 0` is `p`).
//!
//! That covers collapsing or splitting leading dense levels (a batch of
//! CSR matrices `(b, i : dense, j : compressed)` seen as one tall CSR,
//! a dense vector of rows seen as a matrix) and adding or removing unit
//! dimensions (`tensor<1x?xf64, #CSR>` ↔ `tensor<?xf64, #SV>` when the
//! unit dimension is a dense level). Anything else moves coordinates and
//! is [`ReshapeError::NotAView`]: convert instead
//! ([`convert::collapse_shape`](crate::convert::collapse_shape),
//! [`convert::expand_shape`](crate::convert::expand_shape),
//! [`convert::reshape`](crate::convert::reshape)), as MLIR does.
//!
//! The view is made by [`SparseTensor::assemble`] over the source's
//! buffers under the result's encoding: no copy, and the buffers are
//! re-checked against the new encoding (`O(nse)`, like
//! [`reinterpret_map`](SparseTensor::reinterpret_map)).

use core::fmt;

use crate::convert::ConvertError;
use crate::encoding::Encoding;
use crate::error::AssembleError;
use crate::tensor::{Level, SparseTensor};
use crate::vocab::{LevelExpr, LevelFormat, LevelType, MAX_RANK};

/// Why a reshape was refused. Nothing was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum ReshapeError {
    /// The reassociation is not a list of non-empty groups of consecutive
    /// dimensions covering the larger rank in order (`[[0, 1], [2]]`):
    /// group `group` is the first that is not.
    Reassociation {
        /// The first offending group (the number of groups if the groups
        /// end before the dimensions do).
        group: usize,
    },
    /// The sizes do not match: dimension `dim` of the smaller-rank side has
    /// size `size`, while its group's sizes multiply to `expected` (for a
    /// general reshape, `dim` is 0 and the sizes are element counts).
    Size {
        /// The dimension of the smaller-rank side.
        dim: usize,
        /// Its size.
        size: usize,
        /// The product of its group's sizes.
        expected: usize,
    },
    /// A product of sizes overflows `usize`.
    TooLarge,
    /// The result's encoding cannot reuse the source's storage: its level
    /// `level` has no counterpart (see the rules in
    /// [`crate::reshape`](self)). Convert instead.
    NotAView {
        /// The first level of the result that does not match.
        level: usize,
    },
    /// The source's buffers under the result's encoding were refused by
    /// `assemble` (only for encodings that are not valid).
    Assemble(AssembleError),
    /// The conversion of [`convert::reshape`](crate::convert::reshape) (or
    /// its collapse and expand forms) failed.
    Convert(ConvertError),
}

impl fmt::Display for ReshapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ReshapeError::Reassociation { group } => write!(
                f,
                "reassociation group {group} is not the next run of consecutive dimensions"
            ),
            ReshapeError::Size {
                dim,
                size,
                expected,
            } => write!(
                f,
                "dimension {dim} has size {size}, but its group's sizes multiply to {expected}"
            ),
            ReshapeError::TooLarge => f.write_str("a product of sizes overflows usize"),
            ReshapeError::NotAView { level } => write!(
                f,
                "level {level} of the result's encoding does not store the source's buffers \
                 unchanged; convert instead (convert::collapse_shape / expand_shape)"
            ),
            ReshapeError::Assemble(e) => write!(f, "the reshaped view is not valid: {e}"),
            ReshapeError::Convert(e) => write!(f, "the reshape conversion failed: {e}"),
        }
    }
}

impl core::error::Error for ReshapeError {}

/// Checks `groups` against the `high` sizes (the larger rank): consecutive,
/// non-empty, covering `0..high.len()` in order; returns each group's size
/// product (the smaller-rank sizes they imply).
pub(crate) fn group_sizes<const LOW: usize>(
    groups: &[&[usize]; LOW],
    high: &[usize],
) -> Result<[usize; LOW], ReshapeError> {
    let mut next = 0usize;
    let mut sizes = [0usize; LOW];
    for (g, (group, size)) in groups.iter().zip(sizes.iter_mut()).enumerate() {
        if group.is_empty() {
            return Err(ReshapeError::Reassociation { group: g });
        }
        let mut product = 1usize;
        for &d in group.iter() {
            if d != next {
                return Err(ReshapeError::Reassociation { group: g });
            }
            next += 1;
            let n = high
                .get(d)
                .copied()
                .ok_or(ReshapeError::Reassociation { group: g })?;
            product = product.checked_mul(n).ok_or(ReshapeError::TooLarge)?;
        }
        *size = product;
    }
    if next != high.len() {
        return Err(ReshapeError::Reassociation { group: LOW });
    }
    Ok(sizes)
}

/// One level of storage after reshaping, in terms of the larger-rank
/// ("high") dimensions: a dense level covering one high dimension, or a
/// level of any other type reading one (`None`: only dimensions of size
/// 1, whose coordinate is 0 on both sides).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Token {
    Dense(usize),
    Kept(LevelType, Option<usize>),
}

/// Where the tokens of one side come from.
struct Side<'g, 's> {
    /// Per dimension of this side, the high dimensions it covers.
    groups: Option<&'g [&'g [usize]]>,
    /// The high sizes.
    high: &'s [usize],
}

impl Side<'_, '_> {
    /// The high dimensions of size above 1 that dimension `d` of this side
    /// covers, in order, into `out`; returns how many.
    fn covers(&self, d: usize, out: &mut [usize; MAX_RANK]) -> Option<usize> {
        let single = [d];
        let dims: &[usize] = match self.groups {
            Some(groups) => groups.get(d)?,
            None => &single,
        };
        let mut k = 0;
        for &h in dims {
            if self.high.get(h).copied()? != 1 {
                *out.get_mut(k)? = h;
                k += 1;
            }
        }
        Some(k)
    }
}

/// The storage tokens of encoding `E` on `side`, with for each token the
/// level it comes from; `None` (with the level) if a level is not a plain
/// dimension or a non-dense level reads more than one high dimension
/// above size 1. Dense levels of size 1 give no token.
fn tokens<E: Encoding, const LVL: usize>(
    side: &Side<'_, '_>,
    lvl_sizes: &[usize; LVL],
    out: &mut [(Token, usize); MAX_RANK],
) -> Result<usize, usize> {
    let mut n = 0usize;
    for l in 0..LVL {
        let (LevelExpr::Dim(d), Some(ty)) = (E::level_expr(l), E::level_type(l)) else {
            return Err(l);
        };
        let mut covered = [0usize; MAX_RANK];
        let k = side.covers(usize::from(d), &mut covered).ok_or(l)?;
        let size = lvl_sizes.get(l).copied().unwrap_or(0);
        if ty.format == LevelFormat::Dense {
            if size == 1 {
                continue;
            }
            for &h in covered.get(..k).unwrap_or(&[]) {
                *out.get_mut(n).ok_or(l)? = (Token::Dense(h), l);
                n += 1;
            }
        } else {
            let h = match k {
                0 => None,
                1 => covered.first().copied(),
                _ => return Err(l),
            };
            *out.get_mut(n).ok_or(l)? = (Token::Kept(ty, h), l);
            n += 1;
        }
    }
    Ok(n)
}

/// Builds the view of `src` under `E2` with dimension sizes `dims`, when
/// the storage tokens of both sides agree.
#[allow(clippy::too_many_arguments)]
fn view<'a, V, E, E2, const DIM: usize, const LVL: usize, const D2: usize, const L2: usize>(
    src: &SparseTensor<'a, V, E, DIM, LVL>,
    dims: [usize; D2],
    src_side: Side<'_, '_>,
    dst_side: Side<'_, '_>,
) -> Result<SparseTensor<'a, V, E2, D2, L2>, ReshapeError>
where
    E: Encoding,
    E2: Encoding<Pos = E::Pos, Crd = E::Crd>,
{
    let not_a_view = |level| ReshapeError::NotAView { level };
    if E2::VALUES != E::VALUES || E2::LEVELS != L2 {
        return Err(not_a_view(0));
    }
    let dst_levels: [usize; L2] = {
        let layout = crate::layout::Layout::<D2, L2>::decode::<E2>();
        layout.lvl_sizes(&dims)
    };
    let mut a = [(Token::Dense(0), 0usize); MAX_RANK];
    let mut b = [(Token::Dense(0), 0usize); MAX_RANK];
    // A source level that is no plain dimension cannot be matched by any
    // result level: report the result's first.
    let na = tokens::<E, LVL>(&src_side, &src.lvl_sizes(), &mut a).map_err(|_| not_a_view(0))?;
    let nb = tokens::<E2, L2>(&dst_side, &dst_levels, &mut b).map_err(not_a_view)?;
    let (ta, tb) = (a.get(..na).unwrap_or(&[]), b.get(..nb).unwrap_or(&[]));
    for k in 0..na.max(nb) {
        match (ta.get(k), tb.get(k)) {
            (Some(x), Some(y)) if x.0 == y.0 => {}
            (_, Some(&(_, level))) => return Err(not_a_view(level)),
            _ => return Err(not_a_view(L2.saturating_sub(1))),
        }
    }
    // Each kept result level takes the buffers of the matching source level.
    let (_, src_levels, values) = src.disassemble();
    let mut levels = [Level::dense(); L2];
    for (&(token, from), &(_, to)) in ta.iter().zip(tb) {
        if let (Token::Kept(..), Some(slot), Some(level)) =
            (token, levels.get_mut(to), src_levels.get(from))
        {
            *slot = *level;
        }
    }
    SparseTensor::assemble(dims, levels, values).map_err(ReshapeError::Assemble)
}

impl<'a, V, E: Encoding, const DIM: usize, const LVL: usize> SparseTensor<'a, V, E, DIM, LVL> {
    /// MLIR's `tensor.collapse_shape` as a view: the same buffers seen as a
    /// `D2`-dimensional tensor of encoding `E2`, where result dimension `g`
    /// is the row-major combination of source dimensions `groups[g]`
    /// (`[&[0, 1], &[2]]` collapses the first two of three). The buffers
    /// are not copied; see the [module docs](crate::reshape) for when a
    /// view exists ([`ReshapeError::NotAView`] otherwise: use
    /// [`convert::collapse_shape`](crate::convert::collapse_shape)).
    ///
    /// ```
    /// use sparse_core::levels::{compressed, d0, d1, d2, dense};
    /// use sparse_core::{Enc, Level, SparseTensor};
    ///
    /// // Two 2x3 CSR matrices stacked on a dense batch level...
    /// type Batch = Enc<u8, u8, (dense, dense, compressed), (d0, d1, d2)>;
    /// // ...are one 4x3 CSR matrix.
    /// type Csr = Enc<u8, u8, (dense, compressed), (d0, d1)>;
    /// let pos = [0u8, 1, 1, 3, 3];
    /// let crd = [2u8, 0, 1];
    /// let t = SparseTensor::<f32, Batch, 3, 3>::assemble(
    ///     [2, 2, 3],
    ///     [Level::dense(), Level::dense(), Level::compressed(&pos, &crd)],
    ///     &[1.0, 2.0, 3.0],
    /// )?;
    /// let m: SparseTensor<'_, f32, Csr, 2, 2> = t.collapse_shape(&[&[0, 1], &[2]])?;
    /// assert_eq!(m.dim_sizes(), [4, 3]);
    /// let mut seen = Vec::new();
    /// m.for_each(|c, v| seen.push((c, *v)));
    /// assert_eq!(seen, [([0, 2], 1.0), ([2, 0], 2.0), ([2, 1], 3.0)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn collapse_shape<E2, const D2: usize, const L2: usize>(
        &self,
        groups: &[&[usize]; D2],
    ) -> Result<SparseTensor<'a, V, E2, D2, L2>, ReshapeError>
    where
        E2: Encoding<Pos = E::Pos, Crd = E::Crd>,
    {
        let high = self.dim_sizes();
        let dims = group_sizes(groups, &high)?;
        let src = Side {
            groups: None,
            high: &high,
        };
        let dst = Side {
            groups: Some(&groups[..]),
            high: &high,
        };
        view::<V, E, E2, DIM, LVL, D2, L2>(self, dims, src, dst)
    }

    /// MLIR's `tensor.expand_shape` as a view: the same buffers seen as a
    /// `D2`-dimensional tensor of encoding `E2` with dimension sizes
    /// `sizes`, where source dimension `d` splits row-major into result
    /// dimensions `groups[d]` (whose sizes must multiply to its size,
    /// [`ReshapeError::Size`]). No copy; [`ReshapeError::NotAView`] when
    /// the storage does not allow it (see the [module docs](crate::reshape);
    /// use [`convert::expand_shape`](crate::convert::expand_shape)).
    ///
    /// ```
    /// use sparse_core::levels::{compressed, d0, d1, dense};
    /// use sparse_core::{Enc, Level, SparseTensor};
    ///
    /// type Sv = Enc<u8, u8, (compressed,), (d0,)>;
    /// type Row = Enc<u8, u8, (dense, compressed), (d0, d1)>;
    /// let v = SparseTensor::<i32, Sv, 1, 1>::assemble([5], [Level::compressed(&[0, 2], &[1, 4])], &[7, 8])?;
    /// // A vector as a 1x5 matrix: a unit dense level adds no storage.
    /// let m: SparseTensor<'_, i32, Row, 2, 2> = v.expand_shape(&[&[0, 1]], [1, 5])?;
    /// assert_eq!(m.level(1).coordinates(), &[1, 4]);
    /// assert_eq!(m.level(1).positions(), &[0, 2]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn expand_shape<E2, const D2: usize, const L2: usize>(
        &self,
        groups: &[&[usize]; DIM],
        sizes: [usize; D2],
    ) -> Result<SparseTensor<'a, V, E2, D2, L2>, ReshapeError>
    where
        E2: Encoding<Pos = E::Pos, Crd = E::Crd>,
    {
        check_expand(groups, &self.dim_sizes(), &sizes)?;
        let src = Side {
            groups: Some(&groups[..]),
            high: &sizes,
        };
        let dst = Side {
            groups: None,
            high: &sizes,
        };
        view::<V, E, E2, DIM, LVL, D2, L2>(self, sizes, src, dst)
    }
}

/// Checks an expansion: `groups` covers the result's dimensions in order
/// and each group's sizes multiply to its source dimension's size.
pub(crate) fn check_expand<const LOW: usize>(
    groups: &[&[usize]; LOW],
    low: &[usize; LOW],
    high: &[usize],
) -> Result<(), ReshapeError> {
    let implied = group_sizes(groups, high)?;
    for (dim, (&size, &expected)) in low.iter().zip(&implied).enumerate() {
        if size != expected {
            return Err(ReshapeError::Size {
                dim,
                size,
                expected,
            });
        }
    }
    Ok(())
}
