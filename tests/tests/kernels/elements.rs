//! Element types beyond the primitives: `complex<f32>`/`complex<f64>`
//! (sparse-core feature `complex`) and `f16`/`bf16` (feature `half`) in
//! tensor types, kernels, semiring regions, constants, printing and files,
//! against dense references (complex exactly, half precision against a
//! widened reference within its rounding bound).

mod complex;
mod complex_regions;
mod constants;
mod files;
mod half;
mod math;
mod mlir_complex;
