//! Semiring operations that store more than their operands (structural
//! inversion stores the complement, a custom `reduce` every row holding a
//! stored value) into
//! sparse outputs too small for the result: the exact
//! `KernelError::Capacity` (the first buffer that overflowed and the length
//! the whole result needs) or `PositionOverflow` past `posWidth`, the output
//! left a valid empty tensor, and a following call that fits succeeding in
//! the same output.

use sparse_core::output::{Fixed, Owned};
use sparse_core::{Buffer, KernelError};
use sparse_tests::dense::Dense;
use sparse_tests::fixture::{with_tensor, DCSR, SV};
use sparse_tests::gen::Entries;
use sparse_tests::semiring::Masked;
use sparse_tests::sparse_out::{check_output, Stored};

mod k {
    sparse_core::sparse_kernel! {
        #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
        #SV8 = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), posWidth = 8, crdWidth = 16 }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>

        pub fn invert(a: &tensor<?xf64, #SV>, c: &mut tensor<?xi64, #SV>) {
            c[i] = unary(a[i], present = none, absent = || 1);
        }
        pub fn invert8(a: &tensor<?xf64, #SV>, c: &mut tensor<?xi64, #SV8>) {
            c[i] = unary(a[i], present = none, absent = || 1);
        }
        pub fn products(a: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?xf64, #SV>) {
            c[i] = reduce(a[i, j], identity = 1.0, |acc, v| acc * v);
        }
        pub fn products8(a: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?xf64, #SV8>) {
            c[i] = reduce(a[i, j], identity = 1.0, |acc, v| acc * v);
        }
    }
}

fn capacity(needed: usize, capacity: usize) -> KernelError {
    KernelError::Capacity {
        tensor: "c",
        level: 0,
        buffer: Buffer::Coordinates,
        needed,
        capacity,
    }
}

fn vector(n: usize, at: &[usize]) -> Entries<f64> {
    at.iter()
        .filter(|&&i| i < n)
        .map(|&i| (vec![i], 1.5))
        .collect()
}

/// The complement of `a`'s entries, each holding 1.
fn complement(n: usize, a: &Entries<f64>) -> Masked<i64> {
    Masked::from_entries(&[n], a).map(|_, v| if v.is_some() { None } else { Some(1) })
}

#[test]
fn inversion_past_a_fixed_capacity_is_an_exact_error_and_the_output_is_reusable() {
    let mut c = k::SVOut::<i64, Fixed<4>>::with_dims([10]).unwrap();
    let a = vector(10, &[2]);
    let got = with_tensor(&SV, [10], &a, |t| k::invert(t, &mut c));
    assert_eq!(got, Err(capacity(9, 4)));
    assert_eq!(c.number_of_entries(), 0);
    check_output(&c.view(), &Stored::new(), &Dense::zeros(&[10])).unwrap();
    // Six stored entries leave a complement of four: it fits.
    let a = vector(10, &[0, 1, 2, 5, 7, 9]);
    with_tensor(&SV, [10], &a, |t| k::invert(t, &mut c)).unwrap();
    let want = complement(10, &a);
    check_output(&c.view(), &want.stored(), &want.dense()).unwrap();
}

#[test]
fn reduce_stores_every_row_with_a_value_so_it_needs_room_for_them() {
    // Six rows each holding a value (five in one column, one in both): all
    // six are stored.
    let mut a: Vec<(Vec<usize>, f64)> = (0..6).map(|i| (vec![i, i % 2], 2.0)).collect();
    a.insert(4, (vec![3, 0], -1.5));
    let mut c = k::SVOut::<f64, Fixed<4>>::with_dims([6]).unwrap();
    let got = with_tensor(&DCSR, [6, 2], &a, |t| k::products(t, &mut c));
    assert_eq!(got, Err(capacity(6, 4)));
    assert_eq!(c.number_of_entries(), 0);
    check_output(&c.view(), &Stored::new(), &Dense::zeros(&[6])).unwrap();
    // Exactly six fit.
    let mut c = k::SVOut::<f64, Fixed<6>>::with_dims([6]).unwrap();
    with_tensor(&DCSR, [6, 2], &a, |t| k::products(t, &mut c)).unwrap();
    let mut got = Vec::new();
    c.view().for_each(|[i], v| got.push((i, *v)));
    assert_eq!(
        got,
        vec![(0, 2.0), (1, 2.0), (2, 2.0), (3, -3.0), (4, 2.0), (5, 2.0)]
    );
    // Rows with no stored value take no room: four of six fit in four.
    let a: Vec<(Vec<usize>, f64)> = [0, 2, 3, 5].iter().map(|&i| (vec![i, 1], 0.5)).collect();
    let mut c = k::SVOut::<f64, Fixed<4>>::with_dims([6]).unwrap();
    with_tensor(&DCSR, [6, 2], &a, |t| k::products(t, &mut c)).unwrap();
    assert_eq!(c.number_of_entries(), 4);
}

#[test]
fn more_entries_than_positions_can_count_is_a_position_overflow() {
    // posWidth = 8 counts up to 255 entries; the complement of one entry
    // in 300 has 299.
    let a = vector(300, &[150]);
    let mut c = k::SV8Out::<i64, Owned>::with_dims([300]).unwrap();
    let got = with_tensor(&SV, [300], &a, |t| k::invert8(t, &mut c));
    assert_eq!(
        got,
        Err(KernelError::PositionOverflow {
            tensor: "c",
            level: 0,
            entries: 299,
            max: 255,
        })
    );
    assert_eq!(c.number_of_entries(), 0);
    check_output(&c.view(), &Stored::new(), &Dense::zeros(&[300])).unwrap();
    // 255 entries are countable: 45 stored of 300.
    let at: Vec<usize> = (0..45).map(|i| i * 6).collect();
    let a = vector(300, &at);
    with_tensor(&SV, [300], &a, |t| k::invert8(t, &mut c)).unwrap();
    let want = complement(300, &a);
    check_output(&c.view(), &want.stored(), &want.dense()).unwrap();

    // 256 rows each holding a value: 256 entries.
    let full: Vec<(Vec<usize>, f64)> = (0..256).map(|i| (vec![i, 0], 1.0)).collect();
    let mut x = k::SV8Out::<f64, Owned>::with_dims([256]).unwrap();
    let got = with_tensor(&DCSR, [256, 1], &full, |t| k::products8(t, &mut x));
    assert_eq!(
        got,
        Err(KernelError::PositionOverflow {
            tensor: "c",
            level: 0,
            entries: 256,
            max: 255,
        })
    );
    assert_eq!(x.number_of_entries(), 0);
}
