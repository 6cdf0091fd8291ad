// `#[range(k = n)]` sizes index variables no tensor dimension sizes (a
// pooling window): each misuse is an error at the attribute, the name or
// the size.
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>

    #[range]
    pub fn bare(a: &tensor<?x?xf64, #CSR>, o: &mut tensor<?x?xf64>) {
        o[i, j] = a[i + k, j + l];
    }
    #[range(k = 0, l = 2u8)]
    pub fn bad_sizes(a: &tensor<?x?xf64, #CSR>, o: &mut tensor<?x?xf64>) {
        o[i, j] = a[i + k, j + l];
    }
    #[range(k = 2, l = 2, k = 3)]
    pub fn twice(a: &tensor<?x?xf64, #CSR>, o: &mut tensor<?x?xf64>) {
        o[i, j] = a[i + k, j + l];
    }
    #[range(k = 2, m = 2)]
    pub fn unknown_index(a: &tensor<?x?xf64, #CSR>, o: &mut tensor<?x?xf64>) {
        o[i, j] = a[i + k, j + l];
    }
    #[range(k = 2)]
    pub fn disagrees(a: &tensor<?xf64, #SV>, f: &tensor<3xf64>, y: &mut tensor<?xf64>) {
        y[i] = a[i + k] * f[k];
    }
}

fn main() {}
