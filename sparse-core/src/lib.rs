//! Sparse tensor storage for the `sparse_kernel!` compiler: the MLIR
//! `sparse_tensor` storage scheme (per-level positions and coordinates of
//! fixed widths, then values) over borrowed slices, `no_std`.
//!
//! The language of `sparse_kernel!` — sum scopes, `=` and `+=`, statement
//! order, which zeros are stored, what `reduce` folds — is described in
//! [`kernel_language`]. See `docs/ARCHITECTURE.md` for the storage model
//! and why the encoding is part of the type.
#![no_std]
#![deny(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod assemble;
pub mod convert;
mod dense;
#[doc = include_str!("../docs/kernel-language.md")]
pub mod kernel_language {}
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
#[doc(hidden)]
pub mod math;
pub mod output;
mod print;
mod tensor;
mod value;
pub mod vocab;

pub use dense::{DenseView, DenseViewMut};
pub use encoding::{Enc, Encoding};
pub use error::{AssembleError, Buffer, CapacityError};
pub use index::Index;
pub use kernel::KernelError;
#[cfg(feature = "heapless")]
pub use output::Fixed;
#[cfg(feature = "alloc")]
pub use output::Owned;
pub use output::{
    Buffer as OutputBuffer, OutputBuffers, SliceBuffer, Slices, SparseTensorOut, Workspace,
};
pub use tensor::{DisassembledLens, Level, LevelBuffersMut, LevelLens, LevelStorage, SparseTensor};

#[cfg(feature = "macros")]
pub use sparse_macros::sparse_kernel;

/// What generated code reaches through one path. Not public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::encoding::Enc;
    pub use crate::tensor::SparseTensor;
    // Kernels: unchecked loop accesses, no_std math, parameter and error types.
    pub use crate::dense::{DenseView, DenseViewMut};
    pub use crate::kernel::unchecked::{load, load_index, slot, walk, walk_values};
    pub use crate::kernel::{
        dimension_mismatch, shape_mismatch, DimensionSite, KernelError, ShapeSite,
    };
    pub use crate::math;
    // Sparse outputs.
    pub use crate::output::{InPlace, OutputBuffers, SparseTensorOut, Workspace};
}
