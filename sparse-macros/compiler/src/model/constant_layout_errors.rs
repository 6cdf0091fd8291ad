//! The errors of a constant whose entries its encoding cannot hold, as
//! `constant_layout.rs` lays them out: coordinates wider than `crdWidth`,
//! too many entries in a `structured[n, m]` group, and where an entry read
//! from a file came from.

use proc_macro2::Span;

use super::constant::ConstContext;
use super::Encoding;
use crate::errors::Errors;
use crate::vocab::Width;

/// A level size whose coordinates do not fit `crdWidth` (a `?` size taken
/// from the value; static sizes are checked with the type).
pub(super) fn check_crd_width(
    enc: &Encoding,
    l: usize,
    d: usize,
    size: u64,
    ctx: &ConstContext,
    errors: &mut Errors,
) {
    let Some(largest) = size.checked_sub(1) else {
        return;
    };
    if largest > enc.crd_width.max_value() {
        errors.error(
            ctx.span,
            format!(
                "dimension {d} has size {} here, so level {l} needs coordinates up to {largest}, \
                 more than the {}-bit coordinates of `#{}` hold (at most {}); use a wider \
                 `crdWidth`",
                size,
                width_bits(enc.crd_width),
                enc.name,
                enc.crd_width.max_value()
            ),
        );
    }
}

pub(super) fn width_bits(width: Width) -> u32 {
    match width {
        Width::Native => usize::BITS,
        Width::W2 => 2,
        Width::W8 => 8,
        Width::W16 => 16,
        Width::W32 => 32,
        Width::W64 => 64,
    }
}

/// Where a constant's error points when no single token is to blame.
impl ConstContext {
    /// `" (line N)"` for an entry read from a file, `""` otherwise.
    pub(super) fn line(&self, origin: super::constant::Origin) -> String {
        match origin.line {
            0 => String::new(),
            n => format!(" ({}:{n})", self.file.as_deref().unwrap_or("file")),
        }
    }
}

/// Groups listed one by one before the rest are only counted: an unpruned
/// layer overflows nearly every group, and a page of near-identical errors
/// hides what to do.
const OVERFLOW_LISTED: usize = 3;

/// Rule: a `structured[n, m]` level holds at most `n` entries per group of
/// `m`. A few overflowing groups are one error each, at the entry that did
/// not fit; more are one error at the first, with the count, the first
/// groups and the fix (pruning).
pub(super) fn report_overflow(
    overflow: &[(Span, String)],
    level: &str,
    keep: u8,
    m: u8,
    errors: &mut Errors,
) {
    let rule = format!("{level} is `structured[{keep}, {m}]`: at most {keep} per group of {m}");
    if overflow.len() <= OVERFLOW_LISTED {
        for (span, group) in overflow {
            errors.error(*span, format!("{group}, but {rule}"));
        }
        return;
    }
    let Some((span, _)) = overflow.first() else {
        return;
    };
    let listed: Vec<&str> = overflow
        .iter()
        .take(OVERFLOW_LISTED)
        .map(|(_, g)| g.as_str())
        .collect();
    let fix = if (keep, m) == (2, 4) {
        "; prune the weights first: `prune_2_4(dense<...>)` keeps the two largest \
         magnitudes of each group"
    } else {
        "; prune the weights first"
    };
    errors.error(
        *span,
        format!(
            "{} groups hold more than {keep} entries, but {rule}; the first {OVERFLOW_LISTED}: \
             {}{fix}",
            overflow.len(),
            listed.join("; ")
        ),
    );
}
