// Pins the errors of `compute(|i| ..)`: a constant that is not declared
// before, the constant itself, a `?` size, the wrong number of index
// variables, one named twice, a type error in the body (the kernels'
// message), a math function (its result depends on the build's `libm`),
// a read outside a constant, a pattern constant, too many elements or
// too much work, a `compute` inside `prune_2_4`, and the closure's syntax.
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
    #PAT = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), explicitVal = 1 : i8 }>

    static W: tensor<3x4xf32, #CSR> = sparse<[[0, 0], [2, 1]], [1.0, 2.0]>;
    static P: tensor<3x4xi8, #PAT> = sparse<[[0, 0]], 1>;

    static A: tensor<3xf32> = compute(|i| LATER[i] + V[i]);
    static LATER: tensor<3xf32> = dense<[1.0, 2.0, 3.0]>;
    static B: tensor<3xf32> = compute(|i| B[i] + 1.0);
    static C: tensor<?xf32> = compute(|i| sum(j, W[i, j]));
    static D: tensor<3xf32> = compute(|i, j| W[i, j]);
    static E: tensor<3x4xf32> = compute(|i, i| W[i, i]);
    static F: tensor<3xi32> = compute(|i| sum(j, W[i, j]));
    static G: tensor<3xf32> = compute(|i| sum(j, exp(W[i, j])));
    static H: tensor<2x4xf32> = compute(|i, j| W[i + 2, j]);
    static I: tensor<3xi8> = compute(|i| sum(j, P[i, j]));
    static J: tensor<5000x5000xf32> = compute(|i, j| 1.0);
    static Z: tensor<64x64xf32> = 0.5;
    static O: tensor<65x64xf32> = compute(|i, j| sum(k, l, Z[k, l]));
    static N: tensor<3xf32> = compute(|i| sum(j, binary(W[i, j], W[i, j], overlap = |a, b| a * b, left = identity, right = identity)));
    static K: tensor<4xf32, #CSR> = prune_2_4(compute(|i| 1.0));
    static L: tensor<3xf32> = compute(i => 1.0);
    static M: tensor<3xf32> = compute(|i| 1.0 2.0);
}

fn main() {}
