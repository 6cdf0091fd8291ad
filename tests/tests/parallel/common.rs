//! Shapes, values and the harness shared by the parallel tests.

use proptest::prelude::*;
use sparse_tests::gen::{sparse, Entries};

/// Runs `f` on a 4-thread pool with the work limits lowered so that every
/// input is cut into chunks (all tests of this binary set the same limits).
pub fn on_threads<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    sparse_core::parallel::set_work_limits(0, 1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .expect("a 4-thread pool");
    pool.install(f)
}

/// Bit patterns, so `-0.0` vs `0.0` and any reassociation show.
pub fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// A named matrix shape.
pub struct Shape {
    pub name: &'static str,
    pub dims: [usize; 2],
    pub entries: Entries<f64>,
}

/// Entries `(i, j)` in row-major order with values from `value(n)`.
fn at(coords: &[(usize, usize)], value: &impl Fn(usize) -> f64) -> Entries<f64> {
    let mut c = coords.to_vec();
    c.sort_unstable();
    c.dedup();
    c.into_iter()
        .enumerate()
        .map(|(n, (i, j))| (vec![i, j], value(n)))
        .collect()
}

/// The named shapes of the issue, with values from `value(n)` for the
/// `n`-th entry: empty ones, all-zero rows, one row, skewed rows.
pub fn shapes(value: impl Fn(usize) -> f64) -> Vec<Shape> {
    let skewed: Vec<(usize, usize)> = (0..40)
        .map(|j| (3, j))
        .chain([(0, 1), (7, 0), (7, 39), (11, 5)])
        .collect();
    // 600 rows: row 17 holds 300 entries, every 7th row one, the rest none.
    let large: Vec<(usize, usize)> = (0..300)
        .map(|j| (17, j))
        .chain((0..600).step_by(7).map(|i| (i, (i * 13) % 300)))
        .collect();
    let diagonal: Vec<(usize, usize)> = (0..50).map(|i| (i, i)).collect();
    vec![
        Shape {
            name: "0x0",
            dims: [0, 0],
            entries: Vec::new(),
        },
        Shape {
            name: "0 rows",
            dims: [0, 5],
            entries: Vec::new(),
        },
        Shape {
            name: "0 columns",
            dims: [5, 0],
            entries: Vec::new(),
        },
        Shape {
            name: "all-zero rows",
            dims: [6, 4],
            entries: Vec::new(),
        },
        Shape {
            name: "one row",
            dims: [1, 9],
            entries: at(&[(0, 0), (0, 3), (0, 8)], &value),
        },
        Shape {
            name: "one full row among zero rows",
            dims: [5, 4],
            entries: at(&[(2, 0), (2, 1), (2, 2), (2, 3)], &value),
        },
        Shape {
            name: "skewed rows",
            dims: [12, 40],
            entries: at(&skewed, &value),
        },
        Shape {
            name: "diagonal",
            dims: [50, 50],
            entries: at(&diagonal, &value),
        },
        Shape {
            name: "large skewed",
            dims: [600, 300],
            entries: at(&large, &value),
        },
    ]
}

/// Small values (quarters): sums exact in any order.
pub fn small(n: usize) -> f64 {
    ((n * 37 % 129) as f64 - 64.0) / 4.0
}

/// Values whose sums round differently in another order.
pub fn rough(n: usize) -> f64 {
    let x = (n as f64 + 1.0) * 0.618_033_988_749_895;
    (x - x.floor()) * 3.0 - 1.1 + 1e-7 * n as f64
}

/// A dense vector of `len` values from `value`, offset so it differs from
/// the matrix's.
pub fn vector(len: usize, value: impl Fn(usize) -> f64) -> Vec<f64> {
    (0..len).map(|k| value(k + 1000)).collect()
}

/// Random shapes (sizes 0..=7) with random entries (small values).
pub fn random() -> impl Strategy<Value = ([usize; 2], Entries<f64>)> {
    sparse::<f64, 2>(7)
}

/// The same pattern with values that are not exact in every order.
pub fn roughen(e: &Entries<f64>) -> Entries<f64> {
    e.iter()
        .enumerate()
        .map(|(n, (c, v))| (c.clone(), v + rough(n)))
        .collect()
}
