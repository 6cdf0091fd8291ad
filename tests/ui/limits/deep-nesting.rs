//! A statement nesting more than 64 levels is an error at the level that
//! crosses the limit (every later stage recurses over expressions).
use sparse_core::sparse_kernel;

sparse_kernel! {
    pub fn deep(x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
        y[i] = ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((x[i]))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))));
    }
}

fn main() {}
