// Pins the errors of a constant's values and index lists against its type:
// a float too large for `f32`, hexadecimal bit patterns wider than `f32`
// and `f64`, an `i1` value for a float, a number that is not an `i1`, a
// splat or a dense constant past the size limit, indices that are not a
// list of lists, a rank-2 coordinate written as a bare number, a list
// where a coordinate or a value belongs, a negative coordinate, and an
// element given twice in a dense constant.
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    static BIG: tensor<2xf32> = dense<[1.0e39, 0.0]>;
    static WIDE32: tensor<2xf32> = dense<[0x1FFFFFFFF, 0.0]>;
    static WIDE64: tensor<2xf64> = dense<[0x1FFFFFFFFFFFFFFFF, 0.0]>;
    static BOOL: tensor<2xf32> = dense<[true, 0.0]>;
    static NOT_I1: tensor<2xi1> = dense<[2, 0]>;
    static SPLAT: tensor<100000x100000xf32, #CSR> = dense<1.0>;
    static HUGE: tensor<100000x100000xf32> = sparse<[[0, 0]], [1.0]>;
    static FLAT: tensor<3x4xf32, #CSR> = sparse<0, [1.0]>;
    static BARE: tensor<3x4xf32, #CSR> = sparse<[0, 1], [1.0, 2.0]>;
    static NESTED: tensor<3x4xf32, #CSR> = sparse<[[[0], 1]], [1.0]>;
    static NEGATIVE: tensor<3x4xf32, #CSR> = sparse<[[-1, 0]], [1.0]>;
    static VALUE_LIST: tensor<3x4xf32, #CSR> = sparse<[[0, 1]], [[1.0]]>;
    static TWICE: tensor<2x2xf32> = sparse<[[0, 1], [0, 1]], [1.0, 2.0]>;
}

fn main() {}
