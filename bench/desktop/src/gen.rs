//! Deterministic synthetic matrices (a fixed-seed xorshift, no crate: the
//! same bits on every machine and every dependency version).

/// xorshift64*: small, fast, and good enough for picking columns.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 11) as u128 * n as u128) >> 53) as usize
    }
    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// A value in `[-1, -0.5] ∪ [0.5, 1]`: never near zero, so sums do not cancel.
    pub fn value(&mut self) -> f64 {
        let v = 0.5 + 0.5 * self.unit();
        if self.next_u64() & 1 == 0 {
            v
        } else {
            -v
        }
    }
}

/// A CSR matrix with `u32` positions and coordinates (sorted, unique
/// columns per row), values in `f64`.
#[derive(Clone)]
pub struct Csr {
    pub rows: usize,
    pub cols: usize,
    pub pos: Vec<u32>,
    pub crd: Vec<u32>,
    pub val: Vec<f64>,
}

impl Csr {
    pub fn nnz(&self) -> usize {
        self.crd.len()
    }

    fn from_rows(
        rows: usize,
        cols: usize,
        mut row_cols: impl FnMut(usize, &mut Vec<u32>),
        rng: &mut Rng,
    ) -> Csr {
        let mut pos = Vec::with_capacity(rows + 1);
        let mut crd = Vec::new();
        let mut val = Vec::new();
        let mut buf = Vec::new();
        pos.push(0u32);
        for i in 0..rows {
            buf.clear();
            row_cols(i, &mut buf);
            buf.sort_unstable();
            buf.dedup();
            for &j in &buf {
                crd.push(j);
                val.push(rng.value());
            }
            pos.push(u32::try_from(crd.len()).expect("nnz fits u32"));
        }
        Csr {
            rows,
            cols,
            pos,
            crd,
            val,
        }
    }

    /// `per_row` distinct uniformly random columns in every row.
    pub fn uniform(n: usize, per_row: usize, seed: u64) -> Csr {
        let mut rng = Rng::new(seed);
        let mut cols = Rng::new(seed ^ 0xC0FF_EE00);
        Csr::from_rows(
            n,
            n,
            |_, buf| {
                while buf.len() < per_row.min(n) {
                    let j = cols.below(n) as u32;
                    if !buf.contains(&j) {
                        buf.push(j);
                    }
                }
            },
            &mut rng,
        )
    }

    /// Row lengths from a Pareto law (shape 1.5, at least 3, at most
    /// `n / 10`), uniformly random columns: a few very long rows and many
    /// short ones, about `10 n` entries.
    pub fn power_law(n: usize, seed: u64) -> Csr {
        let mut rng = Rng::new(seed);
        let mut cols = Rng::new(seed ^ 0xBEEF);
        let cap = (n / 10).max(4);
        Csr::from_rows(
            n,
            n,
            |_, buf| {
                let u = 1.0 - cols.unit();
                let len = ((3.4 * u.powf(-1.0 / 1.5)) as usize).clamp(3, cap);
                while buf.len() < len {
                    let j = cols.below(n) as u32;
                    if !buf.contains(&j) {
                        buf.push(j);
                    }
                }
            },
            &mut rng,
        )
    }

    /// Every `j` with `|i - j| <= half_band`.
    pub fn banded(n: usize, half_band: usize, seed: u64) -> Csr {
        let mut rng = Rng::new(seed);
        Csr::from_rows(
            n,
            n,
            |i, buf| {
                let lo = i.saturating_sub(half_band);
                let hi = (i + half_band).min(n - 1);
                buf.extend((lo..=hi).map(|j| j as u32));
            },
            &mut rng,
        )
    }

    /// The transpose, also CSR: read as CSC it is the same matrix.
    pub fn transpose(&self) -> Csr {
        let mut count = vec![0u32; self.cols + 1];
        for &j in &self.crd {
            count[j as usize + 1] += 1;
        }
        for j in 0..self.cols {
            count[j + 1] += count[j];
        }
        let pos = count.clone();
        let mut next = count;
        let mut crd = vec![0u32; self.nnz()];
        let mut val = vec![0.0; self.nnz()];
        for i in 0..self.rows {
            for p in self.pos[i] as usize..self.pos[i + 1] as usize {
                let j = self.crd[p] as usize;
                let q = next[j] as usize;
                crd[q] = i as u32;
                val[q] = self.val[p];
                next[j] += 1;
            }
        }
        Csr {
            rows: self.cols,
            cols: self.rows,
            pos,
            crd,
            val,
        }
    }

    pub fn val_f64(&self) -> Vec<f64> {
        self.val.clone()
    }

    pub fn val_f32(&self) -> Vec<f32> {
        self.val.iter().map(|&v| v as f32).collect()
    }

    pub fn crd_u16(&self) -> Vec<u16> {
        self.crd
            .iter()
            .map(|&j| u16::try_from(j).expect("column fits u16"))
            .collect()
    }

    pub fn pos_usize(&self) -> Vec<usize> {
        self.pos.iter().map(|&p| p as usize).collect()
    }

    pub fn crd_usize(&self) -> Vec<usize> {
        self.crd.iter().map(|&p| p as usize).collect()
    }
}

/// A dense vector of `n` values in `[-1, 1]`.
pub fn dense(n: usize, seed: u64) -> Vec<f64> {
    let mut rng = Rng::new(seed);
    (0..n).map(|_| rng.value()).collect()
}
