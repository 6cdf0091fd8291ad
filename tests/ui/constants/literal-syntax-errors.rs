// Pins the parse errors of constants and their literals: a `static`
// without its name, `file` without a string, `array<...>`, a form without
// `<`, an empty index list of `sparse<...>`, a token after a literal, `-`
// without a number, a negative hexadecimal literal, a name in a list, two
// list elements without a comma, a trailing comma, and a `dense<` never
// closed (last, as it reads to the end of the block).
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    static : tensor<2x2xf32, #CSR> = dense<1.0>;
    static PATH: tensor<2x2xf32, #CSR> = file(weights);
    static ARRAY: tensor<2x2xf32, #CSR> = array<1.0>;
    static PAREN: tensor<2x2xf32, #CSR> = dense(1.0);
    static NO_INDICES: tensor<2x2xf32, #CSR> = sparse<, [1.0]>;
    static EXTRA: tensor<2x2xf32, #CSR> = dense<1.0 2.0>;
    static MINUS: tensor<2x2xf32, #CSR> = dense<-x>;
    static HEX: tensor<2x2xf32, #CSR> = dense<-0x3F800000>;
    static NAME: tensor<2xf32> = dense<[1.0, x]>;
    static NO_COMMA: tensor<2xf32> = dense<[1.0 2.0]>;
    static TRAILING: tensor<2xf32> = dense<[1.0, 2.0, ]>;
    static OPEN: tensor<2xf32> = dense<[1.0, 2.0];
}

fn main() {}
