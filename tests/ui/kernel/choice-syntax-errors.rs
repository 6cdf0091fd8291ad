// Pins the errors of a malformed choice `if c { a } else { b }`: no brace
// after the condition, no condition, no brace after `else`, an empty
// branch.
sparse_core::sparse_kernel! {
    fn choices(x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
        y[i] = if x[i] > 0.0 x[i];
        y[i] = if { x[i] } else { 0.0 };
        y[i] = if x[i] > 0.0 { x[i] } else 0.0;
        y[i] = if x[i] > 0.0 {} else { 0.0 };
    }
}

fn main() {}
