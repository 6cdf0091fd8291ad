// Pins the parse errors of an encoding item and its fields: a `#` without
// the encoding's name, a field without `=`, a typed value without its
// type, a level without its format. Each broken item or field is reported
// and the others are still read.
sparse_core::sparse_kernel! {
    # = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    #A = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth 8 }>

    #B = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed),
        explicitVal = 1 : 7
    }>

    #C = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : 8) }>
}

fn main() {}
