//! The generated int8 fully connected layers under measurement: one
//! statement pair, CMSIS-NN's arithmetic (input offset added per nonzero,
//! `i32` bias and accumulation, `requantize`, output offset, clamp to
//! int8), over each weight format. A new variant is a kernel here (or an
//! attribute on a copy of one) and one line in [`crate::variants`].

sparse_core::sparse_kernel! {
    #CSR8 = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed),
        posWidth = 16,
        crdWidth = 8
    }>
    #CSR16 = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed),
        posWidth = 16,
        crdWidth = 16
    }>
    #NV24 = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : block2_4),
        crdWidth = 2
    }>
    #BSR4 = #sparse_tensor.encoding<{
        map = (i, j) -> (i floordiv 4 : dense, j floordiv 4 : compressed, i mod 4 : dense, j mod 4 : dense),
        posWidth = 16,
        crdWidth = 8
    }>

    /// The layer over CSR with 8-bit column coordinates (256 columns).
    pub fn fc_csr8(
        w: &tensor<?x?xi8, #CSR8>,
        x: &tensor<?xi8>,
        bias: &tensor<?xi32>,
        acc: &mut tensor<?xi32>,
        y: &mut tensor<?xi8>,
        in_off: i32,
        mult: i32,
        shift: i32,
        out_off: i32,
    ) {
        acc[i] = w[i, j] as i32 * (x[j] as i32 + in_off) + bias[i];
        y[i] = clamp(requantize(acc[i], mult, shift) + out_off, -128, 127) as i8;
    }

    /// The layer over CSR with 16-bit column coordinates (512 columns).
    pub fn fc_csr16(
        w: &tensor<?x?xi8, #CSR16>,
        x: &tensor<?xi8>,
        bias: &tensor<?xi32>,
        acc: &mut tensor<?xi32>,
        y: &mut tensor<?xi8>,
        in_off: i32,
        mult: i32,
        shift: i32,
        out_off: i32,
    ) {
        acc[i] = w[i, j] as i32 * (x[j] as i32 + in_off) + bias[i];
        y[i] = clamp(requantize(acc[i], mult, shift) + out_off, -128, 127) as i8;
    }

    /// The layer over 2:4, two 2-bit coordinates per group (four a byte).
    pub fn fc_nv24(
        w: &tensor<?x?xi8, #NV24>,
        x: &tensor<?xi8>,
        bias: &tensor<?xi32>,
        acc: &mut tensor<?xi32>,
        y: &mut tensor<?xi8>,
        in_off: i32,
        mult: i32,
        shift: i32,
        out_off: i32,
    ) {
        acc[i] = w[i, j] as i32 * (x[j] as i32 + in_off) + bias[i];
        y[i] = clamp(requantize(acc[i], mult, shift) + out_off, -128, 127) as i8;
    }

    /// The layer over BSR 4x4.
    pub fn fc_bsr4(
        w: &tensor<?x?xi8, #BSR4>,
        x: &tensor<?xi8>,
        bias: &tensor<?xi32>,
        acc: &mut tensor<?xi32>,
        y: &mut tensor<?xi8>,
        in_off: i32,
        mult: i32,
        shift: i32,
        out_off: i32,
    ) {
        acc[i] = w[i, j] as i32 * (x[j] as i32 + in_off) + bias[i];
        y[i] = clamp(requantize(acc[i], mult, shift) + out_off, -128, 127) as i8;
    }
}
