//! A kernel compiled once per x86-64 vector extension: when a loop of the
//! kernel calls a vector routine of sparse-core (`dot_gather` under
//! `#[reassociate]`) or sums a dense loop in partial sums (`#[reassociate]`,
//! [`super::partial_sums`]: 8 independent lanes that LLVM vectorizes as
//! wide as the copy's features allow), the body becomes a closure that sparse-core's
//! `with_vector_isa` runs in a copy compiled for AVX-512, one for AVX2 or
//! the body as written, chosen at each call from the machine (detected
//! once with `std`, from the build's target features without). The
//! routine then inlines into each copy instead of being called per row,
//! which cost about 40 instructions a row (sparse-core's
//! `kernel/isa.rs`). On other architectures the body runs as written.
//!
//! Every copy computes the same bits: the routines define one order of
//! their sums for every path, and compiling for more features neither
//! fuses nor reorders float operations. The cost is code size: three
//! copies of the kernel on x86-64 with `std`, one elsewhere.

use super::StmtSchedule;

/// Whether the kernel whose statements run as `stmts` is compiled per
/// vector extension.
pub fn vector_isa(stmts: &[StmtSchedule]) -> bool {
    stmts
        .iter()
        .any(|s| !s.gather_dots.is_empty() || !s.partial_sums.is_empty())
}
