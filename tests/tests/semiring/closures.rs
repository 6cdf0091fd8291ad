//! What a closure of a semiring operation can be: Rust blocks with `let`,
//! `if`/`match`, parameters that shadow an index variable or a tensor's
//! name, scalar parameters of another type, casts between element types
//! (`f32`, `i16`, `u8`), math functions; and the size checks of semiring
//! kernels (a mismatch is a `KernelError`, outputs untouched). Each against
//! a presence-mask reference.

use proptest::prelude::*;
use sparse_core::output::Owned;
use sparse_core::KernelError;
use sparse_tests::fixture::{with_tensor, CSR, SV};
use sparse_tests::gen::{elem, entries, Elem, Entries};
use sparse_tests::semiring::{binary, select, unary, Masked};
use sparse_tests::sparse_out::check_output;

mod k {
    sparse_core::sparse_kernel! {
        #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

        pub fn blocks(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = binary(a[i], b[i],
                overlap = |x, y| {
                    let t = x * 2.0;
                    if t > y { t - y } else { y - t }
                },
                left = |x| match i % 3 { 0 => x, 1 => -x, _ => 0.0 },
                right = |y| { let k = i as f64; y * k });
        }
        pub fn shadowing(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = unary(a[i, j], present = |j| j * 2.0 + (i as f64), absent = none);
        }
        pub fn tensor_name(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = select(a[i], |a| a > 1.0);
        }
        pub fn int_scalar(a: &tensor<?xf64, #SV>, n: i32, c: &mut tensor<?xf64, #SV>) {
            c[i] = unary(a[i], present = |x| x * (n as f64), absent = || n as f64);
        }
        pub fn to_f32(a: &tensor<?xf64, #SV>, b: &tensor<?xi16, #SV>, c: &mut tensor<?xf32, #SV>) {
            c[i] = binary(a[i], b[i],
                overlap = |x, y| x as f32 + f32::from(y),
                left = |x| abs(x as f32),
                right = |y| max(f32::from(y), 0.5));
        }
        pub fn to_u8(a: &tensor<?xi16, #SV>, c: &mut tensor<?xu8, #SV>) {
            c[i] = unary(a[i], present = |x| x.unsigned_abs() as u8, absent = || 9);
        }
        pub fn sized(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64>) {
            c[i] = binary(a[i], b[i], overlap = |x, y| x + y, left = identity, right = none);
        }
        pub fn sized_reduce(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64>) {
            x[i] = reduce(a[i, j], identity = 1.0, |acc, v| acc * v);
        }
        pub fn fixed(a: &tensor<4x3xf64, #CSR>, c: &mut tensor<4x3xf64, #CSR>) {
            c[i, j] = select(a[i, j], |_| i + j == 3);
        }
    }
}

fn fail(what: &str, e: String) -> TestCaseError {
    TestCaseError::fail(format!("{what}: {e}"))
}

/// Small `i16` values in -3..=3 from the `f64` generator's quarters.
fn narrow(e: &Entries<f64>) -> Entries<i16> {
    e.iter()
        .map(|(c, v)| (c.clone(), ((v * 4.0) as i16) % 4))
        .collect()
}

fn vectors(n: usize, a: &Entries<f64>, b: &Entries<f64>, s: i32) -> Result<(), TestCaseError> {
    let d = [n];
    let ma = Masked::from_entries(&d, a);
    let mb = Masked::from_entries(&d, b);
    let what = format!("n = {n}, a = {a:?}, b = {b:?}, s = {s}");

    let want = binary(
        &ma,
        &mb,
        |_, x, y| {
            let t = x * 2.0;
            Some(if t > y { t - y } else { y - t })
        },
        |c, x| Some([x, -x, 0.0][c[0] % 3]),
        |c, y| Some(y * c[0] as f64),
    );
    let mut c = k::SVOut::<f64, Owned>::with_dims(d).unwrap();
    let r = with_tensor(&SV, d, a, |ta| {
        with_tensor(&SV, d, b, |tb| k::blocks(ta, tb, &mut c))
    });
    prop_assert_eq!(r, Ok(()));
    check_output(&c.view(), &want.stored(), &want.dense())
        .map_err(|e| fail(&format!("blocks {what}"), e))?;

    let want = select(&ma, |_, v| v > 1.0);
    let mut c = k::SVOut::<f64, Owned>::with_dims(d).unwrap();
    let r = with_tensor(&SV, d, a, |ta| k::tensor_name(ta, &mut c));
    prop_assert_eq!(r, Ok(()));
    check_output(&c.view(), &want.stored(), &want.dense())
        .map_err(|e| fail(&format!("tensor_name {what}"), e))?;

    let want = unary(&ma, |_, x| Some(x * f64::from(s)), |_| Some(f64::from(s)));
    let mut c = k::SVOut::<f64, Owned>::with_dims(d).unwrap();
    let r = with_tensor(&SV, d, a, |ta| k::int_scalar(ta, s, &mut c));
    prop_assert_eq!(r, Ok(()));
    check_output(&c.view(), &want.stored(), &want.dense())
        .map_err(|e| fail(&format!("int_scalar {what}"), e))?;

    let bn = narrow(b);
    let mbn = Masked::from_entries(&d, &bn);
    let want = binary(
        &ma,
        &mbn,
        |_, x, y| Some(x as f32 + f32::from(y)),
        |_, x| Some((x as f32).abs()),
        |_, y| Some(f32::from(y).max(0.5)),
    );
    let mut c = k::SVOut::<f32, Owned>::with_dims(d).unwrap();
    let r = with_tensor(&SV, d, a, |ta| {
        with_tensor(&SV, d, &bn, |tb| k::to_f32(ta, tb, &mut c))
    });
    prop_assert_eq!(r, Ok(()));
    check_output(&c.view(), &want.stored(), &want.dense())
        .map_err(|e| fail(&format!("to_f32 {what}"), e))?;

    let want = unary(&mbn, |_, x| Some(x.unsigned_abs() as u8), |_| Some(9u8));
    let mut c = k::SVOut::<u8, Owned>::with_dims(d).unwrap();
    let r = with_tensor(&SV, d, &bn, |tb| k::to_u8(tb, &mut c));
    prop_assert_eq!(r, Ok(()));
    check_output(&c.view(), &want.stored(), &want.dense())
        .map_err(|e| fail(&format!("to_u8 {what}"), e))
}

fn matrices(d: [usize; 2], a: &Entries<f64>) -> Result<(), TestCaseError> {
    let ma = Masked::from_entries(&d, a);
    let want = unary(&ma, |c, x| Some(x * 2.0 + c[0] as f64), |_| None);
    let mut c = k::CSROut::<f64, Owned>::with_dims(d).unwrap();
    let r = with_tensor(&CSR, d, a, |ta| k::shadowing(ta, &mut c));
    prop_assert_eq!(r, Ok(()));
    check_output(&c.view(), &want.stored(), &want.dense())
        .map_err(|e| fail(&format!("shadowing {d:?} {a:?}"), e))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn vectors_random(
        (n, a, b) in (0usize..=10).prop_flat_map(|n| (Just(n), entries::<f64>(&[n]), entries::<f64>(&[n]))),
        s in elem::<i32>(),
    ) {
        vectors(n, &a, &b, s)?;
    }

    #[test]
    fn matrices_random(
        (d, a) in sparse_tests::gen::dims::<2>(6).prop_flat_map(|d| (Just(d), entries::<f64>(&d)))
    ) {
        matrices(d, &a)?;
    }
}

#[test]
fn size_mismatches_are_errors_and_leave_outputs_untouched() {
    let a = vec![(vec![1], 2.0)];
    let mut c = vec![7.0; 4];
    let got = with_tensor(&SV, [4], &a, |ta| {
        with_tensor(&SV, [5], &a, |tb| k::sized(ta, tb, &mut c))
    });
    assert_eq!(
        got,
        Err(KernelError::DimensionMismatch {
            tensor: "b",
            dim: 0,
            size: 5,
            index: "i",
            expected: 4,
            bound_by: "a",
            bound_dim: 0,
        })
    );
    assert_eq!(c, [7.0; 4]);
    let mut x = vec![7.0; 3];
    let got = with_tensor(&CSR, [4, 2], &Vec::new(), |ta| k::sized_reduce(ta, &mut x));
    assert!(
        matches!(
            got,
            Err(KernelError::DimensionMismatch {
                tensor: "x",
                size: 3,
                expected: 4,
                ..
            })
        ),
        "{got:?}"
    );
    assert_eq!(x, [7.0; 3]);
    // A static shape: the anti-diagonal `i + j == 3` of a 4x3 matrix.
    let full: Entries<f64> = (0..12)
        .map(|p| (vec![p / 3, p % 3], f64::small(p as i32 + 1)))
        .collect();
    let mut c = k::CSROut::<f64, Owned>::with_dims([4, 3]).unwrap();
    with_tensor(&CSR, [4, 3], &full, |ta| k::fixed(ta, &mut c)).unwrap();
    let mut got = Vec::new();
    c.view().for_each(|[i, j], v| got.push((i, j, *v)));
    assert_eq!(got, vec![(1, 2, 1.5), (2, 1, 2.0), (3, 0, 2.5)]);
    let got = with_tensor(&CSR, [3, 4], &Vec::new(), |ta| k::fixed(ta, &mut c));
    assert!(
        matches!(got, Err(KernelError::ShapeMismatch { .. })),
        "{got:?}"
    );
}
