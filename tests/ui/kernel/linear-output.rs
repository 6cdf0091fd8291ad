// An output may be written at an affine subscript (`x[4 * i + j] = a[i,
// j]`): each point adds its value at the element the subscript reaches,
// `=` zeroing the output first (a sparse output stages its points and sums
// them). What it cannot do, each said where it is written: read the output
// or scale it (an element may be reached from several points), fold with
// `reduce` (the points are summed), and leave the output's size.
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>

    fn scaled(a: &tensor<?x4xf64, #CSR>, x: &mut tensor<?xf64>) {
        x[4 * i + j] *= a[i, j];
    }
    fn reads_itself(a: &tensor<?x4xf64, #CSR>, x: &mut tensor<?xf64>) {
        x[4 * i + j] = x[4 * i + j] + a[i, j];
    }
    fn folded(a: &tensor<?x4xf64, #CSR>, x: &mut tensor<?xf64>) {
        x[2 * i] = reduce(a[i, j], identity = 1.0, |p, v| p * v);
    }
    // 3 x 4 points reach 0..=11; `x` has 11 elements.
    fn too_short(a: &tensor<3x4xf64, #CSR>, x: &mut tensor<11xf64>) {
        x[4 * i + j] = a[i, j];
    }
    // Fine: a collapse, a polynomial product, a stride.
    fn flat(a: &tensor<?x4xf64, #CSR>, x: &mut tensor<?xf64>) {
        x[4 * i + j] = a[i, j];
    }
    fn poly(a: &tensor<?xf64>, b: &tensor<?xf64>, c: &mut tensor<?xf64>) {
        c[i + j] += a[i] * b[j];
    }
    fn sparse_poly(a: &tensor<?xf64, #SV>, b: &tensor<?xf64>, c: &mut tensor<?xf64, #SV>) {
        c[i + j] = a[i] * b[j];
    }
}

fn main() {}
