//! `binary(x, y, overlap = .., left = .., right = ..)` with every region a
//! closure, `identity` or `none` (the 18 combinations; `overlap` has no
//! `identity`), against a presence-mask reference (`overlap` where both
//! operands are stored, `left`/`right` where one is, nothing where neither):
//! vectors into dense and sparse outputs, and matrices (CSR with DCSR into a
//! dense output, DCSR with DCSR into DCSR) with closures that read the index
//! variables. Random operands from empty to full; sparse outputs on every
//! buffer family, called twice.
//!
//! The other shapes of `binary` (`+=`, operands of different element types,
//! dense operands, expression operands, summed indices) are in
//! `kernels_semiring_binary_forms.rs`.

use proptest::prelude::*;
use sparse_core::output::OutputBuffers;
use sparse_core::{DenseViewMut, Encoding, KernelError, SparseTensor, SparseTensorOut};
use sparse_tests::each_family;
use sparse_tests::fixture::{with_tensor, CSR, DCSR, SV};
use sparse_tests::gen::{dims, entries, Elem, Entries};
use sparse_tests::reference::RefLevel;
use sparse_tests::semiring::{binary, no_empty_segments, Masked};
use sparse_tests::sparse_out::check_output;

mod k {
    sparse_core::sparse_kernel! {
        #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
        #SV8 = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), posWidth = 8, crdWidth = 8 }>
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed), crdWidth = 16 }>

        // v_*: vectors into a dense output; vs_*: into a sparse vector;
        // m_*: CSR and DCSR into a dense matrix; ms_*: DCSR into DCSR.
        // The suffix names overlap, left, right: f(unction), i(dentity), n(one).
        pub fn v_fff(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV8>, c: &mut tensor<?xf64>) {
            c[i] = binary(a[i], b[i], overlap = |x, y| x - 2.0 * y, left = |x| x * 3.0 + 1.0, right = |y| 0.5 - y);
        }
        pub fn vs_fff(a: &tensor<?xf64, #SV8>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = binary(a[i], b[i], overlap = |x, y| x - 2.0 * y, left = |x| x * 3.0 + 1.0, right = |y| 0.5 - y);
        }
        pub fn m_fff(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = |x, y| x - 2.0 * y + (i as f64), left = |x| x * 3.0 + (j as f64), right = |y| (i * 10 + j) as f64 - y);
        }
        pub fn ms_fff(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = |x, y| x - 2.0 * y + (i as f64), left = |x| x * 3.0 + (j as f64), right = |y| (i * 10 + j) as f64 - y);
        }
        pub fn v_ffi(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV8>, c: &mut tensor<?xf64>) {
            c[i] = binary(a[i], b[i], overlap = |x, y| x - 2.0 * y, left = |x| x * 3.0 + 1.0, right = identity);
        }
        pub fn vs_ffi(a: &tensor<?xf64, #SV8>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = binary(a[i], b[i], overlap = |x, y| x - 2.0 * y, left = |x| x * 3.0 + 1.0, right = identity);
        }
        pub fn m_ffi(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = |x, y| x - 2.0 * y + (i as f64), left = |x| x * 3.0 + (j as f64), right = identity);
        }
        pub fn ms_ffi(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = |x, y| x - 2.0 * y + (i as f64), left = |x| x * 3.0 + (j as f64), right = identity);
        }
        pub fn v_ffn(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV8>, c: &mut tensor<?xf64>) {
            c[i] = binary(a[i], b[i], overlap = |x, y| x - 2.0 * y, left = |x| x * 3.0 + 1.0, right = none);
        }
        pub fn vs_ffn(a: &tensor<?xf64, #SV8>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = binary(a[i], b[i], overlap = |x, y| x - 2.0 * y, left = |x| x * 3.0 + 1.0, right = none);
        }
        pub fn m_ffn(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = |x, y| x - 2.0 * y + (i as f64), left = |x| x * 3.0 + (j as f64), right = none);
        }
        pub fn ms_ffn(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = |x, y| x - 2.0 * y + (i as f64), left = |x| x * 3.0 + (j as f64), right = none);
        }
        pub fn v_fif(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV8>, c: &mut tensor<?xf64>) {
            c[i] = binary(a[i], b[i], overlap = |x, y| x - 2.0 * y, left = identity, right = |y| 0.5 - y);
        }
        pub fn vs_fif(a: &tensor<?xf64, #SV8>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = binary(a[i], b[i], overlap = |x, y| x - 2.0 * y, left = identity, right = |y| 0.5 - y);
        }
        pub fn m_fif(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = |x, y| x - 2.0 * y + (i as f64), left = identity, right = |y| (i * 10 + j) as f64 - y);
        }
        pub fn ms_fif(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = |x, y| x - 2.0 * y + (i as f64), left = identity, right = |y| (i * 10 + j) as f64 - y);
        }
        pub fn v_fii(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV8>, c: &mut tensor<?xf64>) {
            c[i] = binary(a[i], b[i], overlap = |x, y| x - 2.0 * y, left = identity, right = identity);
        }
        pub fn vs_fii(a: &tensor<?xf64, #SV8>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = binary(a[i], b[i], overlap = |x, y| x - 2.0 * y, left = identity, right = identity);
        }
        pub fn m_fii(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = |x, y| x - 2.0 * y + (i as f64), left = identity, right = identity);
        }
        pub fn ms_fii(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = |x, y| x - 2.0 * y + (i as f64), left = identity, right = identity);
        }
        pub fn v_fin(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV8>, c: &mut tensor<?xf64>) {
            c[i] = binary(a[i], b[i], overlap = |x, y| x - 2.0 * y, left = identity, right = none);
        }
        pub fn vs_fin(a: &tensor<?xf64, #SV8>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = binary(a[i], b[i], overlap = |x, y| x - 2.0 * y, left = identity, right = none);
        }
        pub fn m_fin(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = |x, y| x - 2.0 * y + (i as f64), left = identity, right = none);
        }
        pub fn ms_fin(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = |x, y| x - 2.0 * y + (i as f64), left = identity, right = none);
        }
        pub fn v_fnf(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV8>, c: &mut tensor<?xf64>) {
            c[i] = binary(a[i], b[i], overlap = |x, y| x - 2.0 * y, left = none, right = |y| 0.5 - y);
        }
        pub fn vs_fnf(a: &tensor<?xf64, #SV8>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = binary(a[i], b[i], overlap = |x, y| x - 2.0 * y, left = none, right = |y| 0.5 - y);
        }
        pub fn m_fnf(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = |x, y| x - 2.0 * y + (i as f64), left = none, right = |y| (i * 10 + j) as f64 - y);
        }
        pub fn ms_fnf(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = |x, y| x - 2.0 * y + (i as f64), left = none, right = |y| (i * 10 + j) as f64 - y);
        }
        pub fn v_fni(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV8>, c: &mut tensor<?xf64>) {
            c[i] = binary(a[i], b[i], overlap = |x, y| x - 2.0 * y, left = none, right = identity);
        }
        pub fn vs_fni(a: &tensor<?xf64, #SV8>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = binary(a[i], b[i], overlap = |x, y| x - 2.0 * y, left = none, right = identity);
        }
        pub fn m_fni(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = |x, y| x - 2.0 * y + (i as f64), left = none, right = identity);
        }
        pub fn ms_fni(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = |x, y| x - 2.0 * y + (i as f64), left = none, right = identity);
        }
        pub fn v_fnn(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV8>, c: &mut tensor<?xf64>) {
            c[i] = binary(a[i], b[i], overlap = |x, y| x - 2.0 * y, left = none, right = none);
        }
        pub fn vs_fnn(a: &tensor<?xf64, #SV8>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = binary(a[i], b[i], overlap = |x, y| x - 2.0 * y, left = none, right = none);
        }
        pub fn m_fnn(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = |x, y| x - 2.0 * y + (i as f64), left = none, right = none);
        }
        pub fn ms_fnn(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = |x, y| x - 2.0 * y + (i as f64), left = none, right = none);
        }
        pub fn v_nff(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV8>, c: &mut tensor<?xf64>) {
            c[i] = binary(a[i], b[i], overlap = none, left = |x| x * 3.0 + 1.0, right = |y| 0.5 - y);
        }
        pub fn vs_nff(a: &tensor<?xf64, #SV8>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = binary(a[i], b[i], overlap = none, left = |x| x * 3.0 + 1.0, right = |y| 0.5 - y);
        }
        pub fn m_nff(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = none, left = |x| x * 3.0 + (j as f64), right = |y| (i * 10 + j) as f64 - y);
        }
        pub fn ms_nff(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = none, left = |x| x * 3.0 + (j as f64), right = |y| (i * 10 + j) as f64 - y);
        }
        pub fn v_nfi(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV8>, c: &mut tensor<?xf64>) {
            c[i] = binary(a[i], b[i], overlap = none, left = |x| x * 3.0 + 1.0, right = identity);
        }
        pub fn vs_nfi(a: &tensor<?xf64, #SV8>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = binary(a[i], b[i], overlap = none, left = |x| x * 3.0 + 1.0, right = identity);
        }
        pub fn m_nfi(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = none, left = |x| x * 3.0 + (j as f64), right = identity);
        }
        pub fn ms_nfi(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = none, left = |x| x * 3.0 + (j as f64), right = identity);
        }
        pub fn v_nfn(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV8>, c: &mut tensor<?xf64>) {
            c[i] = binary(a[i], b[i], overlap = none, left = |x| x * 3.0 + 1.0, right = none);
        }
        pub fn vs_nfn(a: &tensor<?xf64, #SV8>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = binary(a[i], b[i], overlap = none, left = |x| x * 3.0 + 1.0, right = none);
        }
        pub fn m_nfn(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = none, left = |x| x * 3.0 + (j as f64), right = none);
        }
        pub fn ms_nfn(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = none, left = |x| x * 3.0 + (j as f64), right = none);
        }
        pub fn v_nif(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV8>, c: &mut tensor<?xf64>) {
            c[i] = binary(a[i], b[i], overlap = none, left = identity, right = |y| 0.5 - y);
        }
        pub fn vs_nif(a: &tensor<?xf64, #SV8>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = binary(a[i], b[i], overlap = none, left = identity, right = |y| 0.5 - y);
        }
        pub fn m_nif(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = none, left = identity, right = |y| (i * 10 + j) as f64 - y);
        }
        pub fn ms_nif(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = none, left = identity, right = |y| (i * 10 + j) as f64 - y);
        }
        pub fn v_nii(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV8>, c: &mut tensor<?xf64>) {
            c[i] = binary(a[i], b[i], overlap = none, left = identity, right = identity);
        }
        pub fn vs_nii(a: &tensor<?xf64, #SV8>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = binary(a[i], b[i], overlap = none, left = identity, right = identity);
        }
        pub fn m_nii(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = none, left = identity, right = identity);
        }
        pub fn ms_nii(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = none, left = identity, right = identity);
        }
        pub fn v_nin(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV8>, c: &mut tensor<?xf64>) {
            c[i] = binary(a[i], b[i], overlap = none, left = identity, right = none);
        }
        pub fn vs_nin(a: &tensor<?xf64, #SV8>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = binary(a[i], b[i], overlap = none, left = identity, right = none);
        }
        pub fn m_nin(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = none, left = identity, right = none);
        }
        pub fn ms_nin(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = none, left = identity, right = none);
        }
        pub fn v_nnf(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV8>, c: &mut tensor<?xf64>) {
            c[i] = binary(a[i], b[i], overlap = none, left = none, right = |y| 0.5 - y);
        }
        pub fn vs_nnf(a: &tensor<?xf64, #SV8>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = binary(a[i], b[i], overlap = none, left = none, right = |y| 0.5 - y);
        }
        pub fn m_nnf(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = none, left = none, right = |y| (i * 10 + j) as f64 - y);
        }
        pub fn ms_nnf(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = none, left = none, right = |y| (i * 10 + j) as f64 - y);
        }
        pub fn v_nni(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV8>, c: &mut tensor<?xf64>) {
            c[i] = binary(a[i], b[i], overlap = none, left = none, right = identity);
        }
        pub fn vs_nni(a: &tensor<?xf64, #SV8>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = binary(a[i], b[i], overlap = none, left = none, right = identity);
        }
        pub fn m_nni(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = none, left = none, right = identity);
        }
        pub fn ms_nni(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = none, left = none, right = identity);
        }
        pub fn v_nnn(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV8>, c: &mut tensor<?xf64>) {
            c[i] = binary(a[i], b[i], overlap = none, left = none, right = none);
        }
        pub fn vs_nnn(a: &tensor<?xf64, #SV8>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = binary(a[i], b[i], overlap = none, left = none, right = none);
        }
        pub fn m_nnn(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = none, left = none, right = none);
        }
        pub fn ms_nnn(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = none, left = none, right = none);
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

/// The regions of the vector kernels: `overlap = |x, y| x - 2.0 * y`,
/// `left = |x| x * 3.0 + 1.0`, `right = |y| 0.5 - y`.
fn vector_reference([o, l, r]: [R; 3], a: &Masked<f64>, b: &Masked<f64>) -> Masked<f64> {
    binary(
        a,
        b,
        |_, x, y| (o == F).then_some(x - 2.0 * y),
        |_, x| match l {
            F => Some(x * 3.0 + 1.0),
            I => Some(x),
            N => None,
        },
        |_, y| match r {
            F => Some(0.5 - y),
            I => Some(y),
            N => None,
        },
    )
}

/// The regions of the matrix kernels, which read `i` and `j`:
/// `overlap = |x, y| x - 2.0 * y + i`, `left = |x| x * 3.0 + j`,
/// `right = |y| (i * 10 + j) - y`.
fn matrix_reference([o, l, r]: [R; 3], a: &Masked<f64>, b: &Masked<f64>) -> Masked<f64> {
    binary(
        a,
        b,
        |c, x, y| (o == F).then(|| x - 2.0 * y + c[0] as f64),
        |c, x| match l {
            F => Some(x * 3.0 + c[1] as f64),
            I => Some(x),
            N => None,
        },
        |c, y| match r {
            F => Some((c[0] * 10 + c[1]) as f64 - y),
            I => Some(y),
            N => None,
        },
    )
}

type In<'a, E, const D: usize> = SparseTensor<'a, f64, E, D, D>;
type Out<E, B, const D: usize> = SparseTensorOut<f64, E, B, D, D>;
type Reference = fn([R; 3], &Masked<f64>, &Masked<f64>) -> Masked<f64>;

/// The operands of one case: `a`, `b`, and what the sparse output is
/// computed from first (its result must be replaced).
struct Case<'a, const D: usize> {
    dims: [usize; D],
    a: &'a Entries<f64>,
    b: &'a Entries<f64>,
    prior: &'a Entries<f64>,
}

fn check_dense<EA: Encoding, EB: Encoding, const D: usize>(
    regions: [R; 3],
    (la, lb): (&[RefLevel], &[RefLevel]),
    case: &Case<'_, D>,
    reference: Reference,
    kernel: impl Fn(&In<'_, EA, D>, &In<'_, EB, D>, &mut [f64], [usize; D]) -> Result<(), KernelError>,
) -> Result<(), TestCaseError> {
    let Case { dims, a, b, .. } = *case;
    let want = reference(
        regions,
        &Masked::from_entries(&dims, a),
        &Masked::from_entries(&dims, b),
    );
    let mut c = vec![f64::GARBAGE; dims.iter().product()];
    let r = with_tensor(la, dims, a, |ta| {
        with_tensor(lb, dims, b, |tb| kernel(ta, tb, &mut c, dims))
    });
    prop_assert_eq!(r, Ok(()));
    prop_assert_eq!(
        &c,
        &want.dense().data,
        "{:?} {:?}: a = {:?}, b = {:?}",
        regions,
        dims,
        a,
        b
    );
    Ok(())
}

fn check_sparse<EA, EB, EC, B, const D: usize>(
    regions: [R; 3],
    (la, lb): (&[RefLevel], &[RefLevel]),
    case: &Case<'_, D>,
    reference: Reference,
    c: &mut Out<EC, B, D>,
    kernel: impl Fn(&In<'_, EA, D>, &In<'_, EB, D>, &mut Out<EC, B, D>) -> Result<(), KernelError>,
) -> Result<(), TestCaseError>
where
    EA: Encoding,
    EB: Encoding,
    EC: Encoding,
    B: OutputBuffers<EC::Pos, EC::Crd, f64>,
{
    let Case { dims, a, b, prior } = *case;
    for (x, y) in [(prior, a), (a, b)] {
        let r = with_tensor(la, dims, x, |tx| {
            with_tensor(lb, dims, y, |ty| kernel(tx, ty, &mut *c))
        });
        prop_assert_eq!(r, Ok(()));
        let want = reference(
            regions,
            &Masked::from_entries(&dims, x),
            &Masked::from_entries(&dims, y),
        );
        check_output(&c.view(), &want.stored(), &want.dense()).map_err(|e| {
            TestCaseError::fail(format!("{regions:?} {dims:?}: a = {x:?}, b = {y:?}: {e}"))
        })?;
        no_empty_segments(&c.view())
            .map_err(|e| TestCaseError::fail(format!("{regions:?} {dims:?}: a = {x:?}: {e}")))?;
    }
    Ok(())
}

/// Every combination of regions, on vectors and on matrices.
fn every_combination(v: &Case<'_, 1>, m: &Case<'_, 2>) -> Result<(), TestCaseError> {
    let vectors = (&SV[..], &SV[..]);
    let matrices = (&CSR[..], &DCSR[..]);
    let dcsr = (&DCSR[..], &DCSR[..]);
    macro_rules! combo {
        ($regions:expr, $v:ident, $vs:ident, $m:ident, $ms:ident) => {
            check_dense($regions, vectors, v, vector_reference, |a, b, c, _| {
                k::$v(a, b, c)
            })?;
            each_family!(v.dims, |c| {
                check_sparse($regions, vectors, v, vector_reference, &mut c, k::$vs)?;
            });
            check_dense($regions, matrices, m, matrix_reference, |a, b, c, d| {
                k::$m(a, b, DenseViewMut::new(c, d).unwrap())
            })?;
            each_family!(m.dims, |c| {
                check_sparse($regions, dcsr, m, matrix_reference, &mut c, k::$ms)?;
            });
        };
    }
    combo!([F, F, F], v_fff, vs_fff, m_fff, ms_fff);
    combo!([F, F, I], v_ffi, vs_ffi, m_ffi, ms_ffi);
    combo!([F, F, N], v_ffn, vs_ffn, m_ffn, ms_ffn);
    combo!([F, I, F], v_fif, vs_fif, m_fif, ms_fif);
    combo!([F, I, I], v_fii, vs_fii, m_fii, ms_fii);
    combo!([F, I, N], v_fin, vs_fin, m_fin, ms_fin);
    combo!([F, N, F], v_fnf, vs_fnf, m_fnf, ms_fnf);
    combo!([F, N, I], v_fni, vs_fni, m_fni, ms_fni);
    combo!([F, N, N], v_fnn, vs_fnn, m_fnn, ms_fnn);
    combo!([N, F, F], v_nff, vs_nff, m_nff, ms_nff);
    combo!([N, F, I], v_nfi, vs_nfi, m_nfi, ms_nfi);
    combo!([N, F, N], v_nfn, vs_nfn, m_nfn, ms_nfn);
    combo!([N, I, F], v_nif, vs_nif, m_nif, ms_nif);
    combo!([N, I, I], v_nii, vs_nii, m_nii, ms_nii);
    combo!([N, I, N], v_nin, vs_nin, m_nin, ms_nin);
    combo!([N, N, F], v_nnf, vs_nnf, m_nnf, ms_nnf);
    combo!([N, N, I], v_nni, vs_nni, m_nni, ms_nni);
    combo!([N, N, N], v_nnn, vs_nnn, m_nnn, ms_nnn);
    Ok(())
}

fn three<const RANK: usize>(
    max: usize,
) -> impl Strategy<Value = ([usize; RANK], Entries<f64>, Entries<f64>, Entries<f64>)> {
    dims::<RANK>(max).prop_flat_map(|d| (Just(d), entries(&d), entries(&d), entries(&d)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn every_region_combination(
        ([n], va, vb, vp) in three::<1>(9),
        (d, ma, mb, mp) in three::<2>(5),
    ) {
        let v = Case { dims: [n], a: &va, b: &vb, prior: &vp };
        let m = Case { dims: d, a: &ma, b: &mb, prior: &mp };
        every_combination(&v, &m)?;
    }
}

fn at<const D: usize>(entries: &[([usize; D], i32)]) -> Entries<f64> {
    entries
        .iter()
        .map(|&(c, k)| (c.to_vec(), f64::small(k)))
        .collect()
}

#[test]
fn edge_cases() {
    let none = Vec::new();
    // Empty and zero-sized operands.
    for (n, d) in [
        (0, [0, 0]),
        (1, [1, 1]),
        (5, [3, 4]),
        (4, [0, 3]),
        (3, [3, 0]),
    ] {
        let v = Case {
            dims: [n],
            a: &none,
            b: &none,
            prior: &none,
        };
        let m = Case {
            dims: d,
            a: &none,
            b: &none,
            prior: &none,
        };
        every_combination(&v, &m).unwrap();
    }
    // One side empty; disjoint; equal patterns; explicit zeros; a row
    // stored only in `a`, one only in `b`, one in both.
    let va = at(&[([0], 4), ([2], 0), ([3], -8)]);
    let vb = at(&[([1], 2), ([2], 0), ([4], 12)]);
    let full = at(&[([0], 1), ([1], 2), ([2], 3), ([3], 4), ([4], 5)]);
    let ma = at(&[([0, 0], 4), ([0, 2], 0), ([2, 1], -8), ([3, 3], 1)]);
    let mb = at(&[([1, 1], 2), ([2, 1], 0), ([2, 3], 12), ([3, 0], 5)]);
    let mfull: Entries<f64> = (0..16)
        .map(|p| (vec![p / 4, p % 4], f64::small(p as i32)))
        .collect();
    for (a, b, x, y) in [
        (&va, &none, &ma, &none),
        (&none, &vb, &none, &mb),
        (&va, &vb, &ma, &mb),
        (&va, &va, &ma, &ma),
        (&full, &vb, &mfull, &mb),
        (&va, &full, &ma, &mfull),
    ] {
        let v = Case {
            dims: [5],
            a,
            b,
            prior: &full,
        };
        let m = Case {
            dims: [4, 4],
            a: x,
            b: y,
            prior: &mfull,
        };
        every_combination(&v, &m).unwrap();
    }
}
