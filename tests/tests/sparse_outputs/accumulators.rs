//! SpGEMM and the min-plus product through the workspace on rows of every
//! shape the workspace orders differently (`compress` picks per row):
//! tiny rows (insertion sort), short rows spread over thousands of columns
//! (radix sort in the added list's spare room), rows dense in their range
//! (the flag scan), with and without scratch room (fixed buffers nearly
//! full). Each result against a dense reference (a triple loop over
//! presence masks: pattern and values exactly, the inputs being small
//! integers) and, for fractional inputs, bit for bit against Gustavson's
//! loop in the kernel's accumulation order with sorted rows — the result
//! of any correct order, so of the previous sort too. Every output over
//! each buffer family, two products into the same output.

use proptest::prelude::*;
use sparse_core::output::OutputBuffers;
use sparse_core::{Encoding, KernelError, SparseTensor, SparseTensorOut};
use sparse_tests::dense::Dense;
use sparse_tests::each_family;
use sparse_tests::fixture::{with_tensor, CSR};
use sparse_tests::gen::Entries;
use sparse_tests::sparse_out::{check_output, read_back, Stored};

mod k {
    sparse_core::sparse_kernel! {
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

        pub fn spgemm(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = a[i, k] * b[k, j];
        }
        pub fn min_plus(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = reduce(binary(a[i, k], b[k, j], overlap = |p, q| p + q, left = none, right = none),
                identity = f64::INFINITY, |acc, v| min(acc, v));
        }
    }
}

type Matrix<'t, E> = SparseTensor<'t, f64, E, 2, 2>;
type Out<E, B> = SparseTensorOut<f64, E, B, 2, 2>;

/// A product's operands: `a` is `m x kk`, `b` is `kk x n`.
#[derive(Clone, Debug)]
struct Product {
    sizes: [usize; 3],
    a: Entries<f64>,
    b: Entries<f64>,
}

/// xorshift: the rows' columns and values from one seed.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// `rows x cols` with up to `per_row` distinct columns per row, in a
/// window of `window` columns at a random start (a narrow window makes
/// rows dense in their range); values small integers, or fractions.
fn matrix(
    rng: &mut Rng,
    [rows, cols]: [usize; 2],
    per_row: usize,
    window: usize,
    frac: bool,
) -> Entries<f64> {
    let mut e = Entries::new();
    for i in 0..rows {
        let w = window.clamp(1, cols);
        let start = rng.below(cols - w + 1);
        let mut js: Vec<usize> = (0..rng.below(per_row + 1))
            .map(|_| start + rng.below(w))
            .collect();
        js.sort_unstable();
        js.dedup();
        for j in js {
            let v = (rng.below(15) as f64) - 7.0;
            let v = if frac { v / 7.0 + 0.1 } else { v };
            e.push((vec![i, j], v));
        }
    }
    e
}

fn product(seed: u64, sizes: [usize; 3], shape: (usize, usize, usize), frac: bool) -> Product {
    let [m, kk, n] = sizes;
    let (pa, pb, window) = shape;
    let mut rng = Rng(seed | 1);
    Product {
        sizes,
        a: matrix(&mut rng, [m, kk], pa, kk, frac),
        b: matrix(&mut rng, [kk, n], pb, window, frac),
    }
}

/// The rows of every kind: tiny (`kk` small, `b` short), short and spread
/// over up to 3000 columns, dense in a narrow window.
fn products(frac: bool) -> impl Strategy<Value = (Product, Product)> {
    let shape = prop_oneof![
        // Tiny rows: insertion sort.
        (1usize..4, 1usize..6, Just(usize::MAX)),
        // Short spread rows: the radix sort.
        (2usize..7, 8usize..40, Just(usize::MAX)),
        // Rows dense in a window: the flag scan.
        (2usize..7, 10usize..40, 40usize..120),
    ];
    let n = prop_oneof![1usize..40, 40usize..400, 400usize..3000];
    (any::<u64>(), any::<u64>(), 1usize..12, 1usize..12, n, shape).prop_map(
        move |(s1, s2, m, kk, n, shape)| {
            (
                product(s1, [m, kk, n], shape, frac),
                product(s2, [m, kk, n], shape, frac),
            )
        },
    )
}

/// The dense reference: `(i, j)` stored iff some `k` has `a[i, k]` and
/// `b[k, j]` stored; the value the sum of products or the minimum of sums.
fn dense_want(p: &Product, min_plus: bool) -> (Stored<f64>, Dense<f64>) {
    let [m, kk, n] = p.sizes;
    let mut da = vec![None; m * kk];
    for (c, v) in &p.a {
        da[c[0] * kk + c[1]] = Some(*v);
    }
    let mut db = vec![None; kk * n];
    for (c, v) in &p.b {
        db[c[0] * n + c[1]] = Some(*v);
    }
    let mut want = Stored::new();
    for i in 0..m {
        for j in 0..n {
            let mut acc: Option<f64> = None;
            for t in 0..kk {
                if let (Some(x), Some(y)) = (da[i * kk + t], db[t * n + j]) {
                    acc = Some(match (acc, min_plus) {
                        (None, false) => x * y,
                        (None, true) => x + y,
                        (Some(s), false) => s + x * y,
                        (Some(s), true) => s.min(x + y),
                    });
                }
            }
            if let Some(v) = acc {
                want.insert(vec![i, j], v);
            }
        }
    }
    let entries: Entries<f64> = want.iter().map(|(c, v)| (c.clone(), *v)).collect();
    let dense = Dense::from_entries(&[m, n], &entries);
    (want, dense)
}

/// Gustavson's loop in the kernel's order (`k` ascending, then `b`'s row
/// ascending, each slot starting from zero), rows sorted: `(i, j)` and the
/// value's bits.
fn gustavson(p: &Product) -> Vec<(Vec<usize>, u64)> {
    let [m, _, n] = p.sizes;
    let mut out = Vec::new();
    for i in 0..m {
        let mut acc: Vec<Option<f64>> = vec![None; n];
        for (ca, x) in p.a.iter().filter(|(c, _)| c[0] == i) {
            for (cb, y) in p.b.iter().filter(|(c, _)| c[0] == ca[1]) {
                let slot = acc[cb[1]].get_or_insert(0.0);
                *slot += x * y;
            }
        }
        for (j, v) in acc.iter().enumerate() {
            if let Some(v) = v {
                out.push((vec![i, j], v.to_bits()));
            }
        }
    }
    out
}

fn check<E, B>(
    c: &mut Out<E, B>,
    runs: [&Product; 2],
    kernel: impl Fn(&Matrix<'_, E>, &Matrix<'_, E>, &mut Out<E, B>) -> Result<(), KernelError>,
    min_plus: bool,
    exact: bool,
) -> Result<(), TestCaseError>
where
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, f64>,
{
    for p in runs {
        let [m, kk, n] = p.sizes;
        let got = with_tensor(&CSR, [m, kk], &p.a, |ta| {
            with_tensor(&CSR, [kk, n], &p.b, |tb| kernel(ta, tb, &mut *c))
        });
        prop_assert_eq!(got, Ok(()), "{:?}", p.sizes);
        let view = c.view();
        if exact {
            let (want, dense) = dense_want(p, min_plus);
            check_output(&view, &want, &dense)
                .map_err(|e| TestCaseError::fail(format!("{:?}: {e}", p.sizes)))?;
        } else {
            // `read_back` re-assembles the arrays, so the rows are sorted.
            let got: Vec<(Vec<usize>, u64)> = read_back(&view)
                .map_err(TestCaseError::fail)?
                .into_iter()
                .map(|(c, v)| (c, v.to_bits()))
                .collect();
            prop_assert_eq!(got, gustavson(p), "{:?}", p.sizes);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Small-integer inputs (exact sums): pattern and values against the
    /// dense reference, plus-times and min-plus, every buffer family
    /// (fixed buffers of 4096: the added list has no spare room on the
    /// widest rows, so the radix sort yields to a comparison sort there).
    #[test]
    fn products_match_the_dense_reference((p, q) in products(false)) {
        let [m, _, n] = q.sizes;
        each_family!([m, n], 4096, |c| {
            check(&mut c, [&p, &q], k::spgemm, false, true)?;
        });
        each_family!([m, n], 4096, |c| {
            check(&mut c, [&p, &q], k::min_plus, true, true)?;
        });
    }

    /// Fractional inputs: bit for bit Gustavson's loop in the kernel's
    /// order.
    #[test]
    fn spgemm_is_bit_exact((p, q) in products(true)) {
        let [m, _, n] = q.sizes;
        each_family!([m, n], 4096, |c| {
            check(&mut c, [&p, &q], k::spgemm, false, false)?;
        });
    }
}
