// Pins the sparsifier's errors that no other test reaches: a statement
// co-iterating more sparse tensors than supported, or needing more
// co-iteration cases than supported, a block operand that stores a
// dimension whole while another splits its index into blocks, and three
// block operands whose level orders, agreeing pairwise, form a cycle.
sparse_core::sparse_kernel! {
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
    #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
    #BSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense)
    }>
    #BSC = #sparse_tensor.encoding<{
        map = (i, j) -> (j floordiv 2 : dense, i floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense)
    }>
    #ROW_BLOCKS = #sparse_tensor.encoding<{
        map = (i, j) -> (i floordiv 2 : dense, j : compressed, i mod 2 : dense)
    }>

    fn nine(
        a: &tensor<?xf64, #SV>,
        b: &tensor<?xf64, #SV>,
        c: &tensor<?xf64, #SV>,
        d: &tensor<?xf64, #SV>,
        e: &tensor<?xf64, #SV>,
        f: &tensor<?xf64, #SV>,
        g: &tensor<?xf64, #SV>,
        h: &tensor<?xf64, #SV>,
        k: &tensor<?xf64, #SV>,
        y: &mut tensor<?xf64>,
    ) {
        y[i] = a[i] + b[i] + c[i] + d[i] + e[i] + f[i] + g[i] + h[i] + k[i];
    }

    fn eight(
        a: &tensor<?x?xf64, #DCSR>,
        b: &tensor<?x?xf64, #DCSR>,
        c: &tensor<?x?xf64, #DCSR>,
        d: &tensor<?x?xf64, #DCSR>,
        e: &tensor<?x?xf64, #DCSR>,
        f: &tensor<?x?xf64, #DCSR>,
        g: &tensor<?x?xf64, #DCSR>,
        h: &tensor<?x?xf64, #DCSR>,
        x: &mut tensor<?x?xf64>,
    ) {
        x[i, j] = a[i, j] + b[i, j] + c[i, j] + d[i, j] + e[i, j] + f[i, j] + g[i, j] + h[i, j];
    }

    fn whole(a: &tensor<?x?xf64, #BSR>, b: &tensor<?x?xf64, #ROW_BLOCKS>, c: &mut tensor<?x?xf64>) {
        c[i, j] = a[i, j] + b[i, j];
    }

    fn cycle(
        a: &tensor<?x?xf64, #BSR>,
        b: &tensor<?x?xf64, #BSR>,
        d: &tensor<?x?xf64, #BSR>,
        s: &mut tensor<f64>,
    ) {
        s[] = a[i, j] * b[j, k] * d[k, i];
    }
}

fn main() {}
