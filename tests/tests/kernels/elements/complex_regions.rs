//! Semiring regions over complex values: closures typed `Complex<f64>`,
//! complex math functions inside them (`exp(x)`, `x.conj()`), a custom
//! product reduction, into dense and sparse outputs, against dense
//! references that evaluate each region on the stored entries only.

use proptest::prelude::*;
use sparse_core::num_complex::Complex;
use sparse_core::output::Owned;
use sparse_core::SparseTensor;
use sparse_tests::dense::Dense;
use sparse_tests::fixture::{with_tensor, CSR, SV};
use sparse_tests::gen::{sparse, Elem, Entries};

type C64 = Complex<f64>;

mod k {
    use sparse_core::num_complex::Complex;

    sparse_core::sparse_kernel! {
        #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

        pub fn bin(a: &tensor<?xcomplex<f64>, #SV>, b: &tensor<?xcomplex<f64>, #SV>, c: &mut tensor<?xcomplex<f64>, #SV>) {
            c[i] = binary(a[i], b[i], overlap = |x, y| x * y.conj(), left = identity, right = |y| -y);
        }
        pub fn un(a: &tensor<?xcomplex<f64>, #SV>, c: &mut tensor<?xcomplex<f64>>) {
            c[i] = unary(a[i], present = |x| exp(x) - 1.0, absent = none);
        }
        pub fn prod_rows(a: &tensor<?x?xcomplex<f64>, #CSR>, x: &mut tensor<?xcomplex<f64>>) {
            x[i] = reduce(a[i, j], identity = Complex::new(1.0, 0.0), |acc, v| acc * v);
        }
        pub fn big(a: &tensor<?xcomplex<f64>, #SV>, c: &mut tensor<?xcomplex<f64>, #SV>) {
            c[i] = select(a[i], |v| abs(v) > 1.0);
        }
    }
}

/// The stored entries of a vector, duplicates summed (the builder stores
/// each coordinate once).
fn stored(n: usize, e: &Entries<C64>) -> Vec<Option<C64>> {
    let mut v = vec![None; n];
    for (c, x) in e {
        let slot = v[c[0]].get_or_insert(C64::ZERO);
        *slot += *x;
    }
    v
}

fn vectors() -> impl Strategy<Value = (usize, Entries<C64>, Entries<C64>)> {
    sparse::<C64, 1>(12)
        .prop_flat_map(|(d, e)| (Just(d[0]), Just(e), sparse_tests::gen::entries::<C64>(&d)))
}

fn check_out(got: &SparseTensor<'_, C64, impl sparse_core::Encoding, 1, 1>, want: &[Option<C64>]) {
    let mut seen = vec![None; want.len()];
    got.for_each(|c, v| seen[c[0]] = Some(*v));
    assert_eq!(seen, want);
}

proptest! {
    #[test]
    fn binary_regions((n, ea, eb) in vectors()) {
        let (a, b) = (stored(n, &ea), stored(n, &eb));
        let want: Vec<Option<C64>> = a
            .iter()
            .zip(&b)
            .map(|p| match p {
                (Some(x), Some(y)) => Some(x * y.conj()),
                (Some(x), None) => Some(*x),
                (None, Some(y)) => Some(-y),
                (None, None) => None,
            })
            .collect();
        let mut c = k::SVOut::<C64, Owned>::with_dims([n]).unwrap();
        with_tensor(&SV, [n], &ea, |ta| {
            with_tensor(&SV, [n], &eb, |tb| k::bin(ta, tb, &mut c))
        })
        .unwrap();
        check_out(&c.view(), &want);
    }

    #[test]
    fn unary_and_select((n, ea, _e) in vectors()) {
        let a = stored(n, &ea);
        let mut c = vec![C64::GARBAGE; n];
        with_tensor(&SV, [n], &ea, |ta| k::un(ta, &mut c)).unwrap();
        let want: Vec<C64> = a.iter().map(|x| x.map_or(C64::ZERO, |x| x.exp() - 1.0)).collect();
        for (g, w) in c.iter().zip(&want) {
            prop_assert!((g - w).norm() <= 1e-12 * w.norm().max(1.0), "{:?} vs {:?}", c, want);
        }
        let mut s = k::SVOut::<C64, Owned>::with_dims([n]).unwrap();
        with_tensor(&SV, [n], &ea, |ta| k::big(ta, &mut s)).unwrap();
        let kept: Vec<Option<C64>> = a.iter().map(|x| x.filter(|x| x.norm() > 1.0)).collect();
        check_out(&s.view(), &kept);
    }

    #[test]
    fn product_reduction_folds_stored_values((dims, e) in sparse::<C64, 2>(6)) {
        let mut present = vec![vec![]; dims[0]];
        let a = Dense::from_entries(&dims, &e);
        let mut seen = std::collections::BTreeSet::new();
        for (c, _) in &e {
            if seen.insert((c[0], c[1])) {
                present[c[0]].push(a.at(&[c[0], c[1]]));
            }
        }
        let want: Vec<C64> = present
            .iter()
            .map(|row| row.iter().fold(C64::new(1.0, 0.0), |acc, v| acc * v))
            .collect();
        let mut x = vec![C64::GARBAGE; dims[0]];
        with_tensor(&CSR, dims, &e, |t| k::prod_rows(t, &mut x)).unwrap();
        prop_assert_eq!(x, want);
    }
}
