//! Sparse tensor storage for the `sparse_kernel!` compiler: the MLIR
//! `sparse_tensor` storage scheme (per-level positions and coordinates of
//! fixed widths, then values) over borrowed slices, `no_std`.
//!
//! The guide, one chapter per module:
//!
//! - [`encodings`]: MLIR encodings and the buffers each stores (CSR, CSC,
//!   DCSR, COO, BSR, 2:4), with `assemble` on each;
//! - [`kernel_language`]: what a kernel means — sum scopes, `=` and `+=`,
//!   statement order, which zeros are stored, semiring regions, block and
//!   2:4 operands, integer arithmetic, the compiler's limits;
//! - [`constants`]: compile-time constants in flash (`static W:
//!   tensor<...> = sparse<...>;`), checked when the crate builds;
//! - [`diagnostics`]: every compile error the macro reports, with the test
//!   that pins it, and how to read a type error at a kernel's call;
//! - [`outputs`]: sparse outputs — the buffer families (`Slices`,
//!   `Fixed<N>`, `Owned`), how large each buffer must be, capacity errors
//!   and retrying, workspaces;
//! - [`firmware`]: using the crate on a microcontroller — features,
//!   constants in flash, no heap, no panics, stack, `defmt`, and the
//!   firmware crates to start from;
//! - [`slices`]: zero-copy slices of a tensor (`extract_slice`) and
//!   kernels over sliced operands (`#sparse_tensor<slice(..)>`);
//! - [`parallel`]: `#[parallel]` kernels on every core (feature `rayon`):
//!   what runs in parallel, how the work is split, identical results;
//! - [`performance`]: what makes a kernel fast or slow, with measured
//!   numbers and how to reproduce them.
//!
//! At run time, [`convert`] converts between encodings (and dense arrays)
//! without an allocator; with `std`, `io` reads and writes Matrix Market
//! and FROSTT files.
#![no_std]
#![deny(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod assemble;
mod constant;
#[doc = include_str!("../docs/constants.md")]
pub mod constants {}
pub mod convert;
mod debug;
#[doc = include_str!("../docs/diagnostics.md")]
pub mod diagnostics {}
mod dense;
mod elem;
#[doc = include_str!("../docs/encodings.md")]
pub mod encodings {}
#[doc = include_str!("../docs/kernel-language.md")]
pub mod kernel_language {}
#[doc = include_str!("../docs/outputs.md")]
pub mod outputs {}
#[doc = include_str!("../docs/firmware.md")]
pub mod firmware {}
#[doc = include_str!("../docs/performance.md")]
pub mod performance {}
#[doc = include_str!("../docs/slices.md")]
pub mod slices {}
#[doc = include_str!("../docs/parallel.md")]
pub mod parallel {
    #[cfg(feature = "rayon")]
    pub use crate::kernel::par::{set_work_limits, work_limits};
    pub use crate::kernel::par::{MIN_CHUNK_WORK, SEQUENTIAL_BELOW};
}
mod encoding;
mod error;
mod foreach;
mod index;
#[cfg(any(feature = "sprs", feature = "nalgebra-sparse"))]
pub mod interop;
#[cfg(feature = "std")]
pub mod io;
mod kernel;
mod layout;
pub mod levels;
#[doc(hidden)]
pub mod math;
pub mod output;
mod print;
mod slice;
mod tensor;
mod value;
/// The `half` crate, whose `f16`/`bf16` are the `f16`/`bf16` elements.
#[cfg(feature = "half")]
pub use half;
/// The `num_complex` crate, whose `Complex<f32>`/`Complex<f64>` are the
/// `complex<f32>`/`complex<f64>` elements.
#[cfg(feature = "complex")]
pub use num_complex;
#[doc(inline)]
pub use sparse_vocab as vocab;

pub use debug::EncodingText;
pub use dense::{DenseView, DenseViewMut};
pub use encoding::{Enc, Encoding};
pub use error::{AssembleError, Buffer, CapacityError};
pub use index::{Index, Packed2};
pub use kernel::KernelError;
#[cfg(feature = "heapless")]
pub use output::Fixed;
#[cfg(feature = "alloc")]
pub use output::Owned;
pub use output::{
    Buffer as OutputBuffer, OutputBuffers, SliceBuffer, Slices, SparseTensorOut, Workspace,
};
pub use slice::{SliceError, SliceParam, SliceView};
pub use tensor::{DisassembledLens, Level, LevelBuffersMut, LevelLens, LevelStorage, SparseTensor};

#[cfg(feature = "macros")]
pub use sparse_macros::sparse_kernel;

/// `#[parallel]` on a kernel needs the `rayon` feature: generated code
/// invokes this first, which is nothing with the feature and a compile
/// error at the attribute without it. Not public API.
#[cfg(feature = "rayon")]
#[doc(hidden)]
#[macro_export]
macro_rules! __sk_require_rayon {
    () => {};
}

/// `#[parallel]` on a kernel needs the `rayon` feature: generated code
/// invokes this first, which is nothing with the feature and a compile
/// error at the attribute without it. Not public API.
#[cfg(not(feature = "rayon"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __sk_require_rayon {
    () => {
        ::core::compile_error!(
            "`#[parallel]` needs sparse-core's `rayon` feature (std only): add \
             `features = [\"rayon\"]` to the `sparse-core` dependency, or remove \
             `#[parallel]` to run this kernel on one thread"
        );
    };
}

/// What generated code reaches through one path. Not public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::encoding::Enc;
    pub use crate::levels;
    // Compile-time constants (`static W: tensor<..> = sparse<..>;`).
    pub use crate::constant::{bytes, constant_level, constant_tensor};
    pub use crate::tensor::SparseTensor;
    // Kernels: unchecked loop accesses, no_std math, parameter and error types.
    pub use crate::dense::{DenseView, DenseViewMut};
    pub use crate::kernel::fma::MulAdd;
    pub use crate::kernel::rows::{rows, rows_values, slots};
    pub use crate::kernel::unchecked::{
        load, load_index, load_pair2, lower_bound, slot, walk, walk_values,
    };
    pub use crate::kernel::{
        convert_into, convert_same, convert_slice_into, dimension_error, dimension_mismatch,
        partial_block, reorder, reorder_slice, shape_mismatch, shapes_error, slice_mismatch,
        subscript_range, BlockSite, DimensionSite, KernelError, ShapeSite, ShapesSite, SliceSite,
        SubscriptSite,
    };
    pub use crate::math;
    // Elements beyond `core`'s primitives and the gates that name their
    // features.
    pub use crate::__sk_require_complex as require_complex;
    pub use crate::__sk_require_half as require_half;
    pub mod elem {
        //! The element types kernels name beyond `core`'s primitives.
        #[cfg(feature = "half")]
        pub use half::{bf16, f16};
        #[cfg(feature = "complex")]
        pub use num_complex::Complex;
    }
    pub use crate::slice::{SliceParam, SliceView};
    // Kernels marked `#[parallel]`: the chunked outer loop, and the gate
    // that makes the attribute a compile error without the `rayon` feature.
    pub use crate::__sk_require_rayon as require_rayon;
    pub use crate::kernel::par;
    // Sparse outputs.
    pub use crate::output::{InPlace, OutputBuffers, SparseTensorOut, Workspace};
}
