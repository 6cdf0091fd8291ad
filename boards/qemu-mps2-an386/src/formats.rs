//! The encodings under test, written as a user writes them: MLIR encodings
//! in `sparse_kernel!`, which expands each `#NAME` into
//! `pub type NAME<'a, V> = SparseTensor<'a, V, Enc<..>, DIM, LVL>` and each
//! `type NAME = tensor<..>;` into that storage type with `V` filled in.

sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed),
        posWidth = 16,
        crdWidth = 8
    }>

    #CSR8 = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed),
        posWidth = 8,
        crdWidth = 8
    }>

    // Seed 000's COO: the coordinates of both levels as an array of
    // structures in level 0's buffer, native widths.
    #COO = #sparse_tensor.encoding<{
        map = (i, j) -> (i : compressed(nonunique), j : singleton)
    }>

    // Seed 001's BSR with 2x2 blocks.
    #BSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed,
                         i mod 2 : dense, j mod 2 : dense),
        posWidth = 8,
        crdWidth = 8
    }>

    type Csr64 = tensor<64x64xf32, #CSR>;

    /// The 64x64 test matrix as a compile-time constant: its positions
    /// (u16), coordinates (u8) and values (f32) are `static` arrays in
    /// flash, laid out and checked by the macro; nothing runs `assemble`.
    pub static CSR64: tensor<64x64xf32, #CSR> = file("data/csr64.mtx");

    /// A constant past the byte-string threshold with native (`usize`,
    /// here 32-bit) coordinates: every element of a 72x64 matrix in COO
    /// (4608 values, 9216 coordinates: past the 4096-value threshold, and
    /// small enough to fit the M0 machine's 256 KiB of flash with the rest;
    /// `f32` values, 18 KiB less than `f64`, leave the M0 room for the
    /// other checks).
    pub static FULL_COO: tensor<72x64xf32, #COO> = dense<0.5>;
}
