// Pins the narrow-accumulation error: a sum of products of `i8`/`ui8`/
// `i16`/`ui16` values stored in that type wraps silently, so it is refused
// at the product, naming the `as i32` fix (`as i64` for `ui16`) and the
// explicit wrapping spelling. The last kernel is that spelling and
// compiles.
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    fn layer_i8(w: &tensor<?x?xi8, #CSR>, x: &tensor<?xi8>, y: &mut tensor<?xi8>) {
        y[i] = w[i, j] * x[j];
    }
    fn layer_u16(w: &tensor<?x?xui16, #CSR>, x: &tensor<?xui16>, b: &tensor<?xui16>, y: &mut tensor<?xui16>) {
        y[i] += sum(j, w[i, j] * x[j]) + b[i];
    }
    fn wraps_on_purpose(w: &tensor<?x?xi8, #CSR>, x: &tensor<?xi8>, y: &mut tensor<?xi8>) {
        y[i] = (w[i, j] * x[j]) as i8;
    }
}

fn main() {}
