//! Comparisons, logic and the choice `if c { a } else { b }` (issue 10,
//! item 6), with MLIR's sparsity rules: a comparison of two sparse operands
//! runs on the union of their entries, an absent operand reading as zero,
//! and is `false` (the implicit zero) where neither stores one, even for
//! `==` (MLIR's `disjSetWithZero`, checked with the upstream sparsifier);
//! against a literal it holds everywhere (`a[i] < 1.0` is `true` where `a`
//! stores nothing). `&&` is a conjunction, `||` a union, `!` holds where its
//! operand is absent; a choice is zero where none of its operands is
//! present.

use proptest::prelude::*;
use sparse_core::output::Owned;
use sparse_tests::fixture::{with_tensor, CSR, SV};
use sparse_tests::gen::{dims, entries, Entries};

mod k {
    sparse_core::sparse_kernel! {
        #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

        pub fn less(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xi1>) {
            c[i] = a[i] < b[i];
        }
        pub fn equal_i8(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xi8>) {
            c[i] = (a[i] == b[i]) as i8;
        }
        pub fn equal_sparse(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xi1, #SV>) {
            c[i] = a[i] == b[i];
        }
        pub fn below_one(a: &tensor<?xf64, #SV>, c: &mut tensor<?xi1>) {
            c[i] = a[i] < 1.0;
        }
        pub fn relu(a: &tensor<?xf64, #SV>, y: &mut tensor<?xf64>) {
            y[i] = if a[i] > 0.0 { a[i] } else { 0.0 };
        }
        pub fn larger(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, y: &mut tensor<?xf64, #SV>) {
            y[i] = if a[i] >= b[i] { a[i] } else { b[i] };
        }
        pub fn both(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xi1>) {
            c[i] = a[i] > 1.0 && b[i] != 0.0;
        }
        pub fn either(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xi1>) {
            c[i] = a[i] > 1.0 || b[i] < -1.0;
        }
        pub fn not_positive(a: &tensor<?xf64, #SV>, c: &mut tensor<?xi1>) {
            c[i] = !(a[i] > 0.0);
        }
        pub fn masked(m: &tensor<?x?xf64, #CSR>, a: &tensor<?x?xf64, #CSR>, y: &mut tensor<?x?xf64>) {
            y[i, j] = if m[i, j] > 0.0 { a[i, j] } else { -a[i, j] };
        }
        pub fn count_above(a: &tensor<?x?xf64, #CSR>, t: f64, y: &mut tensor<?xi32>) {
            y[i] = sum(j, if a[i, j] > t { 1 } else { 0 });
        }
    }
}

/// The dense vector of `e` and which coordinates it stores.
fn dense(n: usize, e: &Entries<f64>) -> (Vec<f64>, Vec<bool>) {
    let mut v = vec![0.0; n];
    let mut p = vec![false; n];
    for (c, x) in e {
        v[c[0]] = *x;
        p[c[0]] = true;
    }
    (v, p)
}

fn vectors() -> impl Strategy<Value = (usize, Entries<f64>, Entries<f64>)> {
    dims::<1>(9).prop_flat_map(|d| (Just(d[0]), entries::<f64>(&d), entries::<f64>(&d)))
}

proptest! {
    #[test]
    fn comparisons_and_choices_follow_mlir((n, ea, eb) in vectors()) {
        let (a, pa) = dense(n, &ea);
        let (b, pb) = dense(n, &eb);
        let any = |i: usize| pa[i] || pb[i];
        let run = |f: &mut dyn FnMut(&sparse_core::SparseTensor<'_, f64, _, 1, 1>, &sparse_core::SparseTensor<'_, f64, _, 1, 1>)| {
            with_tensor(&SV, [n], &ea, |ta| with_tensor(&SV, [n], &eb, |tb| f(ta, tb)))
        };
        let mut c = vec![true; n];
        run(&mut |ta, tb| k::less(ta, tb, &mut c).unwrap());
        prop_assert_eq!(&c, &(0..n).map(|i| any(i) && a[i] < b[i]).collect::<Vec<_>>());

        let mut c8 = vec![7i8; n];
        run(&mut |ta, tb| k::equal_i8(ta, tb, &mut c8).unwrap());
        let want: Vec<i8> = (0..n).map(|i| i8::from(any(i) && a[i] == b[i])).collect();
        prop_assert_eq!(&c8, &want);

        let mut cs = k::SVOut::<bool, Owned>::with_dims([n]).unwrap();
        run(&mut |ta, tb| k::equal_sparse(ta, tb, &mut cs).unwrap());
        let mut stored = Vec::new();
        cs.view().for_each(|[i], v| stored.push((i, *v)));
        let want: Vec<(usize, bool)> = (0..n).filter(|&i| any(i)).map(|i| (i, a[i] == b[i])).collect();
        prop_assert_eq!(stored, want);

        let mut c = vec![false; n];
        with_tensor(&SV, [n], &ea, |ta| k::below_one(ta, &mut c)).unwrap();
        prop_assert_eq!(&c, &a.iter().map(|&x| x < 1.0).collect::<Vec<_>>());

        let mut y = vec![7.0; n];
        with_tensor(&SV, [n], &ea, |ta| k::relu(ta, &mut y)).unwrap();
        prop_assert_eq!(&y, &a.iter().map(|&x| if x > 0.0 { x } else { 0.0 }).collect::<Vec<_>>());

        let mut ys = k::SVOut::<f64, Owned>::with_dims([n]).unwrap();
        run(&mut |ta, tb| k::larger(ta, tb, &mut ys).unwrap());
        let mut stored = Vec::new();
        ys.view().for_each(|[i], v| stored.push((i, *v)));
        let want: Vec<(usize, f64)> =
            (0..n).filter(|&i| any(i)).map(|i| (i, if a[i] >= b[i] { a[i] } else { b[i] })).collect();
        prop_assert_eq!(stored, want);

        let mut c = vec![true; n];
        run(&mut |ta, tb| k::both(ta, tb, &mut c).unwrap());
        prop_assert_eq!(&c, &(0..n).map(|i| pa[i] && pb[i] && a[i] > 1.0 && b[i] != 0.0).collect::<Vec<_>>());

        let mut c = vec![true; n];
        run(&mut |ta, tb| k::either(ta, tb, &mut c).unwrap());
        prop_assert_eq!(&c, &(0..n).map(|i| a[i] > 1.0 || b[i] < -1.0).collect::<Vec<_>>());

        let mut c = vec![false; n];
        with_tensor(&SV, [n], &ea, |ta| k::not_positive(ta, &mut c)).unwrap();
        prop_assert_eq!(&c, &a.iter().map(|&x| x <= 0.0).collect::<Vec<_>>());
    }

    #[test]
    fn masks_and_counts_over_matrices(
        (d, ea, em) in dims::<2>(6).prop_flat_map(|d| (Just(d), entries::<f64>(&d), entries::<f64>(&d))),
        t in -2i32..3,
    ) {
        let (m, n) = (d[0], d[1]);
        // The mask holds where its stored entry is positive.
        let mask = em.clone();
        let mut a = vec![0.0; m * n];
        let mut pa = vec![false; m * n];
        for (c, v) in &ea {
            a[c[0] * n + c[1]] = *v;
            pa[c[0] * n + c[1]] = true;
        }
        let mut mv = vec![false; m * n];
        let mut pm = vec![false; m * n];
        for (c, v) in &mask {
            mv[c[0] * n + c[1]] = *v > 0.0;
            pm[c[0] * n + c[1]] = true;
        }
        let mut y = vec![7.0; m * n];
        with_tensor(&CSR, d, &mask, |tm| with_tensor(&CSR, d, &ea, |ta| {
            k::masked(tm, ta, sparse_core::DenseViewMut::new(&mut y, [m, n]).unwrap())
        })).unwrap();
        // Zero where neither stores an entry; elsewhere the choice on the
        // values read with zeros for the absent one.
        let want: Vec<f64> = (0..m * n)
            .map(|o| if !(pa[o] || pm[o]) { 0.0 } else if mv[o] { a[o] } else { -a[o] })
            .collect();
        prop_assert_eq!(&y, &want);

        let t = f64::from(t);
        let mut y = vec![7i32; m];
        with_tensor(&CSR, d, &ea, |ta| k::count_above(ta, t, &mut y)).unwrap();
        // `a[i, j] > t` holds at implicit zeros too when `t < 0`.
        let want: Vec<i32> = (0..m)
            .map(|i| (0..n).filter(|&j| a[i * n + j] > t).count() as i32)
            .collect();
        prop_assert_eq!(&y, &want);
    }
}
