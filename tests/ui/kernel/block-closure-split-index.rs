// A closure cannot read an index a block operand splits into blocks yet:
// the error names the closure and the index.
sparse_core::sparse_kernel! {
    #BSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense)
    }>

    fn lower(a: &tensor<?x?xf64, #BSR>, c: &mut tensor<?x?xf64>) {
        c[i, j] = select(a[i, j], |_| j < i);
    }
}

fn main() {}
