//! The guide: one chapter per module, to read in this order.
//!
//! - [`encodings`]: MLIR encodings and the buffers each stores (CSR, CSC,
//!   DCSR, COO, BSR, 2:4), with `assemble` on each;
//! - [`kernel_language`]: what a kernel means — sum scopes, `=` and `+=`,
//!   statement order, which zeros are stored, semiring regions, block and
//!   2:4 operands, integer arithmetic, the compiler's limits;
//! - [`constants`]: compile-time constants in flash (`static W:
//!   tensor<...> = sparse<...>;`), checked when the crate builds;
//! - [`outputs`]: sparse outputs — the buffer families (`Slices`,
//!   `Fixed<N>`, `Owned`), how large each buffer must be, capacity errors
//!   and retrying, workspaces;
//! - [`firmware`]: using the crate on a microcontroller — the template to
//!   start from, features, constants in flash, no heap, no panics, stack,
//!   `defmt`, spy plots over a serial line;
//! - [`slices`]: zero-copy slices of a tensor (`extract_slice`) and
//!   kernels over sliced operands (`#sparse_tensor<slice(..)>`);
//! - [`parallel`]: `#[parallel]` kernels on every core (feature `rayon`):
//!   what runs in parallel, how the work is split, identical results;
//! - [`performance`]: what makes a kernel fast or slow, with measured
//!   numbers and how to reproduce them;
//! - [`diagnostics`]: every compile error the macro reports, with the test
//!   that pins it, and how to read a type error at a kernel's call.
//!
//! The chapters are modules only so that rustdoc renders them; they hold
//! no items.

#[doc = include_str!("../docs/encodings.md")]
pub mod encodings {}
#[doc = include_str!("../docs/kernel-language.md")]
pub mod kernel_language {}
#[doc = include_str!("../docs/constants.md")]
pub mod constants {}
#[doc = include_str!("../docs/outputs.md")]
pub mod outputs {}
#[doc = include_str!("../docs/firmware.md")]
pub mod firmware {}
#[doc = include_str!("../docs/slices.md")]
pub mod slices {}
#[doc = include_str!("../docs/parallel.md")]
pub mod parallel {}
#[doc = include_str!("../docs/performance.md")]
pub mod performance {}
#[doc = include_str!("../docs/diagnostics.md")]
pub mod diagnostics {}
