// Where a region gives no value there is nothing to compute with: the result
// of binary/unary/select is the whole right-hand side or reduce's argument,
// and reduce is the whole right-hand side.
sparse_core::sparse_kernel! {
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    fn scaled(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
        c[i] = binary(a[i], b[i], overlap = |x, y| x + y, left = identity, right = identity) * 2.0;
    }
    fn added(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
        c[i] = a[i] + unary(b[i], present = identity, absent = none);
    }
    fn nested(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
        c[i] = binary(select(a[i], |v| v > 0.0), b[i], overlap = none, left = identity, right = identity);
    }
    fn reduce_plus_one(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64>) {
        x[i] = reduce(a[i, j], identity = 0.0, |s, v| s + v) + 1.0;
    }
}

fn main() {}
