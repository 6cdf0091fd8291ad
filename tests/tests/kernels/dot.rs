//! The dot product of two sparse vectors, `s[] += a[i] * b[i]` and
//! `s[] = a[i] * b[i]` (intersection co-iteration into a scalar), generated
//! by `sparse_kernel!`, against a dense sum; operands with different index
//! widths, a sparse-dense dot, 8-bit widths at their maximum, f64 and i32.

use proptest::prelude::*;
use sparse_core::{Encoding, KernelError, SparseTensor};
use sparse_tests::dense::Dense;
use sparse_tests::fixture::{with_tensor, SV};
use sparse_tests::gen::{dense_vec, elem, entries, Elem, Entries};

mod k {
    sparse_core::sparse_kernel! {
        #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
        #SV16 = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), posWidth = 16, crdWidth = 16 }>
        #SV8 = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), posWidth = 8, crdWidth = 8 }>

        pub fn dot(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV16>, s: &mut tensor<f64>) {
            s[] += a[i] * b[i];
        }
        pub fn dot_assign(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV16>, s: &mut tensor<f64>) {
            s[] = a[i] * b[i];
        }
        pub fn dot8(a: &tensor<?xf64, #SV8>, b: &tensor<?xf64, #SV8>, s: &mut tensor<f64>) {
            s[] = a[i] * b[i];
        }
        pub fn dot_dense(a: &tensor<?xf64, #SV16>, x: &tensor<?xf64>, s: &mut tensor<f64>) {
            s[] += a[i] * x[i];
        }
        pub fn dot_i32(a: &tensor<?xi32, #SV>, b: &tensor<?xi32, #SV8>, s: &mut tensor<i32>) {
            s[] += a[i] * b[i];
        }
    }
}

type Vector<'a, V, E> = SparseTensor<'a, V, E, 1, 1>;

fn dense_dot<V: Elem>(n: usize, a: &Entries<V>, b: &[V]) -> V {
    let a = Dense::from_entries(&[n], a);
    (0..n).fold(V::ZERO, |s, i| s + a.at(&[i]) * b[i])
}

/// `s0 + a . b` (or `a . b` into garbage when `s0` is `None`).
fn check<V: Elem, EA: Encoding, EB: Encoding>(
    n: usize,
    a: &Entries<V>,
    b: &Entries<V>,
    s0: Option<V>,
    kernel: impl Fn(&Vector<'_, V, EA>, &Vector<'_, V, EB>, &mut V) -> Result<(), KernelError>,
) -> Result<(), TestCaseError> {
    let want = s0.unwrap_or(V::ZERO) + dense_dot(n, a, &Dense::from_entries(&[n], b).data);
    let mut s = s0.unwrap_or(V::GARBAGE);
    let got = with_tensor(&SV, [n], a, |ta| {
        with_tensor(&SV, [n], b, |tb| kernel(ta, tb, &mut s))
    });
    prop_assert_eq!(got, Ok(()));
    prop_assert_eq!(
        s,
        want,
        "n = {}, a = {:?}, b = {:?}, s0 = {:?}",
        n,
        a,
        b,
        s0
    );
    Ok(())
}

type Input<V> = (usize, Entries<V>, Entries<V>, V);

fn input<V: Elem>() -> impl Strategy<Value = Input<V>> {
    (0usize..=12).prop_flat_map(|n| (Just(n), entries::<V>(&[n]), entries::<V>(&[n]), elem::<V>()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn sparse_sparse((n, a, b, s0) in input::<f64>()) {
        check(n, &a, &b, Some(s0), k::dot)?;
        check(n, &a, &b, None, k::dot_assign)?;
        check(n, &a, &b, None, k::dot8)?;
    }

    #[test]
    fn sparse_sparse_i32((n, a, b, s0) in input::<i32>()) {
        check(n, &a, &b, Some(s0), k::dot_i32)?;
    }

    #[test]
    fn sparse_dense(
        (n, a, x, s0) in (0usize..=12).prop_flat_map(|n| {
            (Just(n), entries::<f64>(&[n]), dense_vec::<f64>(n), elem::<f64>())
        }),
    ) {
        let want = s0 + dense_dot(n, &a, &x);
        let mut s = s0;
        let got = with_tensor(&SV, [n], &a, |ta| k::dot_dense(ta, &x, &mut s));
        prop_assert_eq!(got, Ok(()));
        prop_assert_eq!(s, want);
    }
}

fn at(entries: &[(usize, i32)]) -> Entries<f64> {
    entries
        .iter()
        .map(|&(c, k)| (vec![c], f64::small(k)))
        .collect()
}

fn every_kernel(n: usize, a: &Entries<f64>, b: &Entries<f64>) {
    check(n, a, b, Some(2.5), k::dot).unwrap();
    check(n, a, b, None, k::dot_assign).unwrap();
    check(n, b, a, None, k::dot_assign).unwrap();
    check(n, a, b, None, k::dot8).unwrap();
}

#[test]
fn edge_cases() {
    // Empty operands, one or both; 0-sized vectors.
    every_kernel(0, &Vec::new(), &Vec::new());
    every_kernel(5, &Vec::new(), &Vec::new());
    every_kernel(5, &at(&[(1, 4), (3, 2)]), &Vec::new());
    // Disjoint supports: the intersection is empty, `=` still writes 0.
    every_kernel(
        6,
        &at(&[(0, 4), (2, 2), (4, 1)]),
        &at(&[(1, 4), (3, 2), (5, 1)]),
    );
    // A single common entry, at either end.
    every_kernel(6, &at(&[(0, 3)]), &at(&[(0, -5), (4, 1)]));
    every_kernel(6, &at(&[(2, 1), (5, 3)]), &at(&[(5, -5)]));
    // Explicit zeros meeting non-zeros.
    every_kernel(
        4,
        &at(&[(0, 0), (1, 0), (3, 8)]),
        &at(&[(0, 7), (1, 0), (3, 0)]),
    );
    // Both full.
    let full = at(&[(0, 1), (1, -2), (2, 3)]);
    every_kernel(3, &full, &full);
}

#[test]
fn coordinates_at_the_maximum_of_8_and_16_bit_widths() {
    // crdWidth = 8: length 256, entries at 255; posWidth = 8: 255 entries.
    let a = at(&[(0, 1), (255, 3)]);
    let b = at(&[(7, 2), (255, -4)]);
    check(256, &a, &b, None, k::dot8).unwrap();
    let dense_a: Entries<f64> = (1..256)
        .map(|i| (vec![i], f64::small(i as i32 % 5 - 2)))
        .collect();
    let dense_b: Entries<f64> = (0..255)
        .map(|i| (vec![i], f64::small(i as i32 % 7 - 3)))
        .collect();
    check(256, &dense_a, &dense_b, None, k::dot8).unwrap();
    check(256, &dense_a, &a, None, k::dot8).unwrap();
    // `b` of `dot` is 16-bit: coordinate 65535, and 65535 entries.
    let far = at(&[(65535, 5), (3, 1)]);
    let many: Entries<f64> = (1..65536)
        .map(|i| (vec![i], f64::small(i as i32 % 9 - 4)))
        .collect();
    check(65536, &far, &many, Some(0.5), k::dot).unwrap();
    check(65536, &many, &far, None, k::dot_assign).unwrap();
}

#[test]
fn size_mismatch_is_an_error() {
    let mut s = 4.25;
    let got = with_tensor(&SV, [5], &at(&[(1, 1)]), |a| {
        with_tensor(&SV, [6], &at(&[(1, 1)]), |b| k::dot(a, b, &mut s))
    });
    let want = KernelError::DimensionMismatch {
        tensor: "b",
        dim: 0,
        size: 6,
        index: "i",
        expected: 5,
        bound_by: "a",
        bound_dim: 0,
    };
    assert_eq!(got, Err(want));
    assert_eq!(s, 4.25);
    let got = with_tensor(&SV, [5], &at(&[(1, 1)]), |a| {
        k::dot_dense(a, &[1.0; 4], &mut s)
    });
    let want = KernelError::DimensionMismatch {
        tensor: "x",
        dim: 0,
        size: 4,
        index: "i",
        expected: 5,
        bound_by: "a",
        bound_dim: 0,
    };
    assert_eq!(got, Err(want));
    assert_eq!(s, 4.25);
}
