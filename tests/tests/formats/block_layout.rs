//! An independent builder of MLIR's block layout from a dense matrix
//! ([`Blocked`]) and of the 2:4 layout ([`two_of_four`]), the random
//! matrices they are fed, and the dense product the block and structured
//! kernels are checked against (`block.rs`, `structured_in.rs`).
//!
//! For each stored block (any block with a nonzero, plus optionally
//! all-zero ones), its `br x bc` values in the order of the inner levels.

use proptest::prelude::*;
use sparse_core::Level;

/// The storage of a dense `rows x cols` matrix under a block map with
/// `br x bc` blocks. `by_cols` puts the column blocks outside (BSC);
/// `inner_cols_first` stores a block's values column by column;
/// `compressed_outer` makes the outer level compressed too (DCSR of
/// blocks). A block is stored when it holds a nonzero, or `keep` says so.
pub(super) struct Blocked {
    pub(super) pos0: Vec<usize>,
    pub(super) crd0: Vec<usize>,
    pub(super) pos1: Vec<usize>,
    pub(super) crd1: Vec<usize>,
    pub(super) values: Vec<f64>,
}

#[derive(Clone, Copy)]
pub(super) struct Layout {
    pub(super) br: usize,
    pub(super) bc: usize,
    pub(super) by_cols: bool,
    pub(super) inner_cols_first: bool,
    pub(super) compressed_outer: bool,
}

impl Blocked {
    pub(super) fn new(
        m: &[Vec<f64>],
        cols: usize,
        lay: Layout,
        keep: &dyn Fn(usize, usize) -> bool,
    ) -> Self {
        let rows = m.len();
        let (nbr, nbc) = (rows / lay.br, cols / lay.bc);
        let (outer, inner) = if lay.by_cols { (nbc, nbr) } else { (nbr, nbc) };
        let mut b = Blocked {
            pos0: vec![0],
            crd0: Vec::new(),
            pos1: vec![0],
            crd1: Vec::new(),
            values: Vec::new(),
        };
        for o in 0..outer {
            let mut stored_any = false;
            for n in 0..inner {
                let (rb, cb) = if lay.by_cols { (n, o) } else { (o, n) };
                let nonzero = (0..lay.br)
                    .any(|ii| (0..lay.bc).any(|jj| m[rb * lay.br + ii][cb * lay.bc + jj] != 0.0));
                if !(nonzero || keep(rb, cb)) {
                    continue;
                }
                stored_any = true;
                b.crd1.push(n);
                let (n1, n2) = if lay.inner_cols_first {
                    (lay.bc, lay.br)
                } else {
                    (lay.br, lay.bc)
                };
                for p in 0..n1 {
                    for q in 0..n2 {
                        let (ii, jj) = if lay.inner_cols_first { (q, p) } else { (p, q) };
                        b.values.push(m[rb * lay.br + ii][cb * lay.bc + jj]);
                    }
                }
            }
            if lay.compressed_outer {
                if stored_any {
                    b.crd0.push(o);
                    b.pos1.push(b.crd1.len());
                }
            } else {
                b.pos1.push(b.crd1.len());
            }
        }
        if lay.compressed_outer {
            b.pos0.push(b.crd0.len());
        }
        b
    }

    pub(super) fn levels_dense_outer(&self) -> [Level<'_, usize, usize>; 4] {
        [
            Level::dense(),
            Level::compressed(&self.pos1, &self.crd1),
            Level::dense(),
            Level::dense(),
        ]
    }
}

pub(super) fn matvec(m: &[Vec<f64>], x: &[f64]) -> Vec<f64> {
    m.iter()
        .map(|row| row.iter().zip(x).map(|(a, b)| a * b).sum())
        .collect()
}

/// A `rows x cols` matrix with about `density` of its entries nonzero.
pub(super) fn matrix(rows: usize, cols: usize) -> impl Strategy<Value = Vec<Vec<f64>>> {
    proptest::collection::vec(
        proptest::collection::vec(
            prop_oneof![3 => Just(0.0), 1 => (-4i32..=4).prop_map(f64::from)],
            cols,
        ),
        rows,
    )
}

pub(super) const BSR: Layout = Layout {
    br: 2,
    bc: 2,
    by_cols: false,
    inner_cols_first: false,
    compressed_outer: false,
};

/// The 2:4 storage of a matrix each of whose groups of 4 holds at most two
/// nonzeros: per group, the two stored in-group coordinates (nonzeros
/// first, padded with the lowest unused ones) and their values.
pub(super) fn two_of_four(m: &[Vec<f64>]) -> (Vec<u8>, Vec<f64>) {
    let (mut crd, mut val) = (Vec::new(), Vec::new());
    for row in m {
        for group in row.chunks(4) {
            let mut picked: Vec<usize> = (0..4).filter(|&k| group[k] != 0.0).collect();
            assert!(picked.len() <= 2, "the test matrix fits 2:4");
            for k in 0..4 {
                if picked.len() < 2 && !picked.contains(&k) {
                    picked.push(k);
                }
            }
            picked.sort();
            for k in picked {
                crd.push(k as u8);
                val.push(group[k]);
            }
        }
    }
    (crd, val)
}

/// A matrix whose groups of four hold at most two nonzeros.
pub(super) fn matrix_2_4(rows: usize, cols: usize) -> impl Strategy<Value = Vec<Vec<f64>>> {
    matrix(rows, cols).prop_map(|mut m| {
        for row in &mut m {
            for group in row.chunks_mut(4) {
                let mut seen = 0;
                for v in group.iter_mut() {
                    if *v != 0.0 {
                        seen += 1;
                        if seen > 2 {
                            *v = 0.0;
                        }
                    }
                }
            }
        }
        m
    })
}
