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
/// - `static W: tensor<3x4xf32, #CSR> = sparse<[[0, 0], [1, 2]], [1.0, 5.0]>;`
///   (or `= dense<[[...]]>`, `= file("weights.mtx")`, `= file("w.npy")`,
///   `= prune_2_4(..)`, `= prune_blocks(.., keep = 2)`, `= levels_of(V,
///   values = ..)` sharing `V`'s positions and coordinates, a bare scalar
///   `= 1.5`) becomes a `pub static W: CSR<'static, f32>` whose
///   buffers the macro laid out and checked at compile time: exact-size
///   `static` arrays in the encoding's widths, in flash on a
///   microcontroller, validated nowhere at run time;
/// - `pub fn spmv(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }`
///   becomes a function over those types returning
///   `Result<(), sparse_core::KernelError>`, whose body is the loop nest the
///   sparsifier chose (shown in its doc comment).
///
/// Every error in the block is reported with a span on the offending token,
/// and the valid items are still defined.
///
/// Use it through `sparse_core`, which re-exports it:
///
/// ```
/// use sparse_core::{sparse_kernel, Level};
///
/// sparse_kernel! {
///     #CSR = #sparse_tensor.encoding<{
///         map = (i, j) -> (i : dense, j : compressed),
///         posWidth = 16,
///         crdWidth = 8
///     }>
///
///     // A constant in flash, checked while the crate builds.
///     pub static W: tensor<3x4xf32, #CSR> = dense<[[1.0, 0.0, 0.0, 0.0],
///                                                  [0.0, 0.0, 5.0, 0.0],
///                                                  [0.0, 0.0, 0.0, -2.0]]>;
///
///     /// y = A x over the stored entries only.
///     pub fn spmv(a: &tensor<3x4xf32, #CSR>, x: &tensor<4xf32>, y: &mut tensor<3xf32>) {
///         y[i] = a[i, j] * x[j];
///     }
/// }
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let mut y = [0.0f32; 3];
/// spmv(&W, &[1.0, 2.0, 3.0, 4.0], &mut y)?;
/// assert_eq!(y, [1.0, 15.0, -8.0]);
///
/// // The same type over buffers assembled at run time (checked there).
/// static POS: [u16; 4] = [0, 1, 1, 2];
/// static CRD: [u8; 2] = [3, 0];
/// let b = CSR::<f32>::assemble([3, 4], [Level::dense(), Level::compressed(&POS, &CRD)], &[2.0, 1.0])?;
/// spmv(&b, &[1.0, 2.0, 3.0, 4.0], &mut y)?;
/// assert_eq!(y, [8.0, 0.0, 1.0]);
/// # Ok(())
/// # }
/// ```
#[proc_macro]
pub fn sparse_kernel(input: TokenStream) -> TokenStream {
    sparse_compiler::expand(input.into()).into()
}
