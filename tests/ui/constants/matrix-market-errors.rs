// Pins the errors of malformed Matrix Market files (`tests/data/ui/`, one
// mistake each, named by the file) and of a file whose tensor does not fit
// the constant's type: not text, the header's object, format, field and
// symmetry, the size line, a non-square symmetric matrix, too many or too
// few entries, a missing, non-numeric or 0-based index, a word after the
// entry, a listed diagonal of a skew-symmetric matrix, an array too long
// or too short, a mirrored entry out of range, a value that is not a real
// or an integer, real values for an integer type, the rank and the sizes.
sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    static NOT_UTF8: tensor<3x4xf32, #CSR> = file("data/ui/not-utf8.mtx");
    static VECTOR: tensor<3x4xf32, #CSR> = file("data/ui/vector.mtx");
    static STORAGE: tensor<3x4xf32, #CSR> = file("data/ui/storage.mtx");
    static COMPLEX: tensor<3x4xf32, #CSR> = file("data/ui/complex.mtx");
    static HERMITIAN: tensor<3x3xf32, #CSR> = file("data/ui/hermitian.mtx");
    static SIZES: tensor<3x4xf32, #CSR> = file("data/ui/sizes-not-numbers.mtx");
    static SIZE_COUNT: tensor<3x4xf32, #CSR> = file("data/ui/sizes-count.mtx");
    static NOT_SQUARE: tensor<3x4xf32, #CSR> = file("data/ui/symmetric-not-square.mtx");
    static MORE: tensor<3x4xf32, #CSR> = file("data/ui/more-entries.mtx");
    static FEWER: tensor<3x4xf32, #CSR> = file("data/ui/fewer-entries.mtx");
    static NO_COLUMN: tensor<3x4xf32, #CSR> = file("data/ui/missing-column.mtx");
    static ZERO_BASED: tensor<3x4xf32, #CSR> = file("data/ui/zero-based.mtx");
    static NOT_INDEX: tensor<3x4xf32, #CSR> = file("data/ui/index-not-number.mtx");
    static EXTRA: tensor<3x4xf32, #CSR> = file("data/ui/extra-word.mtx");
    static SKEW_DIAGONAL: tensor<3x3xf32, #CSR> = file("data/ui/skew-diagonal.mtx");
    static LONG: tensor<1x2xf32, #CSR> = file("data/ui/array-too-long.mtx");
    static SHORT: tensor<2x2xf32, #CSR> = file("data/ui/array-too-short.mtx");
    static SKEW_UNSIGNED: tensor<2x2xui8, #CSR> = file("data/ui/skew-unsigned.mtx");
    static NOT_REAL: tensor<3x4xf32, #CSR> = file("data/ui/value-not-real.mtx");
    static NOT_INTEGER: tensor<3x4xi32, #CSR> = file("data/ui/value-not-integer.mtx");
    static REAL_FOR_INT: tensor<3x4xi32, #CSR> = file("data/ui/real-3x4.mtx");
    static RANK: tensor<12xf32> = file("data/ui/real-3x4.mtx");
    static SIZES_DIFFER: tensor<3x5xf32, #CSR> = file("data/ui/real-3x4.mtx");
}

fn main() {}
