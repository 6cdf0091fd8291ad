// Affine subscripts (`x[i + k]`): what they cannot do, each said where it
// is written, with what to write instead.
sparse_core::sparse_kernel! {
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
    #CSR_NO = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed(nonordered)) }>
    #NV24 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4]) }>
    #BSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense)
    }>

    fn range_unknown(x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
        y[i] = x[i + k];
    }
    fn floordiv(x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
        y[i] = x[i floordiv 2];
    }
    fn product(x: &tensor<?xf64>, f: &tensor<?xf64>, y: &mut tensor<?xf64>) {
        y[i] = x[i * k] * f[k];
    }
    fn constant(x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
        y[i] = x[i - i + 1];
    }
    fn strided_sparse(x: &tensor<?xf64, #SV>, y: &mut tensor<?xf64>) {
        y[i] = x[2 * i];
    }
    fn nonordered(a: &tensor<?x?xf64, #CSR_NO>, f: &tensor<?x?xf64>, o: &mut tensor<?x?xf64>) {
        o[i, j] = a[i + k, j + l] * f[k, l];
    }
    fn block(a: &tensor<?x?xf64, #BSR>, f: &tensor<?x?xf64>, o: &mut tensor<?x?xf64>) {
        o[i, j] = a[i + k, j + l] * f[k, l];
    }
    fn two_subscripts(x: &tensor<?xf64, #SV>, y: &mut tensor<?xf64>) {
        y[i] = x[i + 1] * x[i];
    }
    fn too_large(x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
        y[i] = x[i + 99999999999];
    }
    fn two_four(a: &tensor<?x?xf64, #NV24>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
        y[i] = a[i, j + 1] * x[j];
    }
    // x has 6 elements; y[i] = x[i + k] f[k] over 5 x 3 needs 7.
    fn too_short(x: &tensor<6xf64>, f: &tensor<3xf64>, y: &mut tensor<5xf64>) {
        y[i] = x[i + k] * f[k];
    }
}

fn main() {}
