// Pins the compile error for a sparse output of a pattern encoding
// (`explicitVal`), which stores no values: converting into one, building
// one over caller buffers and reading a file into one are refused at the
// constructor (before, each failed at run time with `PatternOutput`).
sparse_core::sparse_kernel! {
    #Pattern = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed),
        explicitVal = 1.0 : f64
    }>
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed)
    }>
}

fn main() {
    static POS: [usize; 3] = [0, 1, 2];
    static CRD: [usize; 2] = [1, 0];
    static VAL: [f64; 2] = [3.0, 4.0];
    let levels = [sparse_core::Level::dense(), sparse_core::Level::compressed(&POS, &CRD)];
    let a = CSR::<f64>::assemble([2, 2], levels, &VAL).unwrap();
    let mut out = PatternOut::<f64, sparse_core::Owned>::with_dims([2, 2]).unwrap();
    sparse_core::convert::convert(&a, &mut out).unwrap();

    let mut val = [0.0; 4];
    let built = PatternOut::<f64, sparse_core::output::Slices>::builder([2, 2])
        .values(&mut val)
        .build();

    let file = "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 1\n";
    let read: Result<PatternOut<f64, sparse_core::Owned>, _> =
        sparse_core::io::read_matrix_market(file.as_bytes());
}
