//! Parallel kernels into sparse outputs written per row (CSR and DCSR):
//! scaling, sparse + sparse (co-iteration inside the row), SpGEMM (a
//! workspace per chunk) and SDDMM; over CSR and DCSR inputs (a dense and a
//! compressed outer loop), into `Owned`, `Fixed` and `Slices` outputs. Each parallel
//! kernel's storage (positions, coordinates, value bits) is the sequential
//! kernel's, and with exact values the result is the dense reference's.
//! Capacity and `posWidth` errors are the sequential kernel's too, with
//! the output left empty and valid.

use std::collections::BTreeMap;

use proptest::prelude::*;
use sparse_core::{DenseView, Encoding, Fixed, Index, KernelError, Owned, Slices, SparseTensor};
use sparse_tests::dense::Dense;
use sparse_tests::fixture::{with_tensor, CSR, DCSR};
use sparse_tests::gen::Entries;
use sparse_tests::sparse_out::{check_output, map_values, stored, union, Caps, SliceStore, Stored};

use super::common::{on_threads, random, rough, roughen, shapes, small, vector};

mod k {
    sparse_core::sparse_kernel! {
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 16 }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
        #CSR8 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 8 }>

        pub fn scale_csr(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) { c[i, j] = a[i, j] * 2.5; }
        #[parallel]
        pub fn par_scale_csr(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) { c[i, j] = a[i, j] * 2.5; }
        pub fn scale_dcsr(a: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #DCSR>) { c[i, j] = a[i, j] * 2.5; }
        #[parallel]
        pub fn par_scale_dcsr(a: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #DCSR>) { c[i, j] = a[i, j] * 2.5; }
        /// A compressed outer loop into a CSR output (rows it skips stay empty).
        pub fn scale_dcsr_csr(a: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #CSR>) { c[i, j] = a[i, j] * 2.5; }
        #[parallel]
        pub fn par_scale_dcsr_csr(a: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #CSR>) { c[i, j] = a[i, j] * 2.5; }
        pub fn scale_csr8(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR8>) { c[i, j] = a[i, j] * 2.5; }
        #[parallel]
        pub fn par_scale_csr8(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR8>) { c[i, j] = a[i, j] * 2.5; }

        pub fn add_csr(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) { c[i, j] = a[i, j] + b[i, j]; }
        #[parallel]
        pub fn par_add_csr(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) { c[i, j] = a[i, j] + b[i, j]; }
        pub fn add_csr_dcsr(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #DCSR>) { c[i, j] = a[i, j] - b[i, j]; }
        #[parallel]
        pub fn par_add_csr_dcsr(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #DCSR>) { c[i, j] = a[i, j] - b[i, j]; }
        /// The outer loop merges `a` and `b`'s rows: chunks of rows, each
        /// merging the entries of its rows.
        pub fn add_dcsr(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #DCSR>) { c[i, j] = a[i, j] + b[i, j]; }
        #[parallel]
        pub fn par_add_dcsr(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #DCSR>) { c[i, j] = a[i, j] + b[i, j]; }

        pub fn spgemm_csr(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) { c[i, j] = a[i, k] * b[k, j]; }
        #[parallel]
        pub fn par_spgemm_csr(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) { c[i, j] = a[i, k] * b[k, j]; }
        pub fn spgemm_dcsr(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #DCSR>) { c[i, j] = a[i, k] * b[k, j]; }
        #[parallel]
        pub fn par_spgemm_dcsr(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #DCSR>) { c[i, j] = a[i, k] * b[k, j]; }

        pub fn sddmm_csr(s: &tensor<?x?xf64, #CSR>, u: &tensor<?x?xf64>, v: &tensor<?x?xf64>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = s[i, j] * (u[i, k] * v[k, j]);
        }
        #[parallel]
        pub fn par_sddmm_csr(s: &tensor<?x?xf64, #CSR>, u: &tensor<?x?xf64>, v: &tensor<?x?xf64>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = s[i, j] * (u[i, k] * v[k, j]);
        }
    }
}

/// An output's storage: positions and coordinates per level (as `u64`),
/// and the values' bit patterns.
type Storage = (Vec<Vec<u64>>, Vec<Vec<u64>>, Vec<u64>);

fn storage<E: Encoding, const L: usize>(t: &SparseTensor<'_, f64, E, 2, L>) -> Storage {
    let (mut pos, mut crd) = (Vec::new(), Vec::new());
    for l in 0..L {
        pos.push(t.level(l).positions().iter().map(|p| p.to_u64()).collect());
        crd.push(
            t.level(l)
                .coordinates()
                .iter()
                .map(|c| c.to_u64())
                .collect(),
        );
    }
    let val = t.values().iter().map(|v| v.to_bits()).collect();
    (pos, crd, val)
}

/// Runs the sequential kernel into `seq` and the parallel one into `par`
/// (twice: a reused output gives the same), requires the same result (or
/// error) and the same storage bit for bit, and returns the parallel
/// output's storage.
macro_rules! both {
    ($what:expr, $seq:expr, $par:expr, |$c:ident| $run_seq:expr, $run_par:expr) => {{
        let (mut seq, mut par) = ($seq, $par);
        let want = {
            let $c = &mut seq;
            $run_seq
        };
        for round in 0..2 {
            let got = on_threads(|| {
                let $c = &mut par;
                $run_par
            });
            assert_eq!(
                got, want,
                "{}: parallel vs sequential result (call {round})",
                $what
            );
            assert_eq!(
                storage(&par.view()),
                storage(&seq.view()),
                "{}: parallel vs sequential storage (call {round})",
                $what
            );
            assert_eq!(par.view().dim_sizes(), seq.view().dim_sizes());
        }
        (want, par)
    }};
}

/// `e` with every column moved by one (mod `n`) and other values: a second
/// operand that overlaps `e` in some entries and not in others.
fn shifted(e: &Entries<f64>, n: usize, value: impl Fn(usize) -> f64) -> Entries<f64> {
    let mut m: BTreeMap<Vec<usize>, f64> = BTreeMap::new();
    for (k, (c, _)) in e.iter().enumerate() {
        if k % 3 != 2 {
            m.insert(vec![c[0], (c[1] + 1) % n.max(1)], value(k + 500));
        }
    }
    m.into_iter().collect()
}

/// The structural product `a b` (every `(i, j)` some `k` reaches, explicit
/// zeros included), as the workspace stores it.
fn product(a: &Stored<f64>, b: &Stored<f64>) -> Stored<f64> {
    let mut out = Stored::new();
    for (ca, x) in a {
        for (cb, y) in b.range(vec![ca[1], 0]..vec![ca[1] + 1, 0]) {
            *out.entry(vec![ca[0], cb[1]]).or_insert(0.0) += x * y;
        }
    }
    out
}

/// With exact values, `got` must hold exactly `want` (checked through
/// `assemble` and against the dense tensor of `want`).
fn expect<E: Encoding>(
    exact: bool,
    what: &str,
    got: &SparseTensor<'_, f64, E, 2, 2>,
    want: &Stored<f64>,
    dims: [usize; 2],
    form: &str,
) {
    if exact {
        check_output(got, want, &dense_of(dims, want))
            .unwrap_or_else(|err| panic!("{what}: {form} against dense: {err}"));
    }
}

fn dense_of(dims: [usize; 2], s: &Stored<f64>) -> Dense<f64> {
    let e: Entries<f64> = s.iter().map(|(c, v)| (c.clone(), *v)).collect();
    Dense::from_entries(&dims, &e)
}

fn check(dims: [usize; 2], e: &Entries<f64>, exact: bool, what: &str) {
    let [m, n] = dims;
    let owned = || k::CSROut::<f64, Owned>::with_dims(dims).unwrap();
    let owned_d = || k::DCSROut::<f64, Owned>::with_dims(dims).unwrap();
    let sa = stored(e);

    // Scaling: CSR -> CSR, DCSR -> DCSR, DCSR -> CSR (compressed outer loop).
    let scaled = map_values(&sa, |v| v * 2.5);
    with_tensor(&CSR, dims, e, |a| {
        let (_, c) = both!(
            what,
            owned(),
            owned(),
            |c| k::scale_csr(a, c),
            k::par_scale_csr(a, c)
        );
        expect(exact, what, &c.view(), &scaled, dims, "scale CSR");
    });
    with_tensor(&DCSR, dims, e, |a| {
        let (_, c) = both!(
            what,
            owned_d(),
            owned_d(),
            |c| k::scale_dcsr(a, c),
            k::par_scale_dcsr(a, c)
        );
        expect(exact, what, &c.view(), &scaled, dims, "scale DCSR");
        let (_, c) = both!(
            what,
            owned(),
            owned(),
            |c| k::scale_dcsr_csr(a, c),
            k::par_scale_dcsr_csr(a, c)
        );
        expect(exact, what, &c.view(), &scaled, dims, "scale DCSR into CSR");
    });

    // Sparse + sparse, merged inside each row.
    let value = if exact { small } else { rough };
    let eb = shifted(e, n, value);
    let sb = stored(&eb);
    with_tensor(&CSR, dims, e, |a| {
        with_tensor(&CSR, dims, &eb, |b| {
            let (_, c) = both!(
                what,
                owned(),
                owned(),
                |c| k::add_csr(a, b, c),
                k::par_add_csr(a, b, c)
            );
            expect(
                exact,
                what,
                &c.view(),
                &union(&sa, &sb, |x, y| x + y),
                dims,
                "add CSR",
            );
            let (_, c) = both!(
                what,
                owned_d(),
                owned_d(),
                |c| k::add_csr_dcsr(a, b, c),
                k::par_add_csr_dcsr(a, b, c)
            );
            expect(
                exact,
                what,
                &c.view(),
                &union(&sa, &sb, |x, y| x - y),
                dims,
                "sub into DCSR",
            );
        });
    });
    with_tensor(&DCSR, dims, e, |a| {
        with_tensor(&DCSR, dims, &eb, |b| {
            let (_, c) = both!(
                what,
                owned_d(),
                owned_d(),
                |c| k::add_dcsr(a, b, c),
                k::par_add_dcsr(a, b, c)
            );
            expect(
                exact,
                what,
                &c.view(),
                &union(&sa, &sb, |x, y| x + y),
                dims,
                "add DCSR",
            );
        });
    });

    // SpGEMM: `a` (m x n) times `b` (n x 5), a workspace per chunk.
    let p = 5;
    let ebt: Entries<f64> = shifted(e, n, value)
        .into_iter()
        .filter(|(c, _)| c[0] < n)
        .map(|(c, v)| (vec![c[0], (c[1] * 3) % p], v))
        .collect::<BTreeMap<_, _>>()
        .into_iter()
        .collect();
    // `b` is n x p: reuse `a`'s rows below `n`, columns folded into `0..p`.
    let b_dims = [n, p];
    let sbt = stored(&ebt);
    let want = product(&sa, &sbt);
    let owned_p = || k::CSROut::<f64, Owned>::with_dims([m, p]).unwrap();
    let owned_pd = || k::DCSROut::<f64, Owned>::with_dims([m, p]).unwrap();
    with_tensor(&CSR, b_dims, &ebt, |b| {
        with_tensor(&CSR, dims, e, |a| {
            let (_, c) = both!(
                what,
                owned_p(),
                owned_p(),
                |c| k::spgemm_csr(a, b, c),
                k::par_spgemm_csr(a, b, c)
            );
            expect(exact, what, &c.view(), &want, [m, p], "SpGEMM CSR");
        });
        with_tensor(&DCSR, dims, e, |a| {
            let (_, c) = both!(
                what,
                owned_pd(),
                owned_pd(),
                |c| k::spgemm_dcsr(a, b, c),
                k::par_spgemm_dcsr(a, b, c)
            );
            expect(exact, what, &c.view(), &want, [m, p], "SpGEMM DCSR");
        });
    });

    // SDDMM into a sparse output: `s` is the matrix, `u` m x 2, `v` 2 x n.
    let r = 2;
    let u = vector(m * r, value);
    let v = vector(r * n, |x| value(x + 3));
    let sddmm: Stored<f64> = sa
        .iter()
        .map(|(c, s)| {
            let uv: f64 = (0..r).map(|q| u[c[0] * r + q] * v[q * n + c[1]]).sum();
            (c.clone(), s * uv)
        })
        .collect();
    with_tensor(&CSR, dims, e, |s| {
        let (uv_, vv_) = (
            || DenseView::new(&u, [m, r]).unwrap(),
            || DenseView::new(&v, [r, n]).unwrap(),
        );
        let (_, c) = both!(
            what,
            owned(),
            owned(),
            |c| k::sddmm_csr(s, uv_(), vv_(), c),
            k::par_sddmm_csr(s, uv_(), vv_(), c)
        );
        expect(exact, what, &c.view(), &sddmm, dims, "SDDMM into CSR");
    });
}

#[test]
fn named_shapes() {
    for s in shapes(small) {
        check(s.dims, &s.entries, true, s.name);
    }
    for s in shapes(rough) {
        check(s.dims, &s.entries, false, s.name);
    }
}

/// `Fixed` outputs: with room, the result is the `Owned` one; too small,
/// the error is the sequential kernel's (the exact length needed) and the
/// output is left empty; a `posWidth = 8` output with more than 255 entries
/// fails as sequentially too.
#[test]
fn fixed_outputs_and_errors() {
    let large = shapes(rough)
        .into_iter()
        .find(|s| s.name == "large skewed")
        .expect("the large shape");
    let (dims, e) = (large.dims, &large.entries);
    assert!(e.len() > 255, "the large shape must overflow posWidth = 8");
    with_tensor(&CSR, dims, e, |a| {
        // Room for everything (601 positions, under 1024 entries).
        let fixed = || k::CSROut::<f64, Fixed<1024>>::with_dims(dims).unwrap();
        let (got, c) = both!(
            "Fixed<1024>",
            fixed(),
            fixed(),
            |c| k::scale_csr(a, c),
            k::par_scale_csr(a, c)
        );
        assert_eq!(got, Ok(()));
        let mut owned = k::CSROut::<f64, Owned>::with_dims(dims).unwrap();
        k::scale_csr(a, &mut owned).unwrap();
        assert_eq!(storage(&c.view()), storage(&owned.view()));

        // Positions overflow 8 bits: the sequential error, output emptied.
        let csr8 = || k::CSR8Out::<f64, Owned>::with_dims(dims).unwrap();
        let (got, c) = both!(
            "posWidth 8",
            csr8(),
            csr8(),
            |c| k::scale_csr8(a, c),
            k::par_scale_csr8(a, c)
        );
        assert!(
            matches!(got, Err(KernelError::PositionOverflow { tensor: "c", .. })),
            "{got:?}"
        );
        assert_eq!(c.view().number_of_entries(), 0);
    });
    with_tensor(&DCSR, dims, e, |a| {
        // Too small for the entries: the sequential kernel's error.
        let small_out = || k::DCSROut::<f64, Fixed<64>>::with_dims(dims).unwrap();
        let (got, c) = both!(
            "Fixed<64>",
            small_out(),
            small_out(),
            |c| k::scale_dcsr(a, c),
            k::par_scale_dcsr(a, c)
        );
        assert!(
            matches!(
                got,
                Err(KernelError::Capacity {
                    tensor: "c",
                    capacity: 64,
                    ..
                })
            ),
            "{got:?}"
        );
        assert_eq!(c.view().number_of_entries(), 0);
        // The same output, called with a smaller input afterwards, works.
        let few: Entries<f64> = e.iter().take(10).cloned().collect();
        with_tensor(&DCSR, dims, &few, |a| {
            let mut c = small_out();
            on_threads(|| k::par_scale_dcsr(a, &mut c)).unwrap();
            let mut want = small_out();
            k::scale_dcsr(a, &mut want).unwrap();
            assert_eq!(storage(&c.view()), storage(&want.view()));
        });
    });
    // SpGEMM into `Fixed`: with room, as `Owned`; a workspace too small
    // for the columns fails before any work, as sequentially.
    let b: Entries<f64> = vec![(vec![0, 0], 1.0), (vec![2, 99], 2.0), (vec![2, 7], -1.0)];
    let a: Entries<f64> = vec![(vec![0, 2], 3.0), (vec![1, 0], 1.5), (vec![3, 2], 0.5)];
    with_tensor(&CSR, [3, 100], &b, |b| {
        with_tensor(&CSR, [4, 3], &a, |a| {
            let roomy = || k::CSROut::<f64, Fixed<128>>::with_dims([4, 100]).unwrap();
            let (got, c) = both!(
                "SpGEMM Fixed<128>",
                roomy(),
                roomy(),
                |c| k::spgemm_csr(a, b, c),
                k::par_spgemm_csr(a, b, c)
            );
            assert_eq!(got, Ok(()));
            assert_eq!(c.view().number_of_entries(), 5);
            let tight = || k::CSROut::<f64, Fixed<16>>::with_dims([4, 100]).unwrap();
            let (got, c) = both!(
                "SpGEMM Fixed<16>",
                tight(),
                tight(),
                |c| k::spgemm_csr(a, b, c),
                k::par_spgemm_csr(a, b, c)
            );
            assert!(
                matches!(
                    got,
                    Err(KernelError::Capacity {
                        tensor: "c",
                        needed: 100,
                        capacity: 16,
                        ..
                    })
                ),
                "{got:?}"
            );
            assert_eq!(c.view().number_of_entries(), 0);
        });
    });
}

/// `Slices` outputs (caller memory): with room, the `Owned` result; with a
/// short values buffer, the sequential kernel's error and an empty output.
#[test]
fn slice_outputs() {
    let s = shapes(rough)
        .into_iter()
        .find(|s| s.name == "skewed rows")
        .expect("the skewed shape");
    let (dims, e) = (s.dims, &s.entries);
    type Store = SliceStore<u32, u16, f64, 2>;
    with_tensor(&CSR, dims, e, |a| {
        for (val, ok) in [(64, true), (e.len() - 1, false)] {
            let mut caps = Caps::<2>::uniform(64);
            caps.val = val;
            let (mut s1, mut s2) = (Store::new(caps), Store::new(caps));
            let seq: k::CSROut<f64, Slices<'_>> = s1.out(dims);
            let par: k::CSROut<f64, Slices<'_>> = s2.out(dims);
            let (got, c) = both!(
                "Slices",
                seq,
                par,
                |c| k::scale_csr(a, c),
                k::par_scale_csr(a, c)
            );
            if ok {
                assert_eq!(got, Ok(()));
                let mut owned = k::CSROut::<f64, Owned>::with_dims(dims).unwrap();
                k::scale_csr(a, &mut owned).unwrap();
                assert_eq!(storage(&c.view()), storage(&owned.view()));
            } else {
                assert!(
                    matches!(got, Err(KernelError::Capacity { tensor: "c", capacity, .. }) if capacity == val),
                    "{got:?}"
                );
                assert_eq!(c.view().number_of_entries(), 0);
            }
        }
    });
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn random_matrices((dims, e) in random()) {
        check(dims, &e, true, "random");
        check(dims, &roughen(&e), false, "random, rough values");
    }
}
