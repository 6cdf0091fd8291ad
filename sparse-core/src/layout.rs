//! The storage layout an encoding implies: decoded level types, level sizes,
//! COO regions (AoS strides and offsets) and the lvl→dim inverse map.
//!
//! One computation serves [`assemble`](crate::SparseTensor::assemble) (after
//! [`Layout::check`] accepted the encoding),
//! [`assemble_unchecked`](crate::SparseTensor::assemble_unchecked), iteration
//! and printing, so the checked and the unchecked constructor cannot disagree
//! about where a level's coordinates live. Decoding never fails and never
//! panics, even for a forged `Enc`: whatever is not valid decodes to
//! something harmless (a dense level, a missing dimension), and only
//! [`Layout::check`] says so.

use crate::encoding::Encoding;
use crate::error::AssembleError;
use crate::index::Index;
use crate::tensor::LevelStorage;
use crate::vocab::{coordinate_slot, parent_range, LevelExpr, LevelFormat, LevelType, MAX_RANK};

/// How a dimension coordinate is recovered from level coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DimSource {
    /// From the level whose expression is the plain dimension.
    Level(usize),
    /// `outer * block + inner`, from a `floordiv`/`mod` pair.
    Block {
        outer: usize,
        inner: usize,
        block: usize,
    },
    /// No level recovers it (an invalid encoding).
    Missing,
}

/// One decoded level.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LevelInfo {
    pub(crate) ty: LevelType,
    pub(crate) expr: LevelExpr,
    /// Distance between consecutive entries in the coordinate buffer.
    pub(crate) stride: usize,
    /// This level's slot in an AoS tuple; non-zero only for fused singletons.
    pub(crate) offset: usize,
    /// For a singleton level, the nearest non-singleton ancestor (the start
    /// of its COO region, whose segments order the region's tuples); for
    /// every other level, the level itself.
    pub(crate) region_start: usize,
}

impl LevelInfo {
    const DENSE: LevelInfo = LevelInfo {
        ty: LevelType::new(LevelFormat::Dense),
        expr: LevelExpr::Dim(0),
        stride: 1,
        offset: 0,
        region_start: 0,
    };

    /// Dense, batch and counting levels: every coordinate stored, no buffers.
    pub(crate) fn is_dense(&self) -> bool {
        self.ty.is_dense() || matches!(self.expr, LevelExpr::Counting { .. })
    }
    /// A singleton fused into its COO region's AoS buffer: owns no buffer.
    pub(crate) fn is_fused(&self) -> bool {
        self.offset > 0
    }
    /// Reads coordinates (its own buffer or a slot of the AoS buffer).
    pub(crate) fn has_coordinates(&self) -> bool {
        !self.is_dense()
    }
}

/// The decoded encoding of a `DIM`-dimensional, `LVL`-level tensor.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Layout<const DIM: usize, const LVL: usize> {
    pub(crate) levels: [LevelInfo; LVL],
    pub(crate) dims: [DimSource; DIM],
}

impl<const DIM: usize, const LVL: usize> Layout<DIM, LVL> {
    /// Decodes `E` without judging it.
    pub(crate) fn decode<E: Encoding>() -> Self {
        let mut levels = [LevelInfo::DENSE; LVL];
        for (l, info) in levels.iter_mut().enumerate() {
            info.ty = E::level_type(l).unwrap_or(LevelInfo::DENSE.ty);
            info.expr = E::level_expr(l);
            info.region_start = l;
        }
        mark_coo_regions(&mut levels);
        let mut dims = [DimSource::Missing; DIM];
        for (d, source) in dims.iter_mut().enumerate() {
            *source = dim_source(&levels, d);
        }
        Layout { levels, dims }
    }

    /// Checks that `E`'s codes form a valid encoding of this rank (see the
    /// rules in [`crate::assemble`]).
    pub(crate) fn check<E: Encoding>(&self) -> Result<(), AssembleError> {
        if LVL > MAX_RANK || DIM > MAX_RANK {
            return Err(AssembleError::InvalidEncoding { level: MAX_RANK });
        }
        if E::LEVELS != LVL {
            return Err(AssembleError::InvalidEncoding {
                level: E::LEVELS.min(LVL),
            });
        }
        for (l, info) in self.levels.iter().enumerate() {
            let bad = Err(AssembleError::InvalidEncoding { level: l });
            let Some(ty) = E::level_type(l) else {
                return bad;
            };
            if info.expr.dim() >= DIM {
                return bad;
            }
            let constant_ok = match info.expr {
                LevelExpr::Dim(_) => true,
                LevelExpr::FloorDiv { divisor: k, .. }
                | LevelExpr::Mod { modulus: k, .. }
                | LevelExpr::Counting { slices: k, .. } => k >= 1,
            };
            if !constant_ok {
                return bad;
            }
            // A counting level only enumerates slices: it must be dense.
            if matches!(info.expr, LevelExpr::Counting { .. }) && !ty.is_dense() {
                return bad;
            }
            // Packed coordinates (`crdWidth = 2`) only for n:m levels, whose
            // coordinates nothing reads but through `Index::get_at`;
            // positions are never packed.
            let packed_crd = <E::Crd as crate::index::Index>::PER_ELEMENT > 1;
            let packed_pos = <E::Pos as crate::index::Index>::PER_ELEMENT > 1;
            let structured = matches!(ty.format, LevelFormat::Structured { .. });
            if packed_pos || (packed_crd && ty.has_coordinates() && !structured) {
                return bad;
            }
            match ty.format {
                LevelFormat::Singleton => {
                    let parent_has_coordinates = l
                        .checked_sub(1)
                        .and_then(|p| self.levels.get(p))
                        .is_some_and(LevelInfo::has_coordinates);
                    if !parent_has_coordinates {
                        return bad;
                    }
                }
                // MLIR's rule: an n:m level stores `d mod m`, 1 <= n <= m.
                LevelFormat::Structured { n, m } => {
                    let is_mod_m = matches!(info.expr,
                        LevelExpr::Mod { modulus, .. } if modulus == u32::from(m));
                    if n == 0 || n > m || !is_mod_m {
                        return bad;
                    }
                }
                _ => {}
            }
        }
        for (d, source) in self.dims.iter().enumerate() {
            if let Some(level) = self.misread(d, *source) {
                return Err(AssembleError::InvalidEncoding { level });
            }
        }
        Ok(())
    }

    /// The level that keeps dimension `d` from being recovered exactly once
    /// (a plain level, or one floordiv/mod pair; counting levels aside): a
    /// second reader, or for a dimension nobody recovers its first reader,
    /// or `d` itself if no level reads it.
    fn misread(&self, d: usize, source: DimSource) -> Option<usize> {
        let mut readers =
            self.levels.iter().enumerate().filter(|(_, i)| {
                i.expr.dim() == d && !matches!(i.expr, LevelExpr::Counting { .. })
            });
        match source {
            DimSource::Level(l) => readers.find(|&(r, _)| r != l).map(|(r, _)| r),
            DimSource::Block { outer, inner, .. } => readers
                .find(|&(r, _)| r != outer && r != inner)
                .map(|(r, _)| r),
            DimSource::Missing => Some(readers.next().map_or(d, |(r, _)| r)),
        }
    }

    /// The level sizes for these dimension sizes. Total for every input:
    /// a missing dimension or a zero divisor (both rejected by
    /// [`Layout::check`]) give size 0.
    pub(crate) fn lvl_sizes(&self, dim_sizes: &[usize; DIM]) -> [usize; LVL] {
        let mut sizes = [0; LVL];
        for (size, info) in sizes.iter_mut().zip(&self.levels) {
            let dim = dim_sizes.get(info.expr.dim()).copied().unwrap_or(0);
            *size = match info.expr {
                LevelExpr::Dim(_) => dim,
                LevelExpr::FloorDiv { divisor, .. } => match usize::try_from(divisor) {
                    Ok(b) if b > 0 => dim.div_ceil(b),
                    _ => 0,
                },
                LevelExpr::Mod { modulus: k, .. } | LevelExpr::Counting { slices: k, .. } => {
                    usize::try_from(k).unwrap_or(0)
                }
            };
        }
        sizes
    }

    /// MLIR's `crd_translate lvl_to_dim`. A coordinate whose block
    /// arithmetic overflows saturates to `usize::MAX` (outside every
    /// dimension); a missing dimension gives 0.
    pub(crate) fn lvl_to_dim(&self, lvl: &[usize; LVL]) -> [usize; DIM] {
        let at = |l: usize| lvl.get(l).copied().unwrap_or(0);
        let mut dim = [0; DIM];
        for (c, source) in dim.iter_mut().zip(&self.dims) {
            *c = match *source {
                DimSource::Level(l) => at(l),
                DimSource::Block {
                    outer,
                    inner,
                    block,
                } => at(outer)
                    .checked_mul(block)
                    .and_then(|o| o.checked_add(at(inner)))
                    .unwrap_or(usize::MAX),
                DimSource::Missing => 0,
            };
        }
        dim
    }

    /// MLIR's `crd_translate dim_to_lvl`; counting levels give 0.
    pub(crate) fn dim_to_lvl(&self, dim: &[usize; DIM]) -> [usize; LVL] {
        let mut lvl = [0; LVL];
        for (c, info) in lvl.iter_mut().zip(&self.levels) {
            let x = dim.get(info.expr.dim()).copied().unwrap_or(0);
            let k = |k: u32| usize::try_from(k).unwrap_or(0);
            *c = match info.expr {
                LevelExpr::Dim(_) => x,
                LevelExpr::FloorDiv { divisor, .. } => x.checked_div(k(divisor)).unwrap_or(0),
                LevelExpr::Mod { modulus, .. } => x.checked_rem(k(modulus)).unwrap_or(0),
                LevelExpr::Counting { .. } => 0,
            };
        }
        lvl
    }
}

/// Sets strides, offsets and region starts: AoS COO slots by the one
/// storage rule ([`coordinate_slot`]); every singleton orders its tuples
/// within the segments of its nearest non-singleton ancestor.
fn mark_coo_regions<const LVL: usize>(levels: &mut [LevelInfo; LVL]) {
    let types = levels.map(|i| i.ty);
    let mut start = 0;
    for (l, info) in levels.iter_mut().enumerate() {
        let slot = coordinate_slot(&types, l);
        info.stride = slot.stride;
        info.offset = slot.offset;
        if info.ty.format == LevelFormat::Singleton && !info.is_dense() {
            info.region_start = start;
        } else {
            start = l;
        }
    }
}

/// Which levels give back dimension `d`: a plain level, else a
/// floordiv/mod pair with the same block size.
fn dim_source<const LVL: usize>(levels: &[LevelInfo; LVL], d: usize) -> DimSource {
    let find = |pred: &dyn Fn(LevelExpr) -> bool| levels.iter().position(|i| pred(i.expr));
    if let Some(l) = find(&|e| e == LevelExpr::Dim(d as u8) && d < MAX_RANK) {
        return DimSource::Level(l);
    }
    for (outer, info) in levels.iter().enumerate() {
        let LevelExpr::FloorDiv { dim, divisor } = info.expr else {
            continue;
        };
        if usize::from(dim) != d {
            continue;
        }
        let inner = find(&|e| {
            e == LevelExpr::Mod {
                dim,
                modulus: divisor,
            }
        });
        match (inner, usize::try_from(divisor)) {
            (Some(inner), Ok(block)) if block > 0 => {
                return DimSource::Block {
                    outer,
                    inner,
                    block,
                }
            }
            _ => {}
        }
    }
    DimSource::Missing
}

impl LevelInfo {
    /// The positions `[a, b)` level `l` stores under parent entry `parent`.
    /// `None` only where the buffers contradict the layout (never for an
    /// assembled tensor).
    pub(crate) fn segment<P: Index, C>(
        &self,
        storage: &LevelStorage<'_, P, C>,
        size: usize,
        parent: usize,
    ) -> Option<(usize, usize)> {
        // Counting levels are dense whatever their level type says.
        let format = if self.is_dense() {
            LevelFormat::Dense
        } else {
            self.ty.format
        };
        parent_range(format, size).resolve(parent, |i| storage.positions.get(i)?.to_usize())
    }

    /// The stored coordinate of the entry at position `q` (levels with
    /// coordinates only); `None` past the buffer or if it does not fit `usize`.
    pub(crate) fn coordinate<P, C: Index>(
        &self,
        storage: &LevelStorage<'_, P, C>,
        q: usize,
    ) -> Option<usize> {
        let at = q
            .checked_mul(storage.crd_stride)?
            .checked_add(storage.crd_offset)?;
        C::get_at(storage.coordinates, at)
    }
}
