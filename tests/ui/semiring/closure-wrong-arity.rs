// Each region's closure takes as many parameters as the region has values:
// overlap 2, left/right/present 1, absent 0, a select predicate 1, a reduce
// combiner 2 (the accumulator and the value).
sparse_core::sparse_kernel! {
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    fn overlap_with_one(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
        c[i] = binary(a[i], b[i], overlap = |x| x, left = identity, right = none);
    }
    fn right_with_two(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
        c[i] = binary(a[i], b[i], overlap = |x, y| x + y, left = identity, right = |x, y| x - y);
    }
    fn present_with_two(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
        c[i] = unary(a[i], present = |x, y| x + y, absent = none);
    }
    fn predicate_with_none(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
        c[i] = select(a[i], || true);
    }
    fn combiner_with_one(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64>) {
        x[i] = reduce(a[i, j], identity = 1.0, |p| p);
    }
}

fn main() {}
