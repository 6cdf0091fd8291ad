//! A number literal over 128 characters is refused at the token (syn
//! would evaluate it in time quadratic in its digits).
use sparse_core::sparse_kernel;

sparse_kernel! {
    pub fn scale(x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
        y[i] = x[i] * 99999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999.0;
    }
}

fn main() {}
