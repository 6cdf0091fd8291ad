// A kernel's sparse parameters have their encoding in their type. A CSC
// output passed where the kernel writes CSR names `#CSR` in words (the
// output goes through `IsCSROut`); a CSC operand passed where it reads CSR
// is a plain type mismatch, whose types spell both encodings as MLIR does:
// `(dense, compressed), (d0, d1)` against `(dense, compressed), (d1, d0)`
// (an input keeps its alias type so that kernels still coerce to `fn`
// pointers and infer their operands' encoding).
use sparse_core::{sparse_kernel, Owned};

sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
    #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>

    fn spmv(a: &tensor<?x?xf32, #CSR>, x: &tensor<?xf32>, y: &mut tensor<?xf32>) {
        y[i] = a[i, j] * x[j];
    }

    fn scale(a: &tensor<?x?xf32, #CSR>, c: &mut tensor<?x?xf32, #CSR>) {
        c[i, j] = a[i, j] * 2.0;
    }
}

fn wrong_input(a: &CSC<'_, f32>, x: &[f32], y: &mut [f32]) {
    let _ = spmv(a, x, y);
}

fn wrong_output(a: &CSR<'_, f32>, c: &mut CSCOut<f32, Owned>) {
    let _ = scale(a, c);
}

fn main() {
    let _ = (wrong_input, wrong_output);
}
