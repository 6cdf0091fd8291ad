// A closure body is Rust, typed with the operands' and the output's element
// types: rustc's error points into the user's closure.
sparse_core::sparse_kernel! {
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    fn f(a: &tensor<?xf64, #SV>, b: &tensor<?xi32, #SV>, c: &mut tensor<?xf64, #SV>) {
        c[i] = binary(a[i], b[i], overlap = |x, y| x + y, left = identity, right = none);
    }
}

fn main() {}
