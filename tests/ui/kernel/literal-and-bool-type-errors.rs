// Pins the type errors of literals, `bool` (`i1`) values and math
// functions: a number literal where a `bool` is expected, a float literal
// where an integer is expected, arithmetic on `bool`s, a `bool` cast to a
// float, a float function on integers.
sparse_core::sparse_kernel! {
    fn types(
        m: &tensor<?xi1>,
        xi: &tensor<?xi32>,
        out: &mut tensor<?xi1>,
        yi: &mut tensor<?xi32>,
        y: &mut tensor<?xf64>,
    ) {
        out[i] = 1;
        yi[i] = 2.5;
        out[i] = m[i] + m[i];
        y[i] = m[i] as f64;
        yi[i] = sqrt(xi[i]);
    }
}

fn main() {}
