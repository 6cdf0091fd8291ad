//! Element-wise kernels into sparse outputs (issue 4), against a dense
//! evaluation and the lattice the output must store: `+`/`-` store the
//! union of the operands' stored entries, `*` their intersection, scaling
//! the operand's pattern, computed zeros included. Outputs in CSR, DCSR,
//! CSC, a sparse vector and COO (AoS and SoA), operands in several formats,
//! every output over each buffer family (`Owned`, `Fixed<N>`, `Slices`),
//! each called twice (the second call replaces the first's result).

use proptest::prelude::*;
use sparse_core::output::OutputBuffers;
use sparse_core::{Encoding, KernelError, SparseTensor, SparseTensorOut};
use sparse_tests::dense::Dense;
use sparse_tests::each_family;
use sparse_tests::fixture::{with_tensor, COO, CSC, CSR, DCSR, SV};
use sparse_tests::gen::{dims, entries, Elem, Entries};
use sparse_tests::reference::RefLevel;
use sparse_tests::sparse_out::{check_output, intersection, map_values, stored, union, Stored};

mod k {
    sparse_core::sparse_kernel! {
        #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
        #SV8 = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), posWidth = 8, crdWidth = 8 }>
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #CSR16 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 16, crdWidth = 16 }>
        #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed), crdWidth = 16 }>
        #CSR8 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 8, crdWidth = 8 }>
        #DCSR = #sparse_tensor.encoding<{
            map = (i, j) -> (i : compressed, j : compressed), posWidth = 8, crdWidth = 8
        }>
        #COO = #sparse_tensor.encoding<{
            map = (i, j) -> (i : compressed(nonunique), j : singleton), posWidth = 32, crdWidth = 16
        }>
        #COO_SOA = #sparse_tensor.encoding<{
            map = (i, j) -> (i : compressed(nonunique), j : singleton(soa))
        }>

        pub fn vadd(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV8>, c: &mut tensor<?xf64, #SV>) {
            c[i] = a[i] + b[i];
        }
        pub fn vsub(a: &tensor<?xf64, #SV8>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV8>) {
            c[i] = a[i] - b[i];
        }
        pub fn vmul(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV8>, c: &mut tensor<?xf64, #SV8>) {
            c[i] = a[i] * b[i];
        }
        pub fn vscale(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = a[i] * 2.0;
        }

        pub fn add_csr_csr_csr(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = a[i, j] + b[i, j];
        }
        pub fn add_csr_csr_csr8(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR8>) {
            c[i, j] = a[i, j] + b[i, j];
        }
        pub fn add_dcsr_coo_csr16(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #COO>, c: &mut tensor<?x?xf64, #CSR16>) {
            c[i, j] = a[i, j] + b[i, j];
        }
        pub fn add_coo_csr_dcsr(a: &tensor<?x?xf64, #COO>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = a[i, j] + b[i, j];
        }
        pub fn add_dcsr_dcsr_dcsr(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = a[i, j] + b[i, j];
        }
        pub fn add_csr_dcsr_coo(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #COO>) {
            c[i, j] = a[i, j] + b[i, j];
        }
        pub fn add_coo_coo_coo(a: &tensor<?x?xf64, #COO>, b: &tensor<?x?xf64, #COO>, c: &mut tensor<?x?xf64, #COO>) {
            c[i, j] = a[i, j] + b[i, j];
        }
        pub fn add_csr_coo_coo_soa(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #COO>, c: &mut tensor<?x?xf64, #COO_SOA>) {
            c[i, j] = a[i, j] + b[i, j];
        }
        pub fn add_csc_csc_csc(a: &tensor<?x?xf64, #CSC>, b: &tensor<?x?xf64, #CSC>, c: &mut tensor<?x?xf64, #CSC>) {
            c[i, j] = a[i, j] + b[i, j];
        }
        pub fn sub_csr_dcsr_csr(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = a[i, j] - b[i, j];
        }

        pub fn mul_csr_csr_csr(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = a[i, j] * b[i, j];
        }
        pub fn mul_dcsr_coo_dcsr(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #COO>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = a[i, j] * b[i, j];
        }
        pub fn mul_csr_dcsr_coo(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #COO>) {
            c[i, j] = a[i, j] * b[i, j];
        }
        pub fn mul_csc_csc_csc(a: &tensor<?x?xf64, #CSC>, b: &tensor<?x?xf64, #CSC>, c: &mut tensor<?x?xf64, #CSC>) {
            c[i, j] = a[i, j] * b[i, j];
        }

        pub fn scale_csr(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = a[i, j] * 2.0;
        }
        pub fn scale_coo_dcsr(a: &tensor<?x?xf64, #COO>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = a[i, j] * 2.0;
        }
        pub fn scale_dcsr_coo(a: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #COO>) {
            c[i, j] = a[i, j] * 2.0;
        }
    }
}

type In<'a, E, const D: usize, const L: usize> = SparseTensor<'a, f64, E, D, L>;
type Out<E, B, const D: usize, const L: usize> = SparseTensorOut<f64, E, B, D, L>;

/// The operation and the lattice it stores.
#[derive(Clone, Copy, Debug)]
enum Op {
    Add,
    Sub,
    Mul,
}

impl Op {
    fn apply(self, x: f64, y: f64) -> f64 {
        match self {
            Op::Add => x + y,
            Op::Sub => x - y,
            Op::Mul => x * y,
        }
    }

    fn f(self) -> fn(f64, f64) -> f64 {
        match self {
            Op::Add => |x, y| x + y,
            Op::Sub => |x, y| x - y,
            Op::Mul => |x, y| x * y,
        }
    }

    fn stores(self, a: &Entries<f64>, b: &Entries<f64>) -> Stored<f64> {
        match self {
            Op::Add | Op::Sub => union(&stored(a), &stored(b), self.f()),
            Op::Mul => intersection(&stored(a), &stored(b), self.f()),
        }
    }
}

fn dense_op(dims: &[usize], a: &Entries<f64>, b: &Entries<f64>, op: Op) -> Dense<f64> {
    let a = Dense::from_entries(dims, a);
    let b = Dense::from_entries(dims, b);
    let data = a
        .data
        .iter()
        .zip(&b.data)
        .map(|(&x, &y)| op.apply(x, y))
        .collect();
    Dense::from_data(dims, data)
}

/// Runs `kernel` into `c` on `(prior, b)`, then on `(a, b)`: each result
/// must be exactly what its operands store.
#[allow(clippy::too_many_arguments)]
fn check_binary<EA, EB, EC, B, const D: usize, const LA: usize, const LB: usize, const LC: usize>(
    (la, lb): (&[RefLevel], &[RefLevel]),
    dims: [usize; D],
    (a, b, prior): (&Entries<f64>, &Entries<f64>, &Entries<f64>),
    op: Op,
    c: &mut Out<EC, B, D, LC>,
    kernel: impl Fn(
        &In<'_, EA, D, LA>,
        &In<'_, EB, D, LB>,
        &mut Out<EC, B, D, LC>,
    ) -> Result<(), KernelError>,
) -> Result<(), TestCaseError>
where
    EA: Encoding,
    EB: Encoding,
    EC: Encoding,
    B: OutputBuffers<EC::Pos, EC::Crd, f64>,
{
    for (x, y) in [(prior, b), (a, b)] {
        let got = with_tensor(la, dims, x, |tx| {
            with_tensor(lb, dims, y, |ty| kernel(tx, ty, &mut *c))
        });
        prop_assert_eq!(got, Ok(()), "{:?}: a = {:?}, b = {:?}", dims, x, y);
        let want = op.stores(x, y);
        let dense = dense_op(&dims, x, y, op);
        if let Err(e) = check_output(&c.view(), &want, &dense) {
            return Err(TestCaseError::fail(format!(
                "{op:?} {dims:?}: a = {x:?}, b = {y:?}: {e}"
            )));
        }
    }
    Ok(())
}

/// `c = a * 2.0` into `c`, on `prior` then on `a`.
fn check_scale<EA, EC, B, const LA: usize, const LC: usize>(
    layout: &[RefLevel],
    dims: [usize; 2],
    (a, prior): (&Entries<f64>, &Entries<f64>),
    c: &mut Out<EC, B, 2, LC>,
    kernel: impl Fn(&In<'_, EA, 2, LA>, &mut Out<EC, B, 2, LC>) -> Result<(), KernelError>,
) -> Result<(), TestCaseError>
where
    EA: Encoding,
    EC: Encoding,
    B: OutputBuffers<EC::Pos, EC::Crd, f64>,
{
    for x in [prior, a] {
        let got = with_tensor(layout, dims, x, |tx| kernel(tx, &mut *c));
        prop_assert_eq!(got, Ok(()), "{:?}: a = {:?}", dims, x);
        let want = map_values(&stored(x), |v| v * 2.0);
        let dense = Dense::from_entries(&dims, x);
        let dense = Dense::from_data(&dims, dense.data.iter().map(|v| v * 2.0).collect());
        if let Err(e) = check_output(&c.view(), &want, &dense) {
            return Err(TestCaseError::fail(format!(
                "scale {dims:?}: a = {x:?}: {e}"
            )));
        }
    }
    Ok(())
}

fn every_vector_kernel(
    n: usize,
    a: &Entries<f64>,
    b: &Entries<f64>,
    prior: &Entries<f64>,
) -> Result<(), TestCaseError> {
    let ops = (&SV[..], &SV[..]);
    let abp = (a, b, prior);
    each_family!([n], |c| {
        check_binary(ops, [n], abp, Op::Add, &mut c, k::vadd)?;
    });
    each_family!([n], |c| {
        check_binary(ops, [n], abp, Op::Sub, &mut c, k::vsub)?;
    });
    each_family!([n], |c| {
        check_binary(ops, [n], abp, Op::Mul, &mut c, k::vmul)?;
    });
    each_family!([n], |c| {
        for x in [prior, a] {
            let got = with_tensor(&SV, [n], x, |tx| k::vscale(tx, &mut c));
            prop_assert_eq!(got, Ok(()));
            let want = map_values(&stored(x), |v| v * 2.0);
            let d = Dense::from_entries(&[n], x);
            let d = Dense::from_data(&[n], d.data.iter().map(|v| v * 2.0).collect());
            check_output(&c.view(), &want, &d).map_err(TestCaseError::fail)?;
        }
    });
    Ok(())
}

fn every_matrix_kernel(
    dims: [usize; 2],
    a: &Entries<f64>,
    b: &Entries<f64>,
    prior: &Entries<f64>,
) -> Result<(), TestCaseError> {
    let abp = (a, b, prior);
    macro_rules! run {
        ($la:expr, $lb:expr, $op:expr, $kernel:path) => {
            each_family!(dims, |c| {
                check_binary((&$la, &$lb), dims, abp, $op, &mut c, $kernel)?;
            });
        };
    }
    run!(CSR, CSR, Op::Add, k::add_csr_csr_csr);
    run!(DCSR, COO, Op::Add, k::add_dcsr_coo_csr16);
    run!(COO, CSR, Op::Add, k::add_coo_csr_dcsr);
    run!(DCSR, DCSR, Op::Add, k::add_dcsr_dcsr_dcsr);
    run!(CSR, DCSR, Op::Add, k::add_csr_dcsr_coo);
    run!(COO, COO, Op::Add, k::add_coo_coo_coo);
    run!(CSR, COO, Op::Add, k::add_csr_coo_coo_soa);
    run!(CSC, CSC, Op::Add, k::add_csc_csc_csc);
    run!(CSR, DCSR, Op::Sub, k::sub_csr_dcsr_csr);
    run!(CSR, CSR, Op::Mul, k::mul_csr_csr_csr);
    run!(DCSR, COO, Op::Mul, k::mul_dcsr_coo_dcsr);
    run!(CSR, DCSR, Op::Mul, k::mul_csr_dcsr_coo);
    run!(CSC, CSC, Op::Mul, k::mul_csc_csc_csc);
    let ap = (a, prior);
    each_family!(dims, |c| {
        check_scale(&CSR, dims, ap, &mut c, k::scale_csr)?;
    });
    each_family!(dims, |c| {
        check_scale(&COO, dims, ap, &mut c, k::scale_coo_dcsr)?;
    });
    each_family!(dims, |c| {
        check_scale(&DCSR, dims, ap, &mut c, k::scale_dcsr_coo)?;
    });
    Ok(())
}

fn three<const R: usize>(
    max: usize,
) -> impl Strategy<Value = ([usize; R], Entries<f64>, Entries<f64>, Entries<f64>)> {
    dims::<R>(max).prop_flat_map(|d| (Just(d), entries(&d), entries(&d), entries(&d)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn vectors(([n], a, b, p) in three::<1>(12)) {
        every_vector_kernel(n, &a, &b, &p)?;
    }

    #[test]
    fn matrices((d, a, b, p) in three::<2>(5)) {
        every_matrix_kernel(d, &a, &b, &p)?;
    }
}

fn at<const R: usize>(entries: &[([usize; R], i32)]) -> Entries<f64> {
    entries
        .iter()
        .map(|&(c, k)| (c.to_vec(), f64::small(k)))
        .collect()
}

#[test]
fn vector_edge_cases() {
    let none = Vec::new();
    for n in [0, 1, 6] {
        every_vector_kernel(n, &none, &none, &none).unwrap();
    }
    let a = at(&[([1], 4), ([4], -2)]);
    let full = at(&[([0], 1), ([1], 2), ([2], -3), ([3], 1), ([4], 5), ([5], 6)]);
    // One side empty, after a full result (the second call must drop it).
    every_vector_kernel(6, &a, &none, &full).unwrap();
    every_vector_kernel(6, &none, &a, &full).unwrap();
    // Disjoint; a single shared entry; explicit zeros; sums that cancel.
    every_vector_kernel(6, &a, &at(&[([0], 1), ([5], 3)]), &none).unwrap();
    every_vector_kernel(6, &at(&[([4], 7)]), &a, &a).unwrap();
    every_vector_kernel(
        4,
        &at(&[([0], 0), ([2], 0)]),
        &at(&[([2], 5), ([3], 0)]),
        &a[..1].to_vec(),
    )
    .unwrap();
    every_vector_kernel(6, &a, &at(&[([1], -4), ([4], 2)]), &none).unwrap();
    every_vector_kernel(6, &full, &full, &none).unwrap();
}

#[test]
fn vector_coordinates_at_the_maximum_of_8_bit_widths() {
    // `SV8` outputs: length 256 with coordinate 255, and 255 entries
    // (positions up to 255).
    let a = at(&[([255], 3), ([3], 1)]);
    let b = at(&[([255], -1), ([0], 2)]);
    let many: Entries<f64> = (1..256)
        .map(|i| (vec![i], f64::small(i as i32 % 9 - 4)))
        .collect();
    for (x, y) in [(&a, &b), (&a, &many), (&many, &a)] {
        let abp = (x, y, &a);
        each_family!([256], 600, |c| {
            check_binary((&SV, &SV), [256], abp, Op::Sub, &mut c, k::vsub).unwrap();
        });
        each_family!([256], 600, |c| {
            check_binary((&SV, &SV), [256], abp, Op::Mul, &mut c, k::vmul).unwrap();
        });
    }
}

#[test]
fn positions_past_the_width_are_an_error() {
    // 256 entries in an `SV8` output: the last position, 256, does not fit
    // `u8`. The output is left empty and takes the next result.
    let a = at(&[([0], 3)]);
    let many: Entries<f64> = (1..256).map(|i| (vec![i], 1.0)).collect();
    each_family!([256], 600, |c| {
        let got = with_tensor(&SV, [256], &a, |ta| {
            with_tensor(&SV, [256], &many, |tb| k::vsub(ta, tb, &mut c))
        });
        let want = KernelError::PositionOverflow {
            tensor: "c",
            level: 0,
            entries: 256,
            max: 255,
        };
        assert_eq!(got, Err(want));
        check_output(&c.view(), &Stored::new(), &Dense::zeros(&[256])).unwrap();
        check_binary((&SV, &SV), [256], (&a, &a, &a), Op::Sub, &mut c, k::vsub).unwrap();
    });
}

#[test]
fn matrix_edge_cases() {
    let none = Vec::new();
    for dims in [[0, 0], [0, 3], [3, 0], [3, 4]] {
        every_matrix_kernel(dims, &none, &none, &none).unwrap();
    }
    let a = at(&[([1, 0], 4), ([1, 3], -2), ([3, 3], 1)]);
    let full: Entries<f64> = (0..16)
        .map(|p| (vec![p / 4, p % 4], f64::small(p as i32 - 8)))
        .collect();
    // One side empty; all-zero rows on both sides; the last row only.
    every_matrix_kernel([4, 4], &a, &none, &full).unwrap();
    every_matrix_kernel([4, 4], &none, &a, &full).unwrap();
    every_matrix_kernel([4, 4], &a, &at(&[([1, 3], 6), ([2, 2], 5)]), &none).unwrap();
    every_matrix_kernel([4, 4], &at(&[([3, 3], 2)]), &a, &a).unwrap();
    // A single entry, at the first and at the last coordinates.
    every_matrix_kernel([4, 4], &at(&[([0, 0], 2)]), &none, &a).unwrap();
    every_matrix_kernel([1, 1], &at(&[([0, 0], 2)]), &at(&[([0, 0], 3)]), &none).unwrap();
    // Explicit zeros stay stored; `a + (-a)` stores computed zeros.
    let zeros = at(&[([0, 0], 0), ([1, 3], 0), ([2, 1], 0)]);
    every_matrix_kernel([4, 4], &zeros, &a, &full).unwrap();
    every_matrix_kernel([4, 4], &zeros, &zeros, &none).unwrap();
    let minus_a = at(&[([1, 0], -4), ([1, 3], 2), ([3, 3], -1)]);
    every_matrix_kernel([4, 4], &a, &minus_a, &none).unwrap();
    every_matrix_kernel([4, 4], &full, &full, &a).unwrap();
}

#[test]
fn csr_rows_at_the_limits_of_8_bit_widths() {
    // A `CSR8` output (u8 positions and coordinates), 2 x 256, written
    // through rows whose coordinates the kernel vouches for: a row of 255
    // entries up to coordinate 255 fits; a 256th entry in it makes the
    // row's end position 256, past `u8`: an error, the output left empty
    // and valid, and the next call over it succeeds.
    let row0: Entries<f64> = (1..256)
        .map(|j| (vec![0, j], f64::small(j as i32 % 7 - 3)))
        .collect();
    let last = at(&[([0, 255], 4)]);
    let first = at(&[([0, 0], 5)]);
    let none = Vec::new();
    each_family!([2, 256], 600, |c| {
        let abp = (&row0, &last, &none);
        check_binary(
            (&CSR, &CSR),
            [2, 256],
            abp,
            Op::Add,
            &mut c,
            k::add_csr_csr_csr8,
        )
        .unwrap();
        let got = with_tensor(&CSR, [2, 256], &row0, |ta| {
            with_tensor(&CSR, [2, 256], &first, |tb| {
                k::add_csr_csr_csr8(ta, tb, &mut c)
            })
        });
        let want = KernelError::PositionOverflow {
            tensor: "c",
            level: 1,
            entries: 256,
            max: 255,
        };
        assert_eq!(got, Err(want));
        check_output(&c.view(), &Stored::new(), &Dense::zeros(&[2, 256])).unwrap();
        let abp = (&first, &last, &row0);
        check_binary(
            (&CSR, &CSR),
            [2, 256],
            abp,
            Op::Add,
            &mut c,
            k::add_csr_csr_csr8,
        )
        .unwrap();
    });
}

#[test]
fn matrix_coordinates_at_the_maximum_of_8_bit_widths() {
    // DCSR outputs are 8-bit: coordinate 255 in both dimensions.
    let far = at(&[([255, 255], 3), ([0, 255], 1), ([255, 0], -2)]);
    let near = at(&[([255, 255], 5), ([7, 7], 1)]);
    let abp = (&far, &near, &near);
    each_family!([256, 256], |c| {
        check_binary(
            (&DCSR, &DCSR),
            [256, 256],
            abp,
            Op::Add,
            &mut c,
            k::add_dcsr_dcsr_dcsr,
        )
        .unwrap();
    });
    each_family!([256, 256], |c| {
        check_binary(
            (&DCSR, &COO),
            [256, 256],
            abp,
            Op::Mul,
            &mut c,
            k::mul_dcsr_coo_dcsr,
        )
        .unwrap();
    });
    each_family!([256, 256], 300, |c| {
        check_binary(
            (&COO, &CSR),
            [256, 256],
            abp,
            Op::Add,
            &mut c,
            k::add_coo_csr_dcsr,
        )
        .unwrap();
    });
}

#[test]
fn size_mismatch_is_an_error_and_leaves_the_output() {
    let a = at(&[([0, 0], 1), ([2, 3], 2)]);
    each_family!([3, 4], |c| {
        // A first result, which the refused call must not touch.
        let got = with_tensor(&CSR, [3, 4], &a, |ta| {
            with_tensor(&CSR, [3, 4], &a, |tb| k::add_csr_csr_csr(ta, tb, &mut c))
        });
        assert_eq!(got, Ok(()));
        let got = with_tensor(&CSR, [3, 4], &a, |ta| {
            with_tensor(&CSR, [3, 5], &a, |tb| k::add_csr_csr_csr(ta, tb, &mut c))
        });
        let want = KernelError::DimensionMismatch {
            tensor: "b",
            dim: 1,
            size: 5,
            index: "j",
            expected: 4,
            bound_by: "a",
            bound_dim: 1,
        };
        assert_eq!(got, Err(want));
        let doubled = map_values(&stored(&a), |v| v * 2.0);
        let dense = Dense::from_entries(&[3, 4], &a);
        let dense = Dense::from_data(&[3, 4], dense.data.iter().map(|v| v * 2.0).collect());
        check_output(&c.view(), &doubled, &dense).unwrap();
    });
    // The output's own sizes are checked too.
    each_family!([3, 5], |c| {
        let got = with_tensor(&CSR, [3, 4], &a, |ta| {
            with_tensor(&CSR, [3, 4], &a, |tb| k::add_csr_csr_csr(ta, tb, &mut c))
        });
        let want = KernelError::DimensionMismatch {
            tensor: "c",
            dim: 1,
            size: 5,
            index: "j",
            expected: 4,
            bound_by: "a",
            bound_dim: 1,
        };
        assert_eq!(got, Err(want));
        check_output(&c.view(), &Stored::new(), &Dense::zeros(&[3, 5])).unwrap();
    });
}
