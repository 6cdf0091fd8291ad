//! `#[fma]`: a kernel's `r += a * b` accumulations are fused multiply-adds,
//! rounded once. On a row where rounding the product first loses the
//! result, the fused kernel keeps it and the plain one does not; both agree
//! with a hand-written loop of the same rounding.

use sparse_core::{Level, SparseTensor};

mod k {
    sparse_core::sparse_kernel! {
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 16, crdWidth = 8 }>

        /// `y = A x`, each product added with one rounding.
        #[fma]
        pub fn spmv_fused(a: &tensor<?x?xf32, #CSR>, x: &tensor<?xf32>, y: &mut tensor<?xf32>) {
            y[i] = a[i, j] * x[j];
        }
        /// The same with `*` and `+` rounded separately.
        pub fn spmv_plain(a: &tensor<?x?xf32, #CSR>, x: &tensor<?xf32>, y: &mut tensor<?xf32>) {
            y[i] = a[i, j] * x[j];
        }
        /// The f64 kernel.
        #[fma]
        pub fn spmv_fused_f64(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
    }
}

type Csr<'a, V> = k::CSR<'a, V>;

#[test]
fn fused_kernels_round_once() {
    // Row 0: -(1 + 2^-11) * 1, then (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24.
    // Rounding the square first gives 1 + 2^-11 and a sum of 0; fused,
    // the sum is 2^-24. Row 1 is empty, row 2 one ordinary product.
    let e = f32::EPSILON; // 2^-23
    let pos = [0u16, 2, 2, 3];
    let crd = [0u8, 1, 1];
    let val = [1.0f32, 1.0 + 2048.0 * e, 3.0];
    let a: Csr<'_, f32> = SparseTensor::assemble(
        [3, 2],
        [Level::dense(), Level::compressed(&pos, &crd)],
        &val,
    )
    .unwrap();
    let x = [-(1.0 + 4096.0 * e), 1.0 + 2048.0 * e];
    let mut fused = [f32::NAN; 3];
    let mut plain = [f32::NAN; 3];
    k::spmv_fused(&a, &x, &mut fused).unwrap();
    k::spmv_plain(&a, &x, &mut plain).unwrap();
    assert_eq!(fused[0], e / 2.0);
    assert_eq!(plain[0], 0.0);
    let by_hand = |row: usize| {
        let mut acc = 0.0f32;
        for p in pos[row] as usize..pos[row + 1] as usize {
            acc = val[p].mul_add(x[crd[p] as usize], acc);
        }
        acc
    };
    for (row, got) in fused.iter().enumerate() {
        assert_eq!(got.to_bits(), by_hand(row).to_bits(), "row {row}");
    }
    assert_eq!(fused[1].to_bits(), 0.0f32.to_bits());
    assert_eq!(plain[1].to_bits(), 0.0f32.to_bits());

    let val64 = [1.0f64, 1.0 + f64::EPSILON * 2f64.powi(26), 3.0];
    let a64: Csr<'_, f64> = SparseTensor::assemble(
        [3, 2],
        [Level::dense(), Level::compressed(&pos, &crd)],
        &val64,
    )
    .unwrap();
    let x64 = [-(1.0 + f64::EPSILON * 2f64.powi(27)), val64[1]];
    let mut y64 = [f64::NAN; 3];
    k::spmv_fused_f64(&a64, &x64, &mut y64).unwrap();
    assert_eq!(y64[0], f64::EPSILON * f64::EPSILON * 2f64.powi(52));
    assert_eq!(y64[2], 3.0 * x64[1]);
}

#[test]
fn fused_kernels_check_sizes_like_the_others() {
    let pos = [0u16, 0];
    let crd: [u8; 0] = [];
    let val: [f32; 0] = [];
    let a: Csr<'_, f32> = SparseTensor::assemble(
        [1, 2],
        [Level::dense(), Level::compressed(&pos, &crd)],
        &val,
    )
    .unwrap();
    let mut y = [0.0f32; 1];
    assert_eq!(
        k::spmv_fused(&a, &[0.0; 3], &mut y),
        k::spmv_plain(&a, &[0.0; 3], &mut y)
    );
    assert!(k::spmv_fused(&a, &[0.0; 3], &mut y).is_err());
}
