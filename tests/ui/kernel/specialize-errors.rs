// `#[specialize(w = W)]` binds a sparse input to a sparse constant of the
// block with the same encoding, element type and sizes: each misuse is an
// error at the attribute, the operand or the constant.
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
    #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>

    static W: tensor<2x3xf32, #CSR> = sparse<[[0, 1], [1, 2]], [1.0, 2.0]>;
    static W_CSC: tensor<2x3xf32, #CSC> = sparse<[[0, 1], [1, 2]], [1.0, 2.0]>;
    static W_I8: tensor<2x3xi8, #CSR> = sparse<[[0, 1], [1, 2]], [1, 2]>;
    static DENSE: tensor<2x3xf32> = dense<[[0.0, 1.0, 0.0], [0.0, 0.0, 2.0]]>;

    #[specialize]
    pub fn bare(w: &tensor<?x?xf32, #CSR>, x: &tensor<?xf32>, y: &mut tensor<?xf32>) {
        y[i] = w[i, j] * x[j];
    }
    #[specialize(v = W)]
    pub fn unknown_operand(w: &tensor<?x?xf32, #CSR>, x: &tensor<?xf32>, y: &mut tensor<?xf32>) {
        y[i] = w[i, j] * x[j];
    }
    #[specialize(x = W)]
    pub fn dense_operand(w: &tensor<?x?xf32, #CSR>, x: &tensor<?xf32>, y: &mut tensor<?xf32>) {
        y[i] = w[i, j] * x[j];
    }
    #[specialize(w = V)]
    pub fn unknown_constant(w: &tensor<?x?xf32, #CSR>, x: &tensor<?xf32>, y: &mut tensor<?xf32>) {
        y[i] = w[i, j] * x[j];
    }
    #[specialize(w = W_CSC)]
    pub fn other_encoding(w: &tensor<?x?xf32, #CSR>, x: &tensor<?xf32>, y: &mut tensor<?xf32>) {
        y[i] = w[i, j] * x[j];
    }
    #[specialize(w = W_I8)]
    pub fn other_type(w: &tensor<?x?xf32, #CSR>, x: &tensor<?xf32>, y: &mut tensor<?xf32>) {
        y[i] = w[i, j] * x[j];
    }
    #[specialize(w = W)]
    pub fn other_size(w: &tensor<4x?xf32, #CSR>, x: &tensor<?xf32>, y: &mut tensor<?xf32>) {
        y[i] = w[i, j] * x[j];
    }
    #[specialize(w = DENSE)]
    pub fn dense_constant(w: &tensor<?x?xf32, #CSR>, x: &tensor<?xf32>, y: &mut tensor<?xf32>) {
        y[i] = w[i, j] * x[j];
    }
    #[specialize(w = W, max_entries = 0)]
    pub fn no_budget(w: &tensor<?x?xf32, #CSR>, x: &tensor<?xf32>, y: &mut tensor<?xf32>) {
        y[i] = w[i, j] * x[j];
    }
    #[specialize(w = W, x = W)]
    pub fn two_operands(w: &tensor<?x?xf32, #CSR>, x: &tensor<?xf32>, y: &mut tensor<?xf32>) {
        y[i] = w[i, j] * x[j];
    }
}

fn main() {}
