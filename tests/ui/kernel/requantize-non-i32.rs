// Pins the errors of the built-in `requantize(acc, multiplier, shift)`,
// which is CMSIS-NN's `arm_nn_requantize` on `i32` values only: a float
// or narrow accumulator, a float literal, an `i64` shift, its `i32`
// result stored unconverted into an `i8` output, and a missing argument.
sparse_core::sparse_kernel! {
    fn requant(
        a: &tensor<?xf32>,
        b: &tensor<?xi8>,
        c: &tensor<?xi32>,
        m: i32,
        s: i64,
        y: &mut tensor<?xi32>,
        z: &mut tensor<?xi8>,
    ) {
        y[i] = requantize(a[i], m, -3);
        y[i] = requantize(b[i], m, -3);
        y[i] = requantize(c[i], 1.5, -3);
        y[i] = requantize(c[i], m, s);
        z[i] = requantize(c[i], m, -3);
        y[i] = requantize(c[i], m);
    }
}

fn main() {}
