// An n:m level stores the coordinate inside a group of m: its expression
// is `d mod m`, after a `d floordiv m` level.
sparse_core::sparse_kernel! {
    #PLAIN = #sparse_tensor.encoding<{ map = (i, g, k) -> (i : dense, g : dense, k : structured[2, 4]) }>
}

fn main() {}
