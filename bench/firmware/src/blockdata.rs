//! The block-format benchmark matrices (issue 11, item 7), built at compile
//! time into `static` arrays (flash), each stored in every format it is
//! measured in: the *same weights* as CSR, as BSR 2x2 and 4x4 (block
//! matrices) or as 2:4 (pruned matrices), and dense.
//!
//! - **Block matrices**: the nonzeros fill a set of 4x4 blocks, every entry
//!   of a stored block is nonzero. So the 4x4 blocks are also full 2x2
//!   blocks, BSR 2x2 and 4x4 store exactly the nonzeros (no explicit
//!   zeros), and "per stored value" is "per nonzero" in every format.
//!   Regular ones (`K` blocks in every block row) give the cost model;
//!   `blk64` (64x64, each 4x4 block stored with probability 1/4 plus the
//!   diagonal blocks) gives the whole call on uneven block rows.
//! - **2:4 matrices**: every group of four consecutive entries of a row
//!   holds exactly two nonzeros (positions drawn per group), so 2:4 stores
//!   exactly the nonzeros, half the entries, and CSR the same ones.
//!
//! Every entry is an element of [`crate::data`]'s value set (`k / 64`, `k`
//! in `-256..256`, never 0), `x` is [`crate::data::X32`] (multiples of 1/8),
//! and a row has at most 64 nonzeros, so every product and every partial sum
//! is exact in f32: all kernels must agree with the f64 reference **bit for
//! bit**, whatever their summation order.

/// What a matrix is made of.
#[derive(Clone, Copy)]
pub enum Kind {
    /// 4x4 blocks; `k` blocks per block row (0: random, probability 1/4,
    /// plus the diagonal blocks).
    Blocks { k: usize },
    /// Two nonzeros in every group of four consecutive entries of a row.
    TwoOfFour,
}

/// A matrix: its shape, kind and a salt for its values.
#[derive(Clone, Copy)]
pub struct Spec {
    pub rows: usize,
    pub cols: usize,
    pub kind: Kind,
    pub salt: u32,
}

const fn lcg(state: u32) -> u32 {
    state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223)
}

const fn hash(a: usize, b: usize, salt: u32) -> u32 {
    lcg(lcg(
        lcg((a as u32).wrapping_mul(0x9E37_79B9) ^ salt) ^ (b as u32)
    ))
}

/// The values of [`crate::data`]: `k / 64`, `k` in `-256..256`, never 0.
const fn value(state: u32) -> f32 {
    let mut k = ((state >> 16) % 512) as i32 - 256;
    if k == 0 {
        k = 1;
    }
    k as f32 / 64.0
}

/// The two in-group positions of a 2:4 group, by `hash % 6`.
const PAIRS: [(usize, usize); 6] = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];

impl Spec {
    /// Whether the 4x4 block `(bi, bj)` is stored (block matrices).
    pub const fn block_stored(&self, bi: usize, bj: usize) -> bool {
        match self.kind {
            Kind::Blocks { k: 0 } => bi == bj || hash(bi, bj, self.salt ^ 0x5bd1).is_multiple_of(4),
            Kind::Blocks { k } => {
                // Block column t * s + r_t, r_t drawn per (block row, t).
                let s = self.cols / 4 / k;
                let t = bj / s;
                t < k && bj % s == (hash(bi, t, self.salt ^ 0x1b87) as usize >> 8) % s
            }
            Kind::TwoOfFour => false,
        }
    }

    /// Entry `(i, j)`: the definition of the matrix, which both the stored
    /// arrays and the reference are computed from.
    pub const fn entry(&self, i: usize, j: usize) -> f32 {
        let stored = match self.kind {
            Kind::Blocks { .. } => self.block_stored(i / 4, j / 4),
            Kind::TwoOfFour => {
                let (a, b) = PAIRS[(hash(i, j / 4, self.salt ^ 0x2f6b) >> 8) as usize % 6];
                j % 4 == a || j % 4 == b
            }
        };
        if stored {
            value(hash(i, j, self.salt))
        } else {
            0.0
        }
    }

    /// Stored values: the nonzeros.
    pub const fn nnz(&self) -> usize {
        let mut n = 0;
        let mut i = 0;
        while i < self.rows {
            let mut j = 0;
            while j < self.cols {
                if self.entry(i, j) != 0.0 {
                    n += 1;
                }
                j += 1;
            }
            i += 1;
        }
        n
    }
}

/// The CSR arrays (u16 row pointers, u8 columns).
pub const fn csr<const R1: usize, const NNZ: usize>(
    s: &Spec,
) -> ([u16; R1], [u8; NNZ], [f32; NNZ]) {
    let mut pos = [0u16; R1];
    let mut crd = [0u8; NNZ];
    let mut val = [0f32; NNZ];
    let mut p = 0;
    let mut i = 0;
    while i < s.rows {
        let mut j = 0;
        while j < s.cols {
            let v = s.entry(i, j);
            if v != 0.0 {
                crd[p] = j as u8;
                val[p] = v;
                p += 1;
            }
            j += 1;
        }
        pos[i + 1] = p as u16;
        i += 1;
    }
    assert!(p == NNZ && R1 == s.rows + 1);
    (pos, crd, val)
}

/// The BSR arrays with `b x b` blocks (a block is stored when it holds a
/// nonzero; its values row-major): u16 block-row pointers, u8 block columns.
pub const fn bsr<const NBR1: usize, const NB: usize, const NNZ: usize>(
    s: &Spec,
    b: usize,
) -> ([u16; NBR1], [u8; NB], [f32; NNZ]) {
    let mut pos = [0u16; NBR1];
    let mut crd = [0u8; NB];
    let mut val = [0f32; NNZ];
    let (mut nb, mut p) = (0, 0);
    let mut bi = 0;
    while bi < s.rows / b {
        let mut bj = 0;
        while bj < s.cols / b {
            let mut nonzero = false;
            let mut ii = 0;
            while ii < b * b {
                if s.entry(bi * b + ii / b, bj * b + ii % b) != 0.0 {
                    nonzero = true;
                }
                ii += 1;
            }
            if nonzero {
                crd[nb] = bj as u8;
                nb += 1;
                let mut ii = 0;
                while ii < b * b {
                    val[p] = s.entry(bi * b + ii / b, bj * b + ii % b);
                    p += 1;
                    ii += 1;
                }
            }
            bj += 1;
        }
        pos[bi + 1] = nb as u16;
        bi += 1;
    }
    assert!(nb == NB && p == NNZ && NBR1 == s.rows / b + 1);
    (pos, crd, val)
}

/// The 2:4 arrays: per group of four, the two in-group coordinates and
/// their values.
pub const fn nv24<const NNZ: usize>(s: &Spec) -> ([u8; NNZ], [f32; NNZ]) {
    let mut crd = [0u8; NNZ];
    let mut val = [0f32; NNZ];
    let mut p = 0;
    let mut i = 0;
    while i < s.rows {
        let mut j = 0;
        while j < s.cols {
            let v = s.entry(i, j);
            if v != 0.0 {
                crd[p] = (j % 4) as u8;
                val[p] = v;
                p += 1;
            }
            j += 1;
        }
        i += 1;
    }
    assert!(p == NNZ && NNZ * 2 == s.rows * s.cols);
    (crd, val)
}

/// The matrix, dense and row-major.
pub const fn dense<const N: usize>(s: &Spec) -> [f32; N] {
    let mut d = [0f32; N];
    let mut p = 0;
    while p < N {
        d[p] = s.entry(p / s.cols, p % s.cols);
        p += 1;
    }
    d
}

/// Compressed arrays: positions, coordinates, values.
pub type Compressed = (&'static [u16], &'static [u8], &'static [f32]);

/// One matrix in every format it is measured in.
pub struct BlockMatrix {
    pub name: &'static str,
    pub spec: Spec,
    pub rows: usize,
    pub cols: usize,
    /// Stored values (= nonzeros) of every sparse format.
    pub nnz: usize,
    pub csr: Compressed,
    /// BSR 2x2 and 4x4 (block matrices only).
    pub bsr2: Option<Compressed>,
    pub bsr4: Option<Compressed>,
    /// 2:4 coordinates and values (2:4 matrices only).
    pub nv24: Option<(&'static [u8], &'static [f32])>,
    pub dense: &'static [f32],
}

macro_rules! block_matrix {
    ($name:literal, $rows:literal, $cols:literal, $k:literal, $salt:literal) => {{
        const S: Spec = Spec {
            rows: $rows,
            cols: $cols,
            kind: Kind::Blocks { k: $k },
            salt: $salt,
        };
        const NNZ: usize = S.nnz();
        static CSR: ([u16; $rows + 1], [u8; NNZ], [f32; NNZ]) = csr(&S);
        static B2: ([u16; $rows / 2 + 1], [u8; NNZ / 4], [f32; NNZ]) = bsr(&S, 2);
        static B4: ([u16; $rows / 4 + 1], [u8; NNZ / 16], [f32; NNZ]) = bsr(&S, 4);
        static DENSE: [f32; $rows * $cols] = dense(&S);
        BlockMatrix {
            name: $name,
            spec: S,
            rows: $rows,
            cols: $cols,
            nnz: NNZ,
            csr: (&CSR.0, &CSR.1, &CSR.2),
            bsr2: Some((&B2.0, &B2.1, &B2.2)),
            bsr4: Some((&B4.0, &B4.1, &B4.2)),
            nv24: None,
            dense: &DENSE,
        }
    }};
}

macro_rules! nv24_matrix {
    ($name:literal, $rows:literal, $cols:literal, $salt:literal) => {{
        const S: Spec = Spec {
            rows: $rows,
            cols: $cols,
            kind: Kind::TwoOfFour,
            salt: $salt,
        };
        const NNZ: usize = $rows * $cols / 2;
        static CSR: ([u16; $rows + 1], [u8; NNZ], [f32; NNZ]) = csr(&S);
        static NV: ([u8; NNZ], [f32; NNZ]) = nv24(&S);
        static DENSE: [f32; $rows * $cols] = dense(&S);
        BlockMatrix {
            name: $name,
            spec: S,
            rows: $rows,
            cols: $cols,
            nnz: NNZ,
            csr: (&CSR.0, &CSR.1, &CSR.2),
            bsr2: None,
            bsr4: None,
            nv24: Some((&NV.0, &NV.1)),
            dense: &DENSE,
        }
    }};
}

/// The matrices, in the order the firmware measures them. Names: `b` block
/// matrices (`b<rows>x<cols>k<blocks per block row>`, `blk64` random),
/// `n` 2:4 matrices (`n<rows>x<cols>`).
pub fn matrices() -> [BlockMatrix; 7] {
    [
        block_matrix!("b64x64k2", 64, 64, 2, 0x0b10),
        block_matrix!("b64x64k4", 64, 64, 4, 0x0b20),
        block_matrix!("b128x64k2", 128, 64, 2, 0x0b30),
        block_matrix!("blk64", 64, 64, 0, 0x0b40),
        nv24_matrix!("n64x64", 64, 64, 0x0c10),
        nv24_matrix!("n64x128", 64, 128, 0x0c20),
        nv24_matrix!("n128x64", 128, 64, 0x0c30),
    ]
}

/// The reference `(A x)[i]` in f64 (exact for these values), from
/// [`Spec::entry`], not from any stored array.
pub fn reference(m: &BlockMatrix, x: &[f64], i: usize) -> f64 {
    let mut s = 0.0f64;
    for (j, &xj) in x.iter().enumerate().take(m.cols) {
        s += m.spec.entry(i, j) as f64 * xj;
    }
    if cfg!(feature = "inject-failure") && i == 5 {
        s += 1.0;
    }
    s
}
