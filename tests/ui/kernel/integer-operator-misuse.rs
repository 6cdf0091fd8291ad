// Pins the errors of the integer operators: a shift by a float, shifts by
// constants at or above the width (and negative ones), which MLIR leaves
// undefined, bitwise operators, shifts and `!` on floats, and a compound
// shift inside an expression.
sparse_core::sparse_kernel! {
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>

    fn integers(
        a: &tensor<?xi32, #SV>,
        b: &tensor<?xi8>,
        s: f32,
        y: &mut tensor<?xi32>,
        z: &mut tensor<?xi8>,
    ) {
        y[i] = a[i] >> s;
        y[i] = a[i] << 2.0;
        y[i] = a[i] << 32;
        z[i] = b[i] >> 8;
        y[i] = a[i] << -1;
        y[i] = a[i] <<= 2;
    }

    fn floats(x: &tensor<?xf32, #SV>, m: &tensor<?xf32>, y: &mut tensor<?xf32>) {
        y[i] = x[i] & m[i];
        y[i] = x[i] ^ 1.0;
        y[i] = x[i] << 1;
        y[i] = !x[i];
    }
}

fn main() {}
