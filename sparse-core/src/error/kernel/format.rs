//! `defmt::Format` for [`KernelError`]: the same sentence as `Display`,
//! written with `defmt::write!` so that firmware logs read "dimension 0 of
//! `x` has size 63, but ..." instead of a struct dump, while the strings
//! stay interned on the host (no `core::fmt` on the device).
//!
//! Keep each arm's text identical to the `Display` arm in `error/kernel.rs`:
//! `tests/tests/first_hour.rs` cannot see defmt frames, but the QEMU
//! firmware's snapshot (`boards/qemu-mps2-an386/expected/`) pins one.

use super::KernelError;
use crate::error::Buffer;
use crate::slice::SliceParam;

fn buffer_name(b: Buffer) -> &'static str {
    match b {
        Buffer::Positions => "positions",
        Buffer::Coordinates => "coordinates",
        Buffer::Values => "values",
        Buffer::Workspace => "workspace",
    }
}

fn param_name(p: SliceParam) -> &'static str {
    match p {
        SliceParam::Offset => "offset",
        SliceParam::Size => "size",
        SliceParam::Stride => "stride",
    }
}

impl defmt::Format for KernelError {
    fn format(&self, f: defmt::Formatter<'_>) {
        match *self {
            KernelError::DimensionMismatch {
                tensor,
                dim,
                size,
                index,
                expected,
                bound_by,
                bound_dim,
            } => defmt::write!(
                f,
                "dimension {=usize} of `{=str}` has size {=usize}, but index `{=str}` has size {=usize} (from dimension {=usize} of `{=str}`)",
                dim,
                tensor,
                size,
                index,
                expected,
                bound_dim,
                bound_by
            ),
            KernelError::ShapeMismatch {
                tensor,
                dim,
                size,
                expected,
            } => defmt::write!(
                f,
                "dimension {=usize} of `{=str}` has size {=usize}, but its type declares {=usize}",
                dim,
                tensor,
                size,
                expected
            ),
            KernelError::ViewLength { len, expected } => match expected {
                Some(n) => defmt::write!(
                    f,
                    "a dense view over {=usize} elements needs exactly {=usize} (the product of its dimensions)",
                    len,
                    n
                ),
                None => defmt::write!(
                    f,
                    "a dense view over {=usize} elements has dimensions whose product overflows usize",
                    len
                ),
            },
            KernelError::PartialBlock {
                tensor,
                dim,
                size,
                block,
            } => defmt::write!(
                f,
                "dimension {=usize} of `{=str}` has size {=usize}, not a multiple of the block size {=usize} the kernel walks it in",
                dim,
                tensor,
                size,
                block
            ),
            KernelError::Capacity {
                tensor,
                level,
                buffer,
                needed,
                capacity,
            } if capacity == usize::MAX => defmt::write!(
                f,
                "output `{=str}`: could not allocate the {=usize} elements the {=str} buffer of level {=usize} needs",
                tensor,
                needed,
                buffer_name(buffer),
                level
            ),
            KernelError::Capacity {
                tensor,
                level,
                buffer,
                needed,
                capacity,
            } => defmt::write!(
                f,
                "output `{=str}`: the {=str} buffer of level {=usize} holds {=usize} but the result needs {=usize}",
                tensor,
                buffer_name(buffer),
                level,
                capacity,
                needed
            ),
            KernelError::PositionOverflow {
                tensor,
                level,
                entries,
                max,
            } => defmt::write!(
                f,
                "output `{=str}`: level {=usize} needs {=usize} entries, but its positions hold at most {=u64}; the encoding needs a wider `posWidth`",
                tensor,
                level,
                entries,
                max
            ),
            KernelError::InsertOutOfRange {
                tensor,
                level,
                coordinate,
                size,
            } => defmt::write!(
                f,
                "output `{=str}`: inserted coordinate {=usize} at level {=usize} is not below the level size {=usize}",
                tensor,
                coordinate,
                level,
                size
            ),
            KernelError::InsertOutOfOrder {
                tensor,
                insert,
                level,
            } => defmt::write!(
                f,
                "output `{=str}`: insertion {=usize} is not after the previous one in lexicographic order (level {=usize})",
                tensor,
                insert,
                level
            ),
            KernelError::GroupOverflow {
                tensor,
                level,
                group,
                coordinate,
                n,
                m,
            } => defmt::write!(
                f,
                "output `{=str}`: group {=usize} of level {=usize} (`structured[{=usize}, {=usize}]`) gets more than {=usize} entries (the first that does not fit is at coordinate {=usize} of the group); the result does not have the {=usize}:{=usize} pattern",
                tensor,
                group,
                level,
                n,
                m,
                n,
                coordinate,
                n,
                m
            ),
            // `ConvertError` has no sentence form over defmt of its own yet:
            // its variant follows the tensor's name.
            KernelError::Convert { tensor, error } => {
                defmt::write!(f, "converting into `{=str}`: {}", tensor, error)
            }
            KernelError::SubscriptRange {
                tensor,
                dim,
                subscript,
                min,
                max,
                size,
            } => defmt::write!(
                f,
                "the subscript `{=str}` of dimension {=usize} of `{=str}` ranges over {=i128}..={=i128}, outside the dimension's size {=usize}",
                subscript,
                dim,
                tensor,
                min,
                max,
                size
            ),
            KernelError::SliceMismatch {
                tensor,
                dim,
                param,
                found,
                expected,
            } => defmt::write!(
                f,
                "dimension {=usize} of `{=str}` is sliced with {=str} {=usize}, but its encoding declares {=usize}",
                dim,
                tensor,
                param_name(param),
                found,
                expected
            ),
        }
    }
}
