//! The `sparse_kernel!` macro. The compiler itself lives in the
//! `sparse-compiler` library so it can be tested, fuzzed and benchmarked
//! outside rustc; this crate only hands it the tokens.
#![deny(missing_docs)]

use proc_macro::TokenStream;

/// Compiles MLIR sparse tensor encodings, tensor types and kernels in
/// tensor index notation into Rust types and specialised loops.
///
/// Items, in MLIR syntax:
///
/// - `#NAME = #sparse_tensor.encoding<{ map = ..., posWidth = N, crdWidth = N }>`
///   becomes `pub type NAME<'a, V>`, a `sparse_core::SparseTensor` whose type
///   carries the encoding (so the same encoding written anywhere is the
///   same type, and CSR is not CSC), `pub type NAMEOut<V, B>`, the
///   `sparse_core::SparseTensorOut` kernels write sparse results into, and
///   `pub trait IsNAMEOut<V, B>`, implemented by `NAMEOut<V, B>` alone,
///   through which kernels take those outputs (so that passing another
///   output is an error naming the encoding in words);
/// - `type NAME = tensor<64x200xf32, #CSR>;` becomes `pub type NAME<'a>`,
///   the same storage type with the element type filled in;
/// - `type NAME = tensor<4x8xi32>;` becomes `pub type NAME = [[i32; 8]; 4];`;
/// - `pub fn spmv(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }`
///   becomes a function over those types returning
///   `Result<(), sparse_core::KernelError>`, whose body is the loop nest the
///   sparsifier chose (shown in its doc comment).
///
/// Every error in the block is reported with a span on the offending token,
/// and the valid items are still defined.
#[proc_macro]
pub fn sparse_kernel(input: TokenStream) -> TokenStream {
    sparse_compiler::expand(input.into()).into()
}
