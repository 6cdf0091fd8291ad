//! `unary(x, present = .., absent = ..)` with `present` a closure,
//! `identity` or `none` and `absent` a closure or `none` (six combinations),
//! and `select(x, predicate)` on values, index variables, scalar
//! parameters and expression operands, against a presence-mask reference:
//! `present` where the operand is stored, `absent` everywhere else (a
//! closure there stores every other coordinate: the complement is walked
//! densely, also under a compressed outer level), `select` keeps the stored
//! values its predicate accepts. Vectors and matrices (DCSR into dense, CSR
//! into DCSR) into dense and sparse outputs on every buffer family, `+=`,
//! and a summed index.

use proptest::prelude::*;
use sparse_core::output::{OutputBuffers, Owned};
use sparse_core::{DenseViewMut, Encoding, KernelError, SparseTensor, SparseTensorOut};
use sparse_tests::each_family;
use sparse_tests::fixture::{with_tensor, COO, CSR, DCSR, SV};
use sparse_tests::gen::{dense_vec, dims, elem, entries, Elem, Entries};
use sparse_tests::reference::RefLevel;
use sparse_tests::semiring::{no_empty_segments, select, sum_rows, unary, Masked};
use sparse_tests::sparse_out::check_output;

mod k {
    sparse_core::sparse_kernel! {
        #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), posWidth = 16, crdWidth = 16 }>
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
        #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>

        // v_*: vectors into dense; vs_*: into sparse; m_*: DCSR into dense;
        // ms_*: CSR into DCSR. The suffix names present (f/i/n) and absent
        // (f/n).
        pub fn v_ff(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64>) {
            c[i] = unary(a[i], present = |x| x * x - 1.0, absent = || (i as f64) + 0.5);
        }
        pub fn vs_ff(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = unary(a[i], present = |x| x * x - 1.0, absent = || (i as f64) + 0.5);
        }
        pub fn m_ff(a: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = unary(a[i, j], present = |x| x * (i as f64) - (j as f64), absent = || (i * 10 + j) as f64);
        }
        pub fn ms_ff(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = unary(a[i, j], present = |x| x * (i as f64) - (j as f64), absent = || (i * 10 + j) as f64);
        }
        pub fn v_fn(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64>) {
            c[i] = unary(a[i], present = |x| x * x - 1.0, absent = none);
        }
        pub fn vs_fn(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = unary(a[i], present = |x| x * x - 1.0, absent = none);
        }
        pub fn m_fn(a: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = unary(a[i, j], present = |x| x * (i as f64) - (j as f64), absent = none);
        }
        pub fn ms_fn(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = unary(a[i, j], present = |x| x * (i as f64) - (j as f64), absent = none);
        }
        pub fn v_if(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64>) {
            c[i] = unary(a[i], present = identity, absent = || (i as f64) + 0.5);
        }
        pub fn vs_if(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = unary(a[i], present = identity, absent = || (i as f64) + 0.5);
        }
        pub fn m_if(a: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = unary(a[i, j], present = identity, absent = || (i * 10 + j) as f64);
        }
        pub fn ms_if(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = unary(a[i, j], present = identity, absent = || (i * 10 + j) as f64);
        }
        pub fn v_in(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64>) {
            c[i] = unary(a[i], present = identity, absent = none);
        }
        pub fn vs_in(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = unary(a[i], present = identity, absent = none);
        }
        pub fn m_in(a: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = unary(a[i, j], present = identity, absent = none);
        }
        pub fn ms_in(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = unary(a[i, j], present = identity, absent = none);
        }
        pub fn v_nf(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64>) {
            c[i] = unary(a[i], present = none, absent = || (i as f64) + 0.5);
        }
        pub fn vs_nf(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = unary(a[i], present = none, absent = || (i as f64) + 0.5);
        }
        pub fn m_nf(a: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = unary(a[i, j], present = none, absent = || (i * 10 + j) as f64);
        }
        pub fn ms_nf(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = unary(a[i, j], present = none, absent = || (i * 10 + j) as f64);
        }
        pub fn v_nn(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64>) {
            c[i] = unary(a[i], present = none, absent = none);
        }
        pub fn vs_nn(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = unary(a[i], present = none, absent = none);
        }
        pub fn m_nn(a: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = unary(a[i, j], present = none, absent = none);
        }
        pub fn ms_nn(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = unary(a[i, j], present = none, absent = none);
        }

        pub fn scaled(a: &tensor<?xf64, #SV>, s: f64, c: &mut tensor<?xf64, #SV>) {
            c[i] = unary(a[i], present = |x| x * s, absent = || s);
        }
        pub fn of_product(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xi32, #SV>) {
            c[i] = unary(a[i] * b[i], present = |x| (x * 4.0) as i32, absent = || -1);
        }
        pub fn of_sum(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64>) {
            c[i] = unary(a[i] + b[i], present = none, absent = || 3.0);
        }
        pub fn unary_acc(a: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] += unary(a[i, j], present = |x| x - 1.0, absent = || 0.25);
        }
        pub fn unary_rows(a: &tensor<?x?xf64, #DCSR>, x: &mut tensor<?xf64, #SV>) {
            x[i] = unary(a[i, j], present = none, absent = || (j as f64) + 1.0);
        }

        pub fn keep_above(a: &tensor<?xf64, #SV>, t: f64, c: &mut tensor<?xf64, #SV>) {
            c[i] = select(a[i], |v| v >= t);
        }
        pub fn keep_above_dense(a: &tensor<?xf64, #SV>, t: f64, c: &mut tensor<?xf64>) {
            c[i] = select(a[i], |v| v >= t);
        }
        pub fn keep_nonzero_sum(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = select(a[i] + b[i], |v| v != 0.0);
        }
        pub fn keep_large(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64>) {
            c[i] += select(a[i], |v| abs(v) > 2.0);
        }
        pub fn keep_band(a: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = select(a[i, j], |v| v > (i as f64) - (j as f64));
        }
        pub fn keep_upper(a: &tensor<?x?xf64, #COO>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = select(a[i, j], |_| j >= i);
        }
        pub fn keep_upper_dense(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = select(a[i, j], |_| i <= j);
        }
        pub fn positive_row_sums(a: &tensor<?x?xf64, #DCSR>, x: &mut tensor<?xf64, #SV>) {
            x[i] = sum(j, select(a[i, j], |v| v > 0.0));
        }
        pub fn positive_row_sums_dense(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64>) {
            x[i] = sum(j, select(a[i, j], |v| v > 0.0));
        }
    }
}

/// What a region is in the kernel under test.
#[derive(Clone, Copy, Debug, PartialEq)]
enum R {
    /// A closure.
    F,
    /// `identity`.
    I,
    /// `none`.
    N,
}
use R::{F, I, N};

/// `present = |x| x * x - 1.0`, `absent = || i + 0.5`.
fn vector_reference([p, q]: [R; 2], a: &Masked<f64>) -> Masked<f64> {
    unary(
        a,
        |_, x| match p {
            F => Some(x * x - 1.0),
            I => Some(x),
            N => None,
        },
        |c| (q == F).then(|| c[0] as f64 + 0.5),
    )
}

/// `present = |x| x * i - j`, `absent = || i * 10 + j`.
fn matrix_reference([p, q]: [R; 2], a: &Masked<f64>) -> Masked<f64> {
    unary(
        a,
        |c, x| match p {
            F => Some(x * c[0] as f64 - c[1] as f64),
            I => Some(x),
            N => None,
        },
        |c| (q == F).then(|| (c[0] * 10 + c[1]) as f64),
    )
}

type In<'a, E, const D: usize> = SparseTensor<'a, f64, E, D, D>;
type Out<E, B, const D: usize> = SparseTensorOut<f64, E, B, D, D>;
type Reference = fn([R; 2], &Masked<f64>) -> Masked<f64>;

fn check_dense<E: Encoding, const D: usize>(
    regions: [R; 2],
    layout: &[RefLevel],
    (dims, a): ([usize; D], &Entries<f64>),
    reference: Reference,
    kernel: impl Fn(&In<'_, E, D>, &mut [f64]) -> Result<(), KernelError>,
) -> Result<(), TestCaseError> {
    let want = reference(regions, &Masked::from_entries(&dims, a));
    let mut c = vec![f64::GARBAGE; dims.iter().product()];
    let r = with_tensor(layout, dims, a, |ta| kernel(ta, &mut c));
    prop_assert_eq!(r, Ok(()));
    prop_assert_eq!(
        &c,
        &want.dense().data,
        "{:?} {:?}: a = {:?}",
        regions,
        dims,
        a
    );
    Ok(())
}

fn check_sparse<EA, EC, B, const D: usize>(
    regions: [R; 2],
    layout: &[RefLevel],
    (dims, a, prior): ([usize; D], &Entries<f64>, &Entries<f64>),
    reference: Reference,
    c: &mut Out<EC, B, D>,
    kernel: impl Fn(&In<'_, EA, D>, &mut Out<EC, B, D>) -> Result<(), KernelError>,
) -> Result<(), TestCaseError>
where
    EA: Encoding,
    EC: Encoding,
    B: OutputBuffers<EC::Pos, EC::Crd, f64>,
{
    for x in [prior, a] {
        let r = with_tensor(layout, dims, x, |tx| kernel(tx, &mut *c));
        prop_assert_eq!(r, Ok(()));
        let want = reference(regions, &Masked::from_entries(&dims, x));
        check_output(&c.view(), &want.stored(), &want.dense())
            .map_err(|e| TestCaseError::fail(format!("{regions:?} {dims:?}: a = {x:?}: {e}")))?;
        no_empty_segments(&c.view())
            .map_err(|e| TestCaseError::fail(format!("{regions:?} {dims:?}: a = {x:?}: {e}")))?;
    }
    Ok(())
}

type Operand<'a, const D: usize> = ([usize; D], &'a Entries<f64>, &'a Entries<f64>);

fn every_unary_combination(v: Operand<'_, 1>, m: Operand<'_, 2>) -> Result<(), TestCaseError> {
    macro_rules! combo {
        ($regions:expr, $v:ident, $vs:ident, $m:ident, $ms:ident) => {
            check_dense($regions, &SV, (v.0, v.1), vector_reference, k::$v)?;
            each_family!(v.0, |c| {
                check_sparse($regions, &SV, v, vector_reference, &mut c, k::$vs)?;
            });
            check_dense($regions, &DCSR, (m.0, m.1), matrix_reference, |t, c| {
                k::$m(t, DenseViewMut::new(c, m.0).unwrap())
            })?;
            each_family!(m.0, |c| {
                check_sparse($regions, &CSR, m, matrix_reference, &mut c, k::$ms)?;
            });
        };
    }
    combo!([F, F], v_ff, vs_ff, m_ff, ms_ff);
    combo!([F, N], v_fn, vs_fn, m_fn, ms_fn);
    combo!([I, F], v_if, vs_if, m_if, ms_if);
    combo!([I, N], v_in, vs_in, m_in, ms_in);
    combo!([N, F], v_nf, vs_nf, m_nf, ms_nf);
    combo!([N, N], v_nn, vs_nn, m_nn, ms_nn);
    Ok(())
}

fn fail(what: &str, e: String) -> TestCaseError {
    TestCaseError::fail(format!("{what}: {e}"))
}

/// `a + b`: present where either operand is stored.
fn sum(a: &Masked<f64>, b: &Masked<f64>) -> Masked<f64> {
    a.map(|c, x| match (x, b.at(c)) {
        (None, None) => None,
        (x, y) => Some(x.unwrap_or(0.0) + y.unwrap_or(0.0)),
    })
}

/// The vector operands of one case.
#[derive(Debug)]
struct Vectors {
    n: usize,
    a: Entries<f64>,
    b: Entries<f64>,
    old: Vec<f64>,
    s: f64,
}

/// Runs `kernel` on `a` and `b` into the empty sparse vector `c` and
/// checks it holds exactly `want`.
fn sparse_vector<V, EA, EB, EC>(
    name: &str,
    v: &Vectors,
    want: &Masked<V>,
    mut c: SparseTensorOut<V, EC, Owned, 1, 1>,
    kernel: impl Fn(
        &In<'_, EA, 1>,
        &In<'_, EB, 1>,
        &mut SparseTensorOut<V, EC, Owned, 1, 1>,
    ) -> Result<(), KernelError>,
) -> Result<(), TestCaseError>
where
    V: Elem,
    EA: Encoding,
    EB: Encoding,
    EC: Encoding,
{
    let r = with_tensor(&SV, [v.n], &v.a, |ta| {
        with_tensor(&SV, [v.n], &v.b, |tb| kernel(ta, tb, &mut c))
    });
    prop_assert_eq!(r, Ok(()), "{}", name);
    check_output(&c.view(), &want.stored(), &want.dense())
        .map_err(|e| fail(&format!("{name} {v:?}"), e))
}

fn out<V, E: sparse_core::StoresValues>(n: usize) -> SparseTensorOut<V, E, Owned, 1, 1>
where
    V: Default,
{
    SparseTensorOut::<V, E, Owned, 1, 1>::with_dims([n]).unwrap()
}

fn vector_forms(v: &Vectors) -> Result<(), TestCaseError> {
    let dims = [v.n];
    let ma = Masked::from_entries(&dims, &v.a);
    let mb = Masked::from_entries(&dims, &v.b);
    let s = v.s;

    let want = unary(&ma, |_, x| Some(x * s), |_| Some(s));
    sparse_vector("scaled", v, &want, out(v.n), |a, _: &k::SV<'_, f64>, c| {
        k::scaled(a, s, c)
    })?;
    let product = ma.map(|c, x| x.zip(mb.at(c)).map(|(x, y)| x * y));
    let want = unary(&product, |_, x| Some((x * 4.0) as i32), |_| Some(-1));
    sparse_vector("of_product", v, &want, out(v.n), k::of_product)?;
    let want = select(&ma, |_, x| x >= s);
    sparse_vector(
        "keep_above",
        v,
        &want,
        out(v.n),
        |a, _: &k::SV<'_, f64>, c| k::keep_above(a, s, c),
    )?;
    let want = select(&sum(&ma, &mb), |_, x| x != 0.0);
    sparse_vector("keep_nonzero_sum", v, &want, out(v.n), k::keep_nonzero_sum)?;

    let want = unary(&sum(&ma, &mb), |_, _| None, |_| Some(3.0));
    let mut c = vec![f64::GARBAGE; v.n];
    let r = with_tensor(&SV, dims, &v.a, |ta| {
        with_tensor(&SV, dims, &v.b, |tb| k::of_sum(ta, tb, &mut c))
    });
    prop_assert_eq!(r, Ok(()));
    prop_assert_eq!(&c, &want.dense().data, "of_sum {:?}", v);

    let want = select(&ma, |_, x| x >= s);
    let mut c = vec![f64::GARBAGE; v.n];
    let r = with_tensor(&SV, dims, &v.a, |ta| k::keep_above_dense(ta, s, &mut c));
    prop_assert_eq!(r, Ok(()));
    prop_assert_eq!(&c, &want.dense().data, "keep_above_dense {:?}", v);

    let want = select(&ma, |_, x| x.abs() > 2.0);
    let mut c = v.old.clone();
    let r = with_tensor(&SV, dims, &v.a, |ta| k::keep_large(ta, &mut c));
    prop_assert_eq!(r, Ok(()));
    prop_assert_eq!(&c, &want.added_to(&v.old), "keep_large {:?}", v);
    Ok(())
}

/// The matrix operands of one case.
#[derive(Debug)]
struct Matrices {
    dims: [usize; 2],
    a: Entries<f64>,
    old: Vec<f64>,
}

fn matrix_forms(m: &Matrices) -> Result<(), TestCaseError> {
    let d = m.dims;
    let a = &m.a;
    let ma = Masked::from_entries(&d, a);

    let want = unary(&ma, |_, x| Some(x - 1.0), |_| Some(0.25));
    let mut c = m.old.clone();
    let r = with_tensor(&DCSR, d, a, |t| {
        k::unary_acc(t, DenseViewMut::new(&mut c, d).unwrap())
    });
    prop_assert_eq!(r, Ok(()));
    prop_assert_eq!(&c, &want.added_to(&m.old), "unary_acc {:?}", m);

    let want = select(&ma, |c, v| v > c[0] as f64 - c[1] as f64);
    let mut c = k::CSROut::<f64, Owned>::with_dims(d).unwrap();
    let r = with_tensor(&DCSR, d, a, |t| k::keep_band(t, &mut c));
    prop_assert_eq!(r, Ok(()));
    check_output(&c.view(), &want.stored(), &want.dense())
        .map_err(|e| fail(&format!("keep_band {m:?}"), e))?;

    let want = select(&ma, |c, _| c[1] >= c[0]);
    let mut c = k::DCSROut::<f64, Owned>::with_dims(d).unwrap();
    let r = with_tensor(&COO, d, a, |t| k::keep_upper(t, &mut c));
    prop_assert_eq!(r, Ok(()));
    check_output(&c.view(), &want.stored(), &want.dense())
        .map_err(|e| fail(&format!("keep_upper {m:?}"), e))?;
    let mut c = vec![f64::GARBAGE; d[0] * d[1]];
    let r = with_tensor(&CSR, d, a, |t| {
        k::keep_upper_dense(t, DenseViewMut::new(&mut c, d).unwrap())
    });
    prop_assert_eq!(r, Ok(()));
    prop_assert_eq!(&c, &want.dense().data, "keep_upper_dense {:?}", m);

    let want = sum_rows(&select(&ma, |_, v| v > 0.0));
    let mut x = vec![f64::GARBAGE; d[0]];
    let r = with_tensor(&CSR, d, a, |t| k::positive_row_sums_dense(t, &mut x));
    prop_assert_eq!(r, Ok(()));
    prop_assert_eq!(&x, &want.dense().data, "positive_row_sums_dense {:?}", m);
    Ok(())
}

/// A summed index into a sparse output, which must store exactly the rows
/// where some value was produced: `x[i] = unary(a[i, j], present = none,
/// absent = || j + 1)` (a full row produces none) and `x[i] = select(a[i,
/// j], |v| v > 0.0)` (a row of non-positive entries produces none).
fn summed_rows(m: &Matrices) -> Result<(), TestCaseError> {
    let d = m.dims;
    let a = &m.a;
    let ma = Masked::from_entries(&d, a);
    let want = sum_rows(&unary(&ma, |_, _| None, |c| Some(c[1] as f64 + 1.0)));
    let mut x = k::SVOut::<f64, Owned>::with_dims([d[0]]).unwrap();
    let r = with_tensor(&DCSR, d, a, |t| k::unary_rows(t, &mut x));
    prop_assert_eq!(r, Ok(()));
    check_output(&x.view(), &want.stored(), &want.dense())
        .map_err(|e| fail(&format!("unary_rows {m:?}"), e))?;

    let want = sum_rows(&select(&ma, |_, v| v > 0.0));
    let mut x = k::SVOut::<f64, Owned>::with_dims([d[0]]).unwrap();
    let r = with_tensor(&DCSR, d, a, |t| k::positive_row_sums(t, &mut x));
    prop_assert_eq!(r, Ok(()));
    check_output(&x.view(), &want.stored(), &want.dense())
        .map_err(|e| fail(&format!("positive_row_sums {m:?}"), e))
}

fn two<const RANK: usize>(
    max: usize,
) -> impl Strategy<Value = ([usize; RANK], Entries<f64>, Entries<f64>)> {
    dims::<RANK>(max).prop_flat_map(|d| (Just(d), entries(&d), entries(&d)))
}

fn vectors() -> impl Strategy<Value = Vectors> {
    (0usize..=10).prop_flat_map(|n| {
        (entries(&[n]), entries(&[n]), dense_vec(n), elem())
            .prop_map(move |(a, b, old, s)| Vectors { n, a, b, old, s })
    })
}

fn matrices() -> impl Strategy<Value = Matrices> {
    dims::<2>(6).prop_flat_map(|d| {
        (entries(&d), dense_vec(d[0] * d[1])).prop_map(move |(a, old)| Matrices { dims: d, a, old })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_unary_region_combination(
        ([n], va, vp) in two::<1>(9),
        (d, ma, mp) in two::<2>(5),
    ) {
        every_unary_combination(([n], &va, &vp), (d, &ma, &mp))?;
    }

    #[test]
    fn vector_forms_random(v in vectors()) {
        vector_forms(&v)?;
    }

    #[test]
    fn matrix_forms_random(m in matrices()) {
        matrix_forms(&m)?;
    }

    #[test]
    fn summed_rows_into_a_sparse_output_random(m in matrices()) {
        summed_rows(&m)?;
    }
}

#[test]
fn edge_cases() {
    let none = Vec::new();
    let full: Entries<f64> = (0..5)
        .map(|i| (vec![i], f64::small(i as i32 - 2)))
        .collect();
    let mfull: Entries<f64> = (0..12)
        .map(|p| (vec![p / 4, p % 4], f64::small(p as i32 - 6)))
        .collect();
    for (n, d) in [
        (0, [0, 0]),
        (1, [1, 1]),
        (5, [3, 4]),
        (3, [0, 3]),
        (2, [3, 0]),
    ] {
        every_unary_combination(([n], &none, &none), (d, &none, &none)).unwrap();
    }
    // Full operands (the complement is empty), after empty ones; one entry.
    every_unary_combination(([5], &full, &none), ([3, 4], &mfull, &none)).unwrap();
    let one = vec![(vec![2], 0.0)];
    let mone = vec![(vec![1, 3], 0.0)];
    every_unary_combination(([5], &one, &full), ([3, 4], &mone, &mfull)).unwrap();
    // Whole rows missing under DCSR's compressed outer level.
    let rows = vec![(vec![1, 0], 2.0), (vec![1, 2], -1.0)];
    every_unary_combination(([5], &one, &none), ([4, 3], &rows, &none)).unwrap();
    let m = Matrices {
        dims: [4, 3],
        a: rows,
        old: vec![1.0; 12],
    };
    matrix_forms(&m).unwrap();
    summed_rows(&m).unwrap();
}

#[test]
fn summed_rows_store_only_rows_with_a_produced_value() {
    // Row 0 is full: `absent` never runs there, so nothing is produced and
    // the sparse output stores nothing for it. Row 1 has column 1 absent.
    let a = vec![(vec![0, 0], 1.0), (vec![0, 1], 2.0), (vec![1, 0], 3.0)];
    let mut x = k::SVOut::<f64, Owned>::with_dims([2]).unwrap();
    with_tensor(&DCSR, [2, 2], &a, |t| k::unary_rows(t, &mut x)).unwrap();
    let mut got = Vec::new();
    x.view().for_each(|[i], v| got.push((i, *v)));
    assert_eq!(got, vec![(1, 2.0)]);
    // Row 0 holds only a non-positive entry: nothing selected, nothing
    // stored; row 1 holds 3.
    let a = vec![(vec![0, 1], -1.0), (vec![1, 0], 3.0)];
    let mut x = k::SVOut::<f64, Owned>::with_dims([2]).unwrap();
    with_tensor(&DCSR, [2, 2], &a, |t| k::positive_row_sums(t, &mut x)).unwrap();
    let mut got = Vec::new();
    x.view().for_each(|[i], v| got.push((i, *v)));
    assert_eq!(got, vec![(1, 3.0)]);
}

#[test]
fn inversion_of_a_dcsr_matrix_walks_missing_rows() {
    // Row 0 and 2 are not stored at all in the DCSR operand: absent fills
    // them.
    let a = vec![(vec![1, 1], 5.0)];
    let mut c = vec![7.0; 6];
    with_tensor(&DCSR, [3, 2], &a, |t| {
        k::m_nf(t, DenseViewMut::new(&mut c, [3, 2]).unwrap())
    })
    .unwrap();
    assert_eq!(c, [0.0, 1.0, 10.0, 0.0, 20.0, 21.0]);
}
