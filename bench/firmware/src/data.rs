//! The benchmark matrices, built at compile time into `static` arrays (flash).
//!
//! Three *regular* matrices (every row has exactly `K` entries) separate the
//! cost per nonzero from the cost per row and per call:
//! `I(rows, nnz) = c_call + c_row * rows + c_nnz * nnz`, solved exactly from
//! 64 rows x 8, 64 rows x 16 and 128 rows x 8 (row lengths that are multiples
//! of 4, so LLVM's 4x unrolled loops run no remainder iterations).
//! A fourth, *random* matrix (64x64, each entry stored with probability about
//! 1/9 plus the diagonal, the construction of `boards/qemu-mps2-an386` and of
//! the measurements that set the targets) gives the total per nonzero
//! on uneven rows.
//!
//! Every value is `k / 64` with `k` in `-256..256`, never 0, and `x[j]` is a
//! multiple of 1/8: every product and partial sum is exact in f32 and f64, so
//! all kernels must agree bit for bit whatever their summation order.

/// Columns of the regular matrices (`crdWidth = 8` allows up to 256).
pub const NCOLS: usize = 256;
/// Rows and columns of the random matrix.
pub const NRAND: usize = 64;

/// Numerical Recipes' LCG: deterministic, and enough for a test pattern.
const fn lcg(state: u32) -> u32 {
    state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223)
}

/// A value `k / 64`, `k` in `-256..256`, never 0, drawn from `state`.
const fn value(state: u32) -> f32 {
    let mut k = ((state >> 16) % 512) as i32 - 256;
    if k == 0 {
        k = 1;
    }
    k as f32 / 64.0
}

/// Entry `t` of row `i` of a regular matrix with `k` entries per row:
/// column `t * s + r` with `s = NCOLS / k` and `r < s` drawn per entry, so
/// the columns of a row are strictly increasing. Used both to build the CSR
/// arrays and, independently of them, the reference product.
pub const fn regular_entry(i: usize, t: usize, k: usize) -> (usize, f32) {
    let s = NCOLS / k;
    let h = lcg(lcg((i * 131 + t * 7 + k) as u32 ^ 0x9E37_79B9));
    let col = t * s + (h as usize >> 8) % s;
    (col, value(lcg(h)))
}

const fn regular_pos<const P: usize>(k: usize) -> [u16; P] {
    let mut pos = [0u16; P];
    let mut i = 0;
    while i < P {
        pos[i] = (i * k) as u16;
        i += 1;
    }
    pos
}

const fn regular_crd<const NNZ: usize>(k: usize) -> [u8; NNZ] {
    let mut crd = [0u8; NNZ];
    let mut p = 0;
    while p < NNZ {
        crd[p] = regular_entry(p / k, p % k, k).0 as u8;
        p += 1;
    }
    crd
}

const fn regular_val<const NNZ: usize>(k: usize) -> [f32; NNZ] {
    let mut val = [0f32; NNZ];
    let mut p = 0;
    while p < NNZ {
        val[p] = regular_entry(p / k, p % k, k).1;
        p += 1;
    }
    val
}

const fn widen<const N: usize>(v: &[f32; N]) -> [f64; N] {
    let mut w = [0f64; N];
    let mut p = 0;
    while p < N {
        w[p] = v[p] as f64;
        p += 1;
    }
    w
}

/// The random 64x64 matrix, dense (the board firmware's generator).
const fn generate_random() -> [[f32; NRAND]; NRAND] {
    let mut a = [[0.0f32; NRAND]; NRAND];
    let mut state = 0x2545_F491u32;
    let mut i = 0;
    while i < NRAND {
        let mut j = 0;
        while j < NRAND {
            state = lcg(state);
            if i == j || (state >> 8).is_multiple_of(9) {
                state = lcg(state);
                a[i][j] = value(state);
            }
            j += 1;
        }
        i += 1;
    }
    a
}

const fn count_entries(a: &[[f32; NRAND]; NRAND]) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < NRAND {
        let mut j = 0;
        while j < NRAND {
            if a[i][j] != 0.0 {
                n += 1;
            }
            j += 1;
        }
        i += 1;
    }
    n
}

/// The random matrix, dense: the reference of its products.
pub static RAND_DENSE: [[f32; NRAND]; NRAND] = generate_random();
const RAND_NNZ: usize = count_entries(&generate_random());

const fn compress_random() -> ([u16; NRAND + 1], [u8; RAND_NNZ], [f32; RAND_NNZ]) {
    let a = generate_random();
    let mut pos = [0u16; NRAND + 1];
    let mut crd = [0u8; RAND_NNZ];
    let mut val = [0.0f32; RAND_NNZ];
    let mut p = 0;
    let mut i = 0;
    while i < NRAND {
        let mut j = 0;
        while j < NRAND {
            if a[i][j] != 0.0 {
                crd[p] = j as u8;
                val[p] = a[i][j];
                p += 1;
            }
            j += 1;
        }
        pos[i + 1] = p as u16;
        i += 1;
    }
    (pos, crd, val)
}
const RAND_PARTS: ([u16; NRAND + 1], [u8; RAND_NNZ], [f32; RAND_NNZ]) = compress_random();

/// One CSR matrix in flash: `pos` (u16), `crd` (u8), values in f32 and f64.
pub struct Matrix {
    pub name: &'static str,
    pub rows: usize,
    pub cols: usize,
    /// Entries per row of a regular matrix; 0 for the random one.
    pub per_row: usize,
    pub pos: &'static [u16],
    pub crd: &'static [u8],
    pub val32: &'static [f32],
    pub val64: &'static [f64],
}

macro_rules! regular {
    ($name:literal, $rows:literal, $k:literal) => {{
        const NNZ: usize = $rows * $k;
        static POS: [u16; $rows + 1] = regular_pos::<{ $rows + 1 }>($k);
        static CRD: [u8; NNZ] = regular_crd::<NNZ>($k);
        static VAL32: [f32; NNZ] = regular_val::<NNZ>($k);
        static VAL64: [f64; NNZ] = widen(&regular_val::<NNZ>($k));
        Matrix {
            name: $name,
            rows: $rows,
            cols: NCOLS,
            per_row: $k,
            pos: &POS,
            crd: &CRD,
            val32: &VAL32,
            val64: &VAL64,
        }
    }};
}

/// The matrices, in the order the firmware measures them.
pub fn matrices() -> [Matrix; 4] {
    static RPOS: [u16; NRAND + 1] = RAND_PARTS.0;
    static RCRD: [u8; RAND_NNZ] = RAND_PARTS.1;
    static RVAL32: [f32; RAND_NNZ] = RAND_PARTS.2;
    static RVAL64: [f64; RAND_NNZ] = widen(&RAND_PARTS.2);
    [
        regular!("reg64x8", 64, 8),
        regular!("reg64x16", 64, 16),
        regular!("reg128x8", 128, 8),
        Matrix {
            name: "rand64",
            rows: NRAND,
            cols: NRAND,
            per_row: 0,
            pos: &RPOS,
            crd: &RCRD,
            val32: &RVAL32,
            val64: &RVAL64,
        },
    ]
}

/// `x[j] = (j - 128) / 8` in f32 and f64.
pub static X32: [f32; NCOLS] = {
    let mut x = [0f32; NCOLS];
    let mut j = 0;
    while j < NCOLS {
        x[j] = (j as f32 - 128.0) / 8.0;
        j += 1;
    }
    x
};
/// [`X32`] widened to f64.
pub static X64: [f64; NCOLS] = widen(&X32);

/// The reference product `A x` in f64 (exact for these values), computed
/// from the generators, not from the CSR arrays.
pub fn reference(m: &Matrix, i: usize) -> f64 {
    let mut s = 0.0f64;
    if m.per_row == 0 {
        for (j, &a) in RAND_DENSE[i].iter().enumerate() {
            s += a as f64 * X64[j];
        }
    } else {
        for t in 0..m.per_row {
            let (j, a) = regular_entry(i, t, m.per_row);
            s += a as f64 * X64[j];
        }
    }
    // The negative test: a wrong reference must make the run fail.
    if cfg!(feature = "inject-failure") && i == 5 {
        s += 1.0;
    }
    s
}
