//! Integer kernels panic on no value (issue 18, item 5): `+`, `-`, `*`,
//! unary `-`, `abs` and every sum wrap, as MLIR's `arith` ops do; integer
//! division by zero gives 0 and `MIN / -1` wraps to `MIN`; arithmetic on
//! index variables wraps in `usize` and a cast reads it as signed (MLIR's
//! `index_cast`). These tests run in the debug profile, where Rust's
//! `+`/`-`/`*` would panic on overflow, so a panic path left in the
//! generated code fails them. The references use the `wrapping_*`
//! methods directly.

use sparse_tests::fixture::{with_tensor, COO, CSR, SV};
use sparse_tests::gen::Entries;

mod k {
    sparse_core::sparse_kernel! {
        #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton(nonunique)) }>

        pub fn total_i32(a: &tensor<?x?xi32, #CSR>, s: &mut tensor<i32>) {
            s[] += a[i, j];
        }
        pub fn total_u8(a: &tensor<?x?xui8, #COO>, s: &mut tensor<ui8>) {
            s[] = a[i, j];
        }
        pub fn spmv_i8(a: &tensor<?x?xi8, #CSR>, x: &tensor<?xi8>, y: &mut tensor<?xi8>) {
            y[i] = (a[i, j] * x[j]) as i8;
        }
        /// The fix the narrow-accumulation error names: `i8` factors
        /// widened, summed in `i32`.
        pub fn layer_i8_i32(a: &tensor<?x?xi8, #CSR>, x: &tensor<?xi8>, y: &mut tensor<?xi32>) {
            y[i] = a[i, j] as i32 * x[j] as i32;
        }
        pub fn bias_i16(a: &tensor<?x?xi16, #CSR>, x: &tensor<?xi16>, b: &tensor<?xi16>, y: &mut tensor<?xi16>) {
            y[i] = (a[i, j] * x[j]) as i16 - b[i];
        }
        pub fn divide_i32(a: &tensor<?x?xi32, #CSR>, x: &tensor<?xi32>, y: &mut tensor<?xi32>) {
            y[i] = a[i, j] / x[j];
        }
        pub fn divide_u16(a: &tensor<?xui16, #SV>, x: &tensor<?xui16>, y: &mut tensor<?xui16>) {
            y[i] = a[i] / x[i];
        }
        pub fn negate_i8(a: &tensor<?xi8, #SV>, y: &mut tensor<?xi8>) {
            y[i] = -a[i];
        }
        pub fn magnitude_i8(a: &tensor<?xi8, #SV>, y: &mut tensor<?xi8>) {
            y[i] = abs(a[i]);
        }
        pub fn spgemm_i8(a: &tensor<?x?xi8, #CSR>, b: &tensor<?x?xi8, #CSR>, c: &mut tensor<?x?xi8, #CSR>) {
            c[i, j] = (a[i, k] * b[k, j]) as i8;
        }
        pub fn distance_from_diagonal(a: &tensor<?x?xf64, #CSR>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * ((i - j) as f64);
        }
        pub fn index_product(a: &tensor<?x?xi64, #CSR>, y: &mut tensor<?xi64>) {
            y[i] = a[i, j] * ((i - j - 1) as i64);
        }
    }
}

#[test]
fn sums_wrap() {
    let a: Entries<i32> = vec![
        (vec![0, 0], i32::MAX),
        (vec![0, 2], i32::MAX),
        (vec![1, 1], 5),
    ];
    let mut s = 0i32;
    with_tensor(&CSR, [2, 3], &a, |t| k::total_i32(t, &mut s)).unwrap();
    assert_eq!(s, i32::MAX.wrapping_add(i32::MAX).wrapping_add(5));
    // Duplicates of a COO coordinate are summed, wrapping too.
    let a: Entries<u8> = vec![(vec![0, 1], 200), (vec![0, 1], 100), (vec![1, 0], 250)];
    let mut s = 0u8;
    with_tensor(&COO, [2, 2], &a, |t| k::total_u8(t, &mut s)).unwrap();
    assert_eq!(s, 200u8.wrapping_add(100).wrapping_add(250));
}

#[test]
fn products_and_differences_wrap() {
    let a: Entries<i8> = vec![(vec![0, 0], 100), (vec![0, 1], -128), (vec![1, 1], 127)];
    let x = [3i8, -1];
    let mut y = [0i8; 2];
    with_tensor(&CSR, [2, 2], &a, |t| k::spmv_i8(t, &x, &mut y)).unwrap();
    let row0 = 100i8
        .wrapping_mul(3)
        .wrapping_add((-128i8).wrapping_mul(-1));
    assert_eq!(y, [row0, 127i8.wrapping_mul(-1)]);

    let a: Entries<i16> = vec![(vec![0, 0], i16::MAX), (vec![1, 0], i16::MIN)];
    let x = [2i16];
    let b = [-1i16, 1];
    let mut y = [0i16; 2];
    with_tensor(&CSR, [2, 1], &a, |t| k::bias_i16(t, &x, &b, &mut y)).unwrap();
    assert_eq!(
        y,
        [
            i16::MAX.wrapping_mul(2).wrapping_sub(-1),
            i16::MIN.wrapping_mul(2).wrapping_sub(1)
        ]
    );
}

/// An int8 layer's row whose true sum is 40000: accumulated in `i32` it
/// is exact; wrapping in `i8`, spelt out as `(a[i, j] * x[j]) as i8`, it
/// is 40000 mod 256 = 64 (what the plain statement, now refused, gave).
#[test]
fn an_int8_layer_accumulates_in_i32_or_wraps_where_spelt_out() {
    let a: Entries<i8> = (0..4).map(|j| (vec![0, j], 100)).collect();
    let x = [100i8; 4];
    let mut wide = [0i32; 1];
    with_tensor(&CSR, [1, 4], &a, |t| k::layer_i8_i32(t, &x, &mut wide)).unwrap();
    assert_eq!(wide, [4 * 100 * 100]);
    let mut narrow = [0i8; 1];
    with_tensor(&CSR, [1, 4], &a, |t| k::spmv_i8(t, &x, &mut narrow)).unwrap();
    assert_eq!(narrow, [(40000 % 256) as i8]);
    assert_eq!(narrow, [64]);
}

#[test]
fn division_by_zero_gives_zero_and_min_by_minus_one_wraps() {
    let a: Entries<i32> = vec![(vec![0, 0], 7), (vec![0, 1], 9), (vec![1, 2], i32::MIN)];
    let x = [2, 0, -1];
    let mut y = [1i32; 2];
    with_tensor(&CSR, [2, 3], &a, |t| k::divide_i32(t, &x, &mut y)).unwrap();
    assert_eq!(y, [7 / 2, i32::MIN]);

    let a: Entries<u16> = vec![(vec![0], 9), (vec![2], 60000)];
    let x = [0u16, 0, 7];
    let mut y = [5u16; 3];
    with_tensor(&SV, [3], &a, |t| k::divide_u16(t, &x, &mut y)).unwrap();
    assert_eq!(y, [0, 0, 60000 / 7]);
}

#[test]
fn negation_and_abs_wrap_at_the_minimum() {
    let a: Entries<i8> = vec![(vec![0], i8::MIN), (vec![1], 5), (vec![3], -7)];
    let mut y = [1i8; 4];
    with_tensor(&SV, [4], &a, |t| k::negate_i8(t, &mut y)).unwrap();
    assert_eq!(y, [i8::MIN, -5, 0, 7]);
    with_tensor(&SV, [4], &a, |t| k::magnitude_i8(t, &mut y)).unwrap();
    assert_eq!(y, [i8::MIN, 5, 0, 7]);
}

#[test]
fn workspace_sums_wrap() {
    // c = a b with every product 100 * 2 and two of them meeting in c[0, 0].
    let a: Entries<i8> = vec![(vec![0, 0], 100), (vec![0, 1], 100)];
    let b: Entries<i8> = vec![(vec![0, 0], 2), (vec![1, 0], 2), (vec![1, 1], 3)];
    let mut c = k::CSROut::<i8, sparse_core::output::Owned>::with_dims([1, 2]).unwrap();
    with_tensor(&CSR, [1, 2], &a, |ta| {
        with_tensor(&CSR, [2, 2], &b, |tb| k::spgemm_i8(ta, tb, &mut c))
    })
    .unwrap();
    let mut got = Vec::new();
    c.view().for_each(|ij, v| got.push((ij, *v)));
    let c00 = 100i8.wrapping_mul(2).wrapping_add(100i8.wrapping_mul(2));
    assert_eq!(got, [([0, 0], c00), ([0, 1], 100i8.wrapping_mul(3))]);
}

#[test]
fn index_arithmetic_wraps_and_casts_as_signed() {
    // MLIR: `linalg.index` values are `index`; `arith.subi` wraps and
    // `arith.index_cast` reads the result as signed, so i - j is -1 where
    // j = i + 1.
    let a: Entries<f64> = vec![(vec![0, 1], 1.0), (vec![0, 3], 2.0), (vec![2, 0], 4.0)];
    let mut y = [0.0f64; 3];
    with_tensor(&CSR, [3, 4], &a, |t| k::distance_from_diagonal(t, &mut y)).unwrap();
    // Row 0: 1 * (0 - 1) + 2 * (0 - 3); row 2: 4 * (2 - 0).
    assert_eq!(y, [-1.0 - 6.0, 0.0, 8.0]);
    let a: Entries<i64> = vec![(vec![0, 0], 3), (vec![1, 0], 5)];
    let mut y = [0i64; 2];
    with_tensor(&CSR, [2, 1], &a, |t| k::index_product(t, &mut y)).unwrap();
    // Row 0: 3 * (0 - 0 - 1); row 1: 5 * (1 - 0 - 1).
    assert_eq!(y, [-3, 0]);
}
