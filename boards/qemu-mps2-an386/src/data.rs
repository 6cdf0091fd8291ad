//! Test data, all `static` (in flash): the dense reference of a 64x64
//! matrix generated at compile time (its CSR form is the compile-time
//! constant `formats::CSR64`, read from `data/csr64.mtx`, which
//! `data/gen_csr64.py` writes from the same generator), and the
//! hand-checked layouts of the seeds (COO from seed 000's `assemble`
//! example, BSR 2x2 from seed 001).

/// Rows and columns of the generated matrix.
pub const N: usize = 64;

/// Numerical Recipes' LCG: deterministic, and enough for a test pattern.
const fn lcg(state: u32) -> u32 {
    state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223)
}

/// The generated matrix, dense: entry `(i, j)` is stored with probability
/// about 1/9, and always on the diagonal. Values are `k / 64` with `k` in
/// `-256..256` but never 0, so every stored entry is visible in the dense
/// form and sums and products stay exact in f32.
const fn generate() -> [[f32; N]; N] {
    let mut a = [[0.0f32; N]; N];
    let mut state = 0x2545_F491u32;
    let mut i = 0;
    while i < N {
        let mut j = 0;
        while j < N {
            state = lcg(state);
            if i == j || (state >> 8) % 9 == 0 {
                state = lcg(state);
                let mut k = ((state >> 16) % 512) as i32 - 256;
                if k == 0 {
                    k = 1;
                }
                a[i][j] = k as f32 / 64.0;
            }
            j += 1;
        }
        i += 1;
    }
    a
}

const GENERATED: [[f32; N]; N] = generate();

const fn count_entries(a: &[[f32; N]; N]) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < N {
        let mut j = 0;
        while j < N {
            if a[i][j] != 0.0 {
                n += 1;
            }
            j += 1;
        }
        i += 1;
    }
    n
}

/// Stored entries of the generated matrix.
pub const NNZ: usize = count_entries(&GENERATED);

const fn reference() -> [[f32; N]; N] {
    #[allow(unused_mut)]
    let mut a = GENERATED;
    // The negative test: a wrong reference must make the firmware fail.
    #[cfg(feature = "inject-failure")]
    {
        a[5][7] += 1.0;
    }
    a
}

/// The dense reference the CSR matrix must reproduce.
pub static CSR_DENSE: [[f32; N]; N] = reference();

/// Seed 000's `sparse_tensor.assemble` example: a 3x4 COO matrix,
/// `pos = [0, 3]`, `index = [[0,0], [1,2], [1,3]]` (array of structures),
/// values 1.1, 2.2, 3.3.
pub static COO_POS: [usize; 2] = [0, 3];
/// The AoS coordinate tuples of [`COO_POS`]'s matrix.
pub static COO_CRD: [usize; 6] = [0, 0, 1, 2, 1, 3];
/// The values of the seed 000 COO matrix.
pub static COO_VAL: [f64; 3] = [1.1, 2.2, 3.3];
/// The seed 000 matrix, dense, as the seed prints it.
pub static COO_DENSE: [[f64; 4]; 3] = [
    [1.1, 0.0, 0.0, 0.0],
    [0.0, 0.0, 2.2, 3.3],
    [0.0, 0.0, 0.0, 0.0],
];

/// The same 3x4 matrix in CSR (hand-derived): the base of the malformed
/// inputs.
pub static SMALL_POS: [u8; 4] = [0, 1, 3, 3];
/// Column coordinates of the small CSR matrix.
pub static SMALL_CRD: [u8; 3] = [0, 2, 3];
/// Values of the small CSR matrix.
pub static SMALL_VAL: [f64; 3] = [1.1, 2.2, 3.3];

/// Seed 001's BSR example, 2x2 blocks of a 4x6 matrix:
/// `positions[1] : 0 2 3`, `coordinates[1] : 0 2 1`, then 3 blocks of 4
/// values (explicit zeros inside blocks are stored).
pub static BSR_POS: [u8; 3] = [0, 2, 3];
/// Block-column coordinates of the BSR matrix.
pub static BSR_CRD: [u8; 3] = [0, 2, 1];
/// Block values of the BSR matrix, row-major inside each block.
pub static BSR_VAL: [f32; 12] = [
    1.0, 2.0, 0.0, 3.0, //
    4.0, 0.0, 0.0, 5.0, //
    6.0, 7.0, 8.0, 0.0,
];
/// The BSR matrix, dense, as seed 001 draws it.
pub static BSR_DENSE: [[f32; 6]; 4] = [
    [1.0, 2.0, 0.0, 0.0, 4.0, 0.0],
    [0.0, 3.0, 0.0, 0.0, 0.0, 5.0],
    [0.0, 0.0, 6.0, 7.0, 0.0, 0.0],
    [0.0, 0.0, 8.0, 0.0, 0.0, 0.0],
];
