// Pins the errors of `levels_of(W, values = ..)`: a name that is no
// constant before it, a constant without encoding, another encoding,
// other sizes, a nonzero value where `W` stores no entry (from a literal
// and from a file), a pattern encoding, and a missing `values =`. And a
// scalar read from a file of two elements.
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
    #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
    #PAT = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), explicitVal = 1 : i8 }>
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>

    static W: tensor<3x4xf32, #CSR> = sparse<[[0, 0], [0, 3], [2, 1], [2, 2]], [1.0, 2.0, 3.0, 4.0]>;
    static D: tensor<2xf32> = dense<[1.0, 2.0]>;
    static P: tensor<3x4xi8, #PAT> = sparse<[[0, 0]], 1>;

    static A: tensor<3x4xi8, #CSR> = levels_of(V, values = dense<0>);
    static B: tensor<2xi8, #SV> = levels_of(D, values = dense<0>);
    static C: tensor<3x4xi8, #CSC> = levels_of(W, values = dense<0>);
    static E: tensor<3x5xi8, #CSR> = levels_of(W, values = dense<0>);
    static F: tensor<3x4xi8, #CSR> = levels_of(W, values = dense<[[1, 0, 0, 2], [0, 9, 0, 0], [0, 3, 4, 0]]>);
    static G: tensor<3x4xi8, #CSR> = levels_of(W, values = file("data/ui/a_i8_extra.npy"));
    static H: tensor<3x4xi8, #PAT> = levels_of(P, values = dense<1>);
    static I: tensor<3x4xi8, #CSR> = levels_of(W, dense<0>);
    static S: tensor<f32> = file("data/ui/two.npy");
}

fn main() {}
