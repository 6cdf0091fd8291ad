// Pins the checker's errors on names and accesses in statements: a tensor
// read without indices, an index variable whose range this statement does
// not know, an output read at other coordinates than it writes, a cast to
// a type kernels lack, an output written without brackets, a scalar
// parameter indexed, a parameter declared twice.
sparse_core::sparse_kernel! {
    fn names(
        x: &tensor<?xf64>,
        a: &tensor<?x?xf64>,
        alpha: f64,
        y: &mut tensor<?xf64>,
        c: &mut tensor<?x?xf64>,
    ) {
        c[i, j] = a[i, j];
        y[i] = x;
        y[i] = x[i] * (j as f64);
        c[i, j] = c[j, i] + a[i, j];
        y[i] = x[i] as f80;
        y = x[i];
        y[i] = alpha[i] * x[i];
    }

    fn twice(x: &tensor<?xf64>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
        y[i] = x[i];
    }
}

fn main() {}
