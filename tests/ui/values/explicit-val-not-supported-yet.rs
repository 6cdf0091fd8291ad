sparse_core::sparse_kernel! {
    #DCSC = #sparse_tensor.encoding<{
        map = (i, j) -> (j : compressed, i : compressed),
        explicitVal = 1 : i64,
        implicitVal = 0 : i64
    }>
}

fn main() {}
