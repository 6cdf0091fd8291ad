//! Sparse tensor storage and the runtime of the `sparse_kernel!` compiler:
//! the MLIR `sparse_tensor` storage scheme (per-level positions and
//! coordinates of fixed widths, then values) over borrowed slices, `no_std`.
//!
//! One block declares an encoding (MLIR syntax, pasted verbatim), a
//! constant that the macro lays out and checks at compile time (it sits in
//! flash as `static` arrays), and a kernel in tensor index notation that
//! expands to a loop nest over those arrays:
//!
//! ```
//! use sparse_core::{sparse_kernel, KernelError};
//!
//! sparse_kernel! {
//!     // CSR with 16-bit positions and 8-bit column coordinates.
//!     #CSR = #sparse_tensor.encoding<{
//!         map = (i, j) -> (i : dense, j : compressed),
//!         posWidth = 16,
//!         crdWidth = 8
//!     }>
//!
//!     // | 1 . . . |
//!     // | . . 5 . |
//!     // | . . . -2 |   built and checked while the crate compiles.
//!     pub static W: tensor<3x4xf32, #CSR> = sparse<[[0, 0], [1, 2], [2, 3]], [1.0, 5.0, -2.0]>;
//!
//!     /// y = W x
//!     pub fn spmv(a: &tensor<3x4xf32, #CSR>, x: &tensor<4xf32>, y: &mut tensor<3xf32>) {
//!         y[i] = a[i, j] * x[j];
//!     }
//! }
//!
//! fn main() -> Result<(), KernelError> {
//!     let mut y = [0.0f32; 3];
//!     spmv(&W, &[1.0, 2.0, 3.0, 4.0], &mut y)?;
//!     assert_eq!(y, [1.0, 15.0, -8.0]);
//!     // The storage MLIR would print for `W`, read straight from flash.
//!     assert_eq!(W.number_of_entries(), 3);
//!     assert_eq!(W.values(), &[1.0, 5.0, -2.0]);
//!     Ok(())
//! }
//! ```
//!
//! Tensors built at run time borrow your buffers through the same type
//! (`CSR::<f32>::assemble(..)`, see [`guide::encodings`]); kernels writing
//! sparse results take a [`SparseTensorOut`] over caller storage (see
//! [`guide::outputs`]).
//!
//! The [`guide`] is a set of chapters: encodings, the kernel language,
//! constants, sparse outputs, firmware, slices, parallel kernels,
//! performance and every diagnostic. The other modules are the API:
//! [`assemble`], [`convert`], [`levels`], [`output`], [`reshape`], [`spy`], `io` (feature
//! `std`), `interop` (features `sprs`, `nalgebra-sparse`) and [`parallel`].
//!
//! At run time, [`convert`] converts between encodings (and dense arrays)
//! without an allocator, concatenates, reshapes and sorts; [`reshape`]
//! has the zero-copy reshapes; with `std`, `io` reads and writes Matrix
//! Market and FROSTT files.
//!
//! # Features
//!
//! | feature | adds |
//! | --- | --- |
//! | `macros` (default) | `sparse_kernel!` |
//! | `alloc` | `Owned` sparse outputs over `Vec` |
//! | `std` | `alloc`, Matrix Market / FROSTT files (`io`), exact float math, SVG spy plots |
//! | `heapless` | `Fixed<N>` sparse outputs over `heapless::Vec` |
//! | `defmt` | `defmt::Format` for tensors and errors |
//! | `micromath` | `sqrt`, `exp`, ... of `f32` in kernels without `std` |
//! | `libm` | `#[fma]` kernels without `std` (software `fmaf`) |
//! | `rayon` | `#[parallel]` kernels (implies `std`) |
//! | `sprs`, `nalgebra-sparse` | zero-copy views of those libraries' matrices (`interop`) |
#![no_std]
#![deny(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod assemble;
mod assemble_capacity;
mod constant;
pub mod convert;
mod debug;
mod dense;
mod elem;
pub mod guide;
/// The tuning knobs of `#[parallel]` kernels (feature `rayon`); the chapter
/// is [`guide::parallel`].
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
pub mod quant;
pub mod reshape;
#[cfg(feature = "alloc")]
pub mod sell;
mod slice;
pub mod spy;
mod tensor;
#[cfg(test)]
mod testing;
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
pub use encoding::{Enc, Encoding, StoresValues};
pub use error::{AssembleError, Buffer, CapacityError, KernelError};
pub use index::{Index, Packed2};
#[cfg(feature = "heapless")]
pub use output::Fixed;
#[cfg(feature = "alloc")]
pub use output::Owned;
pub use output::{
    Buffer as OutputBuffer, OutputBuffers, OutputBuilder, SliceBuffer, Slices, SparseTensorOut,
    Workspace,
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
    pub use crate::constant::{bytes, constant_level, constant_sharing, constant_tensor};
    pub use crate::tensor::SparseTensor;
    // Kernels: unchecked loop accesses, no_std math, parameter and error types.
    pub use crate::dense::{DenseView, DenseViewMut};
    pub use crate::error::KernelError;
    pub use crate::kernel::dual_mac::dot_s8;
    pub use crate::kernel::dual_mac_2_4::dot_s8_2_4;
    pub use crate::kernel::fma::MulAdd;
    pub use crate::kernel::gather_dot::{dot_gather, dot_gather_increasing};
    pub use crate::kernel::isa::{with_vector_isa, VectorIsa};
    pub use crate::kernel::packed_s8::dot_s8_packed;
    pub use crate::kernel::rows::{rows, rows_from, rows_values, rows_values_from, slots};
    pub use crate::kernel::unchecked::{
        load, load_index, load_pair2, lower_bound, next_window, slot, walk, walk_values,
    };
    pub use crate::kernel::{
        convert_into, convert_same, convert_slice_into, dimension_error, dimension_mismatch,
        partial_block, reorder, reorder_slice, shape_mismatch, shapes_error, slice_mismatch,
        subscript_range, BlockSite, DimensionSite, ShapeSite, ShapesSite, SliceSite, SubscriptSite,
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
    pub use crate::output::{InPlace, OutputBuffers, OutputProtocol, SparseTensorOut, Workspace};
}
