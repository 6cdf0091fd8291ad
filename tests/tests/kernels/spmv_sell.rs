//! SELL-C-σ (`sparse_core::sell`): the conversion from CSR and its SpMV,
//! bit for bit against the generated in-order CSR kernel on random
//! matrices (rows of 0..40 entries, values of every magnitude, `x` with
//! infinities, NaN and signed zeros), `f32` and `f64`, several σ and
//! coordinate widths; and each refusal as its typed error.

use proptest::prelude::*;
use proptest::sample::subsequence;
use sparse_core::sell::{Sell, SellError, SellOptions};
use sparse_tests::fixture::{with_tensor, CSC, CSR};
use sparse_tests::gen::Entries;

mod k {
    sparse_core::sparse_kernel! {
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #CSR16 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 16 }>
        #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>

        pub fn csr(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
        pub fn csr16_f32(a: &tensor<?x?xf32, #CSR16>, x: &tensor<?xf32>, y: &mut tensor<?xf32>) {
            y[i] = a[i, j] * x[j];
        }
        pub fn csc(a: &tensor<?x?xf64, #CSC>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
    }
}

const N: usize = 48;

fn value() -> impl Strategy<Value = f64> {
    (-20i32..=20, 1u32..1024, any::<bool>())
        .prop_map(|(e, m, neg)| if neg { -1.0 } else { 1.0 } * f64::from(m) * 2f64.powi(e) / 1024.0)
}

/// Up to 40 rows of 0..=40 entries, and `x`, some of whose elements are
/// infinite, NaN or -0.
fn input() -> impl Strategy<Value = (usize, Entries<f64>, Vec<f64>)> {
    let row = (
        subsequence((0..N).collect::<Vec<_>>(), 0..=40),
        proptest::collection::vec(value(), 40),
    );
    let xv = prop_oneof![
        8 => value(),
        1 => Just(f64::INFINITY),
        1 => Just(f64::NAN),
        1 => Just(-0.0),
    ];
    (
        proptest::collection::vec(row, 0..=40),
        proptest::collection::vec(xv, N),
    )
        .prop_map(|(rows, x)| {
            let mut e = Vec::new();
            for (i, (cols, vals)) in rows.iter().enumerate() {
                for (&j, &v) in cols.iter().zip(vals) {
                    e.push((vec![i, j], v));
                }
            }
            (rows.len(), e, x)
        })
}

/// Band-like matrices: row `i` holds the columns `i + shift[i] + o` for
/// the offsets `o` shared by every row (cut at `N`): one run `0..width`
/// (whole diagonals) or with gaps of up to 2 columns, so slices of 8 rows
/// with one shift are diagonals (one column stored) or bands (one column
/// per step), and a changed shift or a row cut short breaks one; values
/// and `x` as in [`input`].
fn band_input() -> impl Strategy<Value = (usize, Entries<f64>, Vec<f64>)> {
    (
        0usize..=40,
        proptest::collection::vec(prop_oneof![3 => Just(1usize), 1 => 2usize..=3], 1..=9),
        proptest::collection::vec(prop_oneof![6 => Just(0usize), 1 => 1usize..4], 40),
        proptest::collection::vec(value(), 40 * 9),
        proptest::collection::vec(value(), N),
    )
        .prop_map(|(m, gaps, shift, vals, x)| {
            // The offsets: 0, then each gap further.
            let offsets: Vec<usize> = gaps
                .iter()
                .scan(0, |o, &g| {
                    let at = *o;
                    *o += g;
                    Some(at)
                })
                .collect();
            let mut e = Vec::new();
            for i in 0..m {
                let lo = i + shift[i];
                let row = offsets.iter().map(|o| lo + o).take_while(|&j| j < N);
                for (k, j) in row.enumerate() {
                    e.push((vec![i, j], vals[i * 9 + k]));
                }
            }
            (m, e, x)
        })
}

fn bits64(v: &[f64]) -> Vec<u64> {
    // NaN payloads are not part of the contract: one canonical NaN.
    v.iter()
        .map(|x| if x.is_nan() { u64::MAX } else { x.to_bits() })
        .collect()
}

fn bits32(v: &[f32]) -> Vec<u32> {
    v.iter()
        .map(|x| if x.is_nan() { u32::MAX } else { x.to_bits() })
        .collect()
}

/// Any padding allowed: the property tests are about the values.
fn opts(sigma: usize) -> SellOptions {
    SellOptions {
        sigma,
        max_fill_percent: usize::MAX / 1000,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(160))]

    #[test]
    fn sell_f64_equals_the_csr_kernel_bit_for_bit((m, e, x) in input(), sigma in prop_oneof![Just(1usize), Just(8), Just(13), Just(256)]) {
        let mut want = vec![777.25; m];
        let mut got = vec![777.25; m];
        with_tensor(&CSR, [m, N], &e, |a| {
            k::csr(a, &x, &mut want).unwrap();
            let s = Sell::from_csr(a, opts(sigma)).unwrap();
            prop_assert_eq!(s.dims(), [m, N]);
            prop_assert_eq!(s.entries(), e.len());
            prop_assert!(s.stored() >= e.len());
            s.spmv(&x, &mut got).unwrap();
            Ok(())
        })?;
        prop_assert_eq!(bits64(&got), bits64(&want));
    }

    #[test]
    fn sell_of_bands_equals_the_csr_kernel_bit_for_bit((m, e, x) in band_input(), sigma in prop_oneof![Just(1usize), Just(8), Just(256)]) {
        let mut want = vec![777.25; m];
        let mut got = vec![777.25; m];
        let e32: Entries<f32> = e.iter().map(|(at, v)| (at.clone(), *v as f32)).collect();
        let x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
        let mut want32 = vec![777.25f32; m];
        let mut got32 = vec![777.25f32; m];
        with_tensor(&CSR, [m, N], &e, |a| {
            k::csr(a, &x, &mut want).unwrap();
            let s = Sell::from_csr(a, opts(sigma)).unwrap();
            prop_assert!(s.band_slices() <= m / 8);
            prop_assert!(s.diagonal_slices() <= s.band_slices());
            s.spmv(&x, &mut got).unwrap();
            Ok(())
        })?;
        with_tensor(&CSR, [m, N], &e32, |a| {
            k::csr16_f32(a, &x32, &mut want32).unwrap();
            Sell::from_csr(a, opts(sigma)).unwrap().spmv(&x32, &mut got32).unwrap();
        });
        prop_assert_eq!(bits64(&got), bits64(&want));
        prop_assert_eq!(bits32(&got32), bits32(&want32));
    }

    #[test]
    fn sell_f32_equals_the_csr_kernel_bit_for_bit((m, e, x) in input(), sigma in prop_oneof![Just(1usize), Just(32)]) {
        let e: Entries<f32> = e.iter().map(|(at, v)| (at.clone(), *v as f32)).collect();
        let x: Vec<f32> = x.iter().map(|&v| v as f32).collect();
        let mut want = vec![777.25f32; m];
        let mut got = vec![777.25f32; m];
        with_tensor(&CSR, [m, N], &e, |a| {
            k::csr16_f32(a, &x, &mut want).unwrap();
            Sell::from_csr(a, opts(sigma)).unwrap().spmv(&x, &mut got).unwrap();
        });
        prop_assert_eq!(bits32(&got), bits32(&want));
    }
}

/// A band of 5 in 40 rows: every slice is whole diagonals (one column
/// stored); one row moved over by one column makes its slice gathered.
#[test]
fn band_slices_store_one_column() {
    for moved in [None, Some(17)] {
        let e: Entries<f64> = (0..40)
            .flat_map(|i| {
                let lo = i + usize::from(moved == Some(i));
                (lo..lo + 5).map(move |j| (vec![i, j], 1.0 + (i * 7 + j) as f64 / 64.0))
            })
            .collect();
        let x: Vec<f64> = (0..N).map(|j| (j as f64 - 20.5) / 8.0).collect();
        let mut want = vec![0.0; 40];
        let mut got = vec![0.0; 40];
        with_tensor(&CSR, [40, N], &e, |a| {
            k::csr(a, &x, &mut want).unwrap();
            let s = Sell::from_csr(a, SellOptions::default()).unwrap();
            assert_eq!(s.stored(), 200);
            assert_eq!(s.band_slices(), if moved.is_some() { 4 } else { 5 });
            assert_eq!(s.diagonal_slices(), s.band_slices());
            s.spmv(&x, &mut got).unwrap();
        });
        assert_eq!(bits64(&got), bits64(&want));
    }
}

/// Rows `i` with the columns `i`, `i + 2`, `i + 3`, `i + 6` (the same
/// gaps in every row): every slice a band whose steps are not diagonals
/// (one column stored per step); and the same band without gaps, whole
/// diagonals. Both against the in-order CSR kernel and the dense product.
#[test]
fn bands_with_gaps_store_a_column_per_step() {
    for offsets in [&[0usize, 2, 3, 6][..], &[0, 1, 2, 3]] {
        let e: Entries<f64> = (0..32)
            .flat_map(|i| {
                offsets
                    .iter()
                    .map(move |o| (vec![i, i + o], 0.5 + (i * 5 + o) as f64 / 16.0))
            })
            .collect();
        let x: Vec<f64> = (0..N).map(|j| (j as f64 - 11.5) / 4.0).collect();
        let dense: Vec<f64> = (0..32)
            .map(|i| {
                e.iter()
                    .filter(|(at, _)| at[0] == i)
                    .fold(0.0, |s, (at, v)| s + v * x[at[1]])
            })
            .collect();
        let mut want = vec![0.0; 32];
        let mut got = vec![0.0; 32];
        with_tensor(&CSR, [32, N], &e, |a| {
            k::csr(a, &x, &mut want).unwrap();
            let s = Sell::from_csr(a, SellOptions::default()).unwrap();
            assert_eq!(s.band_slices(), 4);
            let diagonals = if offsets[1] == 1 { 4 } else { 0 };
            assert_eq!(s.diagonal_slices(), diagonals, "{offsets:?}");
            s.spmv(&x, &mut got).unwrap();
        });
        assert_eq!(bits64(&got), bits64(&want));
        assert_eq!(bits64(&got), bits64(&dense));
    }
}

#[test]
fn refusals_are_typed_errors() {
    // One row of 9 entries and 15 rows of 1: a slice of width 9 stores 72
    // slots for 16 entries.
    let mut e: Entries<f64> = (0..9).map(|j| (vec![0, j], 1.0)).collect();
    e.extend((1..16).map(|i| (vec![i, 0], 2.0)));
    with_tensor(&CSR, [16, N], &e, |a: &k::CSR<'_, f64>| {
        let sorted = SellOptions {
            sigma: 1,
            max_fill_percent: 150,
        };
        assert_eq!(
            Sell::from_csr(a, sorted),
            Err(SellError::Padding {
                stored: 72 + 8,
                entries: 24
            })
        );
        // Sorted within 16 rows the long row shares its slice with 7 rows
        // of one entry: 72 + 8 slots, still over 150%...
        let global = SellOptions {
            sigma: 16,
            max_fill_percent: 150,
        };
        assert!(matches!(
            Sell::from_csr(a, global),
            Err(SellError::Padding { .. })
        ));
        // ...and accepted when the caller allows it.
        let s = Sell::from_csr(
            a,
            SellOptions {
                sigma: 16,
                max_fill_percent: 400,
            },
        )
        .unwrap();
        assert_eq!(s.stored(), 80);
        assert_eq!(
            Sell::from_csr(
                a,
                SellOptions {
                    sigma: 0,
                    max_fill_percent: 400
                }
            ),
            Err(SellError::Sigma)
        );
        let x = vec![1.0; N];
        let mut y = vec![0.0; 15];
        assert_eq!(
            s.spmv(&x, &mut y),
            Err(SellError::Length {
                which: "y",
                found: 15,
                expected: 16
            })
        );
        assert_eq!(
            s.spmv(&x[1..], &mut y),
            Err(SellError::Length {
                which: "x",
                found: N - 1,
                expected: N
            })
        );
        let mut y = vec![0.0; 16];
        s.spmv(&x, &mut y).unwrap();
        assert_eq!(y[0], 9.0);
        assert!(y[1..].iter().all(|&v| v == 2.0));
    });
    // CSC is not CSR.
    let t: Entries<f64> = vec![(vec![0, 1], 1.0)];
    with_tensor(&CSC, [2, 2], &t, |a| {
        assert_eq!(
            Sell::from_csr(a, SellOptions::default()),
            Err(SellError::NotCsr)
        );
        let mut y = [0.0; 2];
        k::csc(a, &[1.0, 1.0], &mut y).unwrap();
    });
}
