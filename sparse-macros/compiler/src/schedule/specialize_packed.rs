//! Weights compiled into a packed stream (`#[specialize(w = W)]` over its
//! written-out budget): an int8 walk `r += w[.., j] as i32 * (x[j] as i32
//! [+ off])` over the last level of the constant `W`, which `dot_s8` would
//! sum from `W`'s arrays (`schedule::dual_mac`), instead reads a stream the
//! macro packs from `W`'s entries when it expands: per parent entry (a
//! row), its entries in groups of four, each group one word of `u8`
//! coordinates (two of `u16` when a coordinate is 256 or more), then the
//! weights as two words of `i16` pairs when the stream stays within the
//! bytes of the constant's dense form (ready for `SMLAD`: two instructions
//! fewer per group), one word of `i8` otherwise, the last group padded
//! with weight 0. One call to
//! sparse-core's `dot_s8_packed` sums a row; an offset is folded out as in
//! the written-out form (`off` times the row's weights summed, from a table
//! of one `i32` per row).
//!
//! The two forms trade code for speed on a Cortex-M4: written out, an
//! entry costs about 3 instructions and 10 bytes of code; packed, about
//! 3.75 instructions and 3 bytes of data with `i16` pairs (4.25 and 2
//! bytes with `i8` weights; one byte more with wide coordinates), plus a
//! few hundred bytes of code for the whole kernel. The budget
//! (`max_entries`) picks: up to it the loops are written out, above it the
//! walk is packed when it qualifies, and otherwise it reads `W`'s arrays.

use crate::plan::KernelPlan;
use crate::sparsifier::{Expr, LoopId, TensorId};
use crate::vocab::LevelFormat;

use super::DualMac;

/// A walk over the constant's last level summed from a packed stream.
#[derive(Clone, Debug, PartialEq)]
pub struct PackedWalk {
    /// The walk.
    pub loop_id: LoopId,
    /// The dense `i8` vector read at the walk's coordinates.
    pub input: TensorId,
    /// The loop-invariant term added to each input, folded per row.
    pub offset: Option<Expr>,
    /// Coordinates as `u16` (some coordinate is 256 or more).
    pub wide: bool,
    /// Weights as `i16` pairs (two words per group) rather than `i8`.
    pub pairs: bool,
    /// Words of the stream (groups of the rows, padding included).
    pub words: usize,
    /// Parent entries (rows): the stream's table has one more.
    pub rows: usize,
}

impl PackedWalk {
    /// Bytes of data the packed form adds: the stream, the row table
    /// (`u16` or `u32` per row, plus one) and, with an offset, the rows'
    /// weights summed (`i32` each).
    pub fn data_bytes(&self) -> usize {
        let start = if self.words <= usize::from(u16::MAX) {
            2
        } else {
            4
        };
        let sums = if self.offset.is_some() {
            4 * self.rows
        } else {
            0
        };
        4 * self.words + start * (self.rows + 1) + sums
    }
}

/// The walk among `dual_macs` that reads the specialized constant, packed,
/// when the statement's loops are not written out and the constant is an
/// `i8` matrix stored with its last level compressed (one position range
/// per parent entry).
pub fn packed_walk(kp: &KernelPlan, dual_macs: &[DualMac]) -> Option<PackedWalk> {
    let spec = kp.specialized.as_ref()?;
    let storage = spec.storage()?;
    let d = dual_macs.iter().find(|d| d.weights == spec.tensor)?;
    let info = kp.tensors.get(spec.tensor.index())?.as_ref()?;
    let last = info.levels.len().checked_sub(1)?;
    if info.levels[last].ty.format != LevelFormat::Compressed {
        return None;
    }
    let level = storage.levels.get(last)?;
    let rows = level.positions.len().checked_sub(1)?;
    let ints = storage
        .values
        .iter()
        .all(|v| matches!(v, crate::model::Scalar::Int(_)));
    if !ints || level.stride != 1 || level.offset != 0 {
        return None;
    }
    let wide = level.coordinates.iter().any(|&c| c > 255);
    if level.coordinates.iter().any(|&c| c > u64::from(u16::MAX)) {
        return None;
    }
    let groups: usize = level
        .positions
        .windows(2)
        .map(|p| usize::try_from(p[1].saturating_sub(p[0])).map_or(usize::MAX, |n| n.div_ceil(4)))
        .fold(0usize, usize::saturating_add);
    // `i16` pairs while the stream is no larger than the dense `i8` matrix.
    let coordinate_words = if wide { 2 } else { 1 };
    let dense: u64 = spec.constant.shape.iter().product();
    let pairs = (groups as u64).saturating_mul(4 * (coordinate_words + 2)) <= dense;
    let per_group = coordinate_words as usize + if pairs { 2 } else { 1 };
    Some(PackedWalk {
        loop_id: d.loop_id,
        input: d.input,
        offset: d.offset.clone(),
        wide,
        pairs,
        words: groups.saturating_mul(per_group),
        rows,
    })
}
