// `identity` passes the operand through unchanged, so its type must be the
// output's (as select's operand).
sparse_core::sparse_kernel! {
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    fn is_equal(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xi8, #SV>) {
        c[i] = binary(a[i], b[i], overlap = |x, y| (x == y) as i8, left = identity, right = none);
    }
    fn difference(a: &tensor<?xf64, #SV>, b: &tensor<?xi32, #SV>, c: &mut tensor<?xf64, #SV>) {
        c[i] = binary(a[i], b[i], overlap = none, left = none, right = identity);
    }
    fn kept(a: &tensor<?xf64, #SV>, c: &mut tensor<?xi32, #SV>) {
        c[i] = select(a[i], |v| v > 1.0);
    }
}

fn main() {}
