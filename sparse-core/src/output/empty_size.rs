//! Whether the empty tensor of an output's sizes can exist in memory at
//! all: its dense levels and the positions below them are stored even when
//! nothing is inserted (a CSR of `m` rows holds `m + 1` positions), so a
//! size such as `[usize::MAX, 1]` asks for buffers no slice can hold. `new`
//! refuses those with [`AssembleError::TooLarge`] before allocating,
//! instead of growing towards all memory or reporting a saturated length.

use core::mem::size_of;

use crate::encoding::Encoding;
use crate::error::AssembleError;
use crate::index::Index;
use crate::layout::Layout;
use crate::vocab::LevelFormat;

/// Whether `n` elements of `elem` bytes each fit one allocation (Rust's
/// limit on any slice: `isize::MAX` bytes).
fn fits(n: usize, elem: usize) -> bool {
    n.checked_mul(elem.max(1))
        .is_some_and(|bytes| bytes <= isize::MAX as usize)
}

/// Checks that every buffer of the empty tensor of level sizes `lvl_sizes`
/// fits one allocation: the entries of the leading dense levels (their
/// product), the positions of the first compressed or loose level below
/// them, the slots of an n:m last level, and the values of an all-dense
/// tensor. Below a level with positions the empty tensor stores nothing.
pub(super) fn check_empty_size<V, E: Encoding, const DIM: usize, const LVL: usize>(
    layout: &Layout<DIM, LVL>,
    lvl_sizes: &[usize; LVL],
) -> Result<(), AssembleError> {
    // Entries of the level above in the empty tensor.
    let mut parents = 1usize;
    for (l, info) in layout.levels.iter().enumerate() {
        let too_large = AssembleError::TooLarge { level: l };
        let size = lvl_sizes.get(l).copied().unwrap_or(0);
        match info.ty.format {
            LevelFormat::Compressed | LevelFormat::LooseCompressed => {
                let n = if info.ty.format == LevelFormat::Compressed {
                    parents.checked_add(1)
                } else {
                    parents.checked_mul(2)
                };
                return match n {
                    Some(n) if fits(n, size_of::<E::Pos>()) => Ok(()),
                    _ => Err(too_large),
                };
            }
            LevelFormat::Structured { n, .. } => {
                let slots = parents.checked_mul(usize::from(n)).ok_or(too_large)?;
                let crd = <E::Crd as Index>::elements(slots);
                if !fits(crd, size_of::<E::Crd>()) || !fits(slots, size_of::<V>()) {
                    return Err(too_large);
                }
                return Ok(());
            }
            LevelFormat::Singleton => {
                let crd = <E::Crd as Index>::elements(parents);
                if !fits(crd, size_of::<E::Crd>()) {
                    return Err(too_large);
                }
            }
            LevelFormat::Dense | LevelFormat::Batch => {
                parents = parents.checked_mul(size).ok_or(too_large)?;
            }
        }
    }
    if fits(parents, size_of::<V>()) {
        Ok(())
    } else {
        Err(AssembleError::TooLarge {
            level: LVL.saturating_sub(1),
        })
    }
}
