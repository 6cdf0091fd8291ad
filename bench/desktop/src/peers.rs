//! The C and C++ library peers built by build.rs where installed:
//! SuiteSparse:GraphBLAS, Intel MKL and Eigen 3. Each wrapper owns its
//! library handle and reads results back as [`Out`] (CSR in f64). Where a
//! library is absent its constructor returns `None` and the tables lack
//! its row (`available()` says which ones are built).

#![allow(dead_code)]

use crate::gen::Csr;
use crate::ops::Out;

/// Which peers this binary was built with.
pub fn available() -> String {
    let mut s = Vec::new();
    s.push(if cfg!(peer_graphblas) {
        "GraphBLAS"
    } else {
        "GraphBLAS (absent)"
    });
    s.push(if cfg!(peer_mkl) {
        "MKL"
    } else {
        "MKL (absent)"
    });
    s.push(if cfg!(peer_eigen) {
        "Eigen"
    } else {
        "Eigen (absent)"
    });
    s.join(", ")
}

/// An element type the peers take: f64 or f32.
pub trait Elem: Copy + Into<f64> + Default + 'static {
    const F32: bool;
}
impl Elem for f64 {
    const F32: bool = false;
}
impl Elem for f32 {
    const F32: bool = true;
}

/// CSR arrays in `i32`-sized positions and coordinates to an [`Out`].
fn out_from<V: Copy + Into<f64>>(pos: &[i32], crd: &[i32], val: &[V]) -> Out {
    Out {
        pos: pos.iter().map(|&p| p as usize).collect(),
        crd: crd.iter().map(|&c| c as usize).collect(),
        val: val.iter().map(|&v| v.into()).collect(),
    }
}

#[cfg(peer_graphblas)]
mod gb_ffi {
    use std::ffi::c_void;
    extern "C" {
        pub fn gb_init();
        pub fn gb_matrix(
            m: usize,
            n: usize,
            pos: *const u32,
            crd: *const u32,
            val: *const c_void,
            f32: i32,
        ) -> *mut c_void;
        pub fn gb_empty(m: usize, n: usize, f32: i32) -> *mut c_void;
        pub fn gb_mxm(
            c: *mut c_void,
            a: *const c_void,
            b: *const c_void,
            min_plus: i32,
            f32: i32,
        ) -> i32;
        pub fn gb_nvals(c: *const c_void) -> usize;
        pub fn gb_tuples(c: *const c_void, i: *mut u64, j: *mut u64, x: *mut f64);
        pub fn gb_free(a: *mut c_void);
        pub fn gb_transpose(c: *mut c_void, a: *const c_void) -> i32;
        pub fn gb_build(
            c: *mut c_void,
            i: *const u64,
            j: *const u64,
            x: *const f64,
            len: usize,
        ) -> i32;
    }
}

/// GraphBLAS conversions: `GrB_transpose` of an imported CSR matrix
/// (CSR → CSC) or `GrB_Matrix_build` from triplets (COO → CSR, repeats
/// summed with `GrB_PLUS_FP64`), into a reused result held sparse.
pub struct GraphBlasConvert {
    #[cfg(peer_graphblas)]
    h: [*mut std::ffi::c_void; 2],
    #[allow(dead_code)]
    triplets: (Vec<u64>, Vec<u64>, Vec<f64>),
    rows: usize,
}

impl GraphBlasConvert {
    /// For CSR → CSC of `a` (`triplets: None`), or COO → CSR of the
    /// triplets `(i, j, v)` of an `m x n` matrix.
    #[allow(unused_variables)]
    pub fn new(a: &Csr, triplets: Option<(&[u32], &[u32], &[f64])>) -> Option<GraphBlasConvert> {
        #[cfg(peer_graphblas)]
        unsafe {
            use gb_ffi::*;
            static INIT: std::sync::Once = std::sync::Once::new();
            INIT.call_once(|| gb_init());
            let (ha, rows, t) = match triplets {
                None => (
                    gb_matrix(
                        a.rows,
                        a.cols,
                        a.pos.as_ptr(),
                        a.crd.as_ptr(),
                        a.val.as_ptr().cast(),
                        0,
                    ),
                    a.cols,
                    Default::default(),
                ),
                Some((i, j, v)) => (
                    std::ptr::null_mut(),
                    a.rows,
                    (
                        i.iter().map(|&x| x as u64).collect(),
                        j.iter().map(|&x| x as u64).collect(),
                        v.to_vec(),
                    ),
                ),
            };
            let (m, n) = if triplets.is_none() {
                (a.cols, a.rows)
            } else {
                (a.rows, a.cols)
            };
            let hc = gb_empty(m, n, 0);
            assert!(!hc.is_null(), "GraphBLAS result");
            return Some(GraphBlasConvert {
                h: [ha, hc],
                triplets: t,
                rows,
            });
        }
        #[allow(unreachable_code)]
        None
    }

    pub fn run(&mut self) {
        #[cfg(peer_graphblas)]
        unsafe {
            let r = if self.h[0].is_null() {
                let (i, j, x) = &self.triplets;
                gb_ffi::gb_build(self.h[1], i.as_ptr(), j.as_ptr(), x.as_ptr(), x.len())
            } else {
                gb_ffi::gb_transpose(self.h[1], self.h[0])
            };
            assert_eq!(r, 0, "GraphBLAS conversion");
        }
    }

    /// The result's CSR arrays (for CSR → CSC: the CSC arrays of `a`).
    pub fn out(&self) -> Out {
        #[cfg(peer_graphblas)]
        {
            let g = GraphBlas {
                h: [std::ptr::null_mut(), std::ptr::null_mut(), self.h[1]],
                rows: self.rows,
            };
            let o = g.out();
            std::mem::forget(g);
            return o;
        }
        #[allow(unreachable_code)]
        Out::default()
    }
}

impl Drop for GraphBlasConvert {
    fn drop(&mut self) {
        #[cfg(peer_graphblas)]
        for h in self.h {
            if !h.is_null() {
                unsafe { gb_ffi::gb_free(h) };
            }
        }
    }
}

/// GraphBLAS' `GrB_mxm` of two imported matrices into a reused result.
pub struct GraphBlas {
    #[cfg(peer_graphblas)]
    h: [*mut std::ffi::c_void; 3],
    rows: usize,
}

impl GraphBlas {
    /// `A B` over plus-times or min-plus; `None` where GraphBLAS is absent.
    #[allow(unused_variables)]
    pub fn new<T: Elem>(a: &Csr, av: &[T], b: &Csr, bv: &[T]) -> Option<GraphBlas> {
        #[cfg(peer_graphblas)]
        unsafe {
            use gb_ffi::*;
            static INIT: std::sync::Once = std::sync::Once::new();
            INIT.call_once(|| gb_init());
            let f = i32::from(T::F32);
            let ha = gb_matrix(
                a.rows,
                a.cols,
                a.pos.as_ptr(),
                a.crd.as_ptr(),
                av.as_ptr().cast(),
                f,
            );
            let hb = gb_matrix(
                b.rows,
                b.cols,
                b.pos.as_ptr(),
                b.crd.as_ptr(),
                bv.as_ptr().cast(),
                f,
            );
            let hc = gb_empty(a.rows, b.cols, f);
            assert!(
                !ha.is_null() && !hb.is_null() && !hc.is_null(),
                "GraphBLAS import"
            );
            return Some(GraphBlas {
                h: [ha, hb, hc],
                rows: a.rows,
            });
        }
        #[allow(unreachable_code)]
        None
    }

    /// `C = A B`, sorted and materialized.
    #[allow(unused_variables)]
    pub fn run<T: Elem>(&mut self, min_plus: bool) {
        #[cfg(peer_graphblas)]
        unsafe {
            let r = gb_ffi::gb_mxm(
                self.h[2],
                self.h[0],
                self.h[1],
                i32::from(min_plus),
                i32::from(T::F32),
            );
            assert_eq!(r, 0, "GrB_mxm");
        }
    }

    /// The last result.
    pub fn out(&self) -> Out {
        #[cfg(peer_graphblas)]
        unsafe {
            let n = gb_ffi::gb_nvals(self.h[2]);
            let (mut i, mut j, mut x) = (vec![0u64; n], vec![0u64; n], vec![0f64; n]);
            gb_ffi::gb_tuples(self.h[2], i.as_mut_ptr(), j.as_mut_ptr(), x.as_mut_ptr());
            let mut t: Vec<(u64, u64, f64)> = (0..n).map(|k| (i[k], j[k], x[k])).collect();
            t.sort_by_key(|e| (e.0, e.1));
            let mut o = Out {
                pos: vec![0; self.rows + 1],
                ..Out::default()
            };
            for (r, c, v) in t {
                o.pos[r as usize + 1] += 1;
                o.crd.push(c as usize);
                o.val.push(v);
            }
            for r in 0..self.rows {
                o.pos[r + 1] += o.pos[r];
            }
            return o;
        }
        #[allow(unreachable_code)]
        Out::default()
    }
}

impl Drop for GraphBlas {
    fn drop(&mut self) {
        #[cfg(peer_graphblas)]
        for h in self.h {
            unsafe { gb_ffi::gb_free(h) };
        }
    }
}

#[cfg(peer_mkl)]
mod mkl_ffi {
    use std::ffi::c_void;
    extern "C" {
        pub fn mkl_peer_init();
        pub fn mkl_peer_matrix(
            m: usize,
            n: usize,
            pos: *const u32,
            crd: *const u32,
            val: *mut c_void,
            f32: i32,
        ) -> *mut c_void;
        pub fn mkl_peer_spgemm(c: *mut *mut c_void, a: *mut c_void, b: *mut c_void) -> i32;
        pub fn mkl_peer_export(
            c: *mut c_void,
            f32: i32,
            rows: *mut usize,
            start: *mut *const i32,
            end: *mut *const i32,
            col: *mut *const i32,
            val: *mut *const c_void,
        ) -> i32;
        pub fn mkl_peer_free(a: *mut c_void);
    }
}

/// MKL's `mkl_sparse_spmm` + `mkl_sparse_order` over handles on the
/// caller's arrays (which must outlive it: it holds their addresses).
pub struct Mkl<T: Elem> {
    #[cfg(peer_mkl)]
    h: [*mut std::ffi::c_void; 3],
    // MKL's create_csr takes non-const values: its own copy.
    _vals: (Vec<T>, Vec<T>),
}

impl<T: Elem> Mkl<T> {
    #[allow(unused_variables, unused_mut)]
    pub fn new(a: &Csr, av: &[T], b: &Csr, bv: &[T]) -> Option<Mkl<T>> {
        #[cfg(peer_mkl)]
        unsafe {
            static INIT: std::sync::Once = std::sync::Once::new();
            INIT.call_once(|| mkl_ffi::mkl_peer_init());
            let (mut va, mut vb) = (av.to_vec(), bv.to_vec());
            let f = i32::from(T::F32);
            let ha = mkl_ffi::mkl_peer_matrix(
                a.rows,
                a.cols,
                a.pos.as_ptr(),
                a.crd.as_ptr(),
                va.as_mut_ptr().cast(),
                f,
            );
            let hb = mkl_ffi::mkl_peer_matrix(
                b.rows,
                b.cols,
                b.pos.as_ptr(),
                b.crd.as_ptr(),
                vb.as_mut_ptr().cast(),
                f,
            );
            assert!(!ha.is_null() && !hb.is_null(), "MKL create_csr");
            return Some(Mkl {
                h: [ha, hb, std::ptr::null_mut()],
                _vals: (va, vb),
            });
        }
        #[allow(unreachable_code)]
        None
    }

    pub fn run(&mut self) {
        #[cfg(peer_mkl)]
        unsafe {
            let r = mkl_ffi::mkl_peer_spgemm(&mut self.h[2], self.h[0], self.h[1]);
            assert_eq!(r, 0, "mkl_sparse_spmm");
        }
    }

    pub fn out(&self) -> Out {
        #[cfg(peer_mkl)]
        unsafe {
            let (mut rows, mut s, mut e, mut c) =
                (0usize, std::ptr::null(), std::ptr::null(), std::ptr::null());
            let mut v = std::ptr::null();
            let r = mkl_ffi::mkl_peer_export(
                self.h[2],
                i32::from(T::F32),
                &mut rows,
                &mut s,
                &mut e,
                &mut c,
                &mut v,
            );
            assert_eq!(r, 0, "mkl export");
            let start = std::slice::from_raw_parts(s, rows);
            let end = std::slice::from_raw_parts(e, rows);
            let mut o = Out {
                pos: vec![0],
                ..Out::default()
            };
            let v: *const T = v.cast();
            for i in 0..rows {
                for p in start[i] as usize..end[i] as usize {
                    o.crd.push(*c.add(p) as usize);
                    o.val.push((*v.add(p)).into());
                }
                o.pos.push(o.crd.len());
            }
            return o;
        }
        #[allow(unreachable_code)]
        Out::default()
    }
}

impl<T: Elem> Drop for Mkl<T> {
    fn drop(&mut self) {
        #[cfg(peer_mkl)]
        for h in self.h {
            unsafe { mkl_ffi::mkl_peer_free(h) };
        }
    }
}

#[cfg(peer_eigen)]
mod eigen_ffi {
    use std::ffi::c_void;
    macro_rules! product {
        ($new:ident, $run:ident, $res:ident, $free:ident, $t:ty) => {
            extern "C" {
                pub fn $new(
                    m: usize,
                    k: usize,
                    n: usize,
                    ap: *const u32,
                    aj: *const u32,
                    av: *const $t,
                    bp: *const u32,
                    bj: *const u32,
                    bv: *const $t,
                ) -> *mut c_void;
                pub fn $run(h: *mut c_void);
                pub fn $res(
                    h: *mut c_void,
                    p: *mut *const i32,
                    c: *mut *const i32,
                    v: *mut *const $t,
                ) -> usize;
                pub fn $free(h: *mut c_void);
            }
        };
    }
    product!(
        eigen_product_f64,
        eigen_product_run_f64,
        eigen_product_result_f64,
        eigen_product_free_f64,
        f64
    );
    product!(
        eigen_product_f32,
        eigen_product_run_f32,
        eigen_product_result_f32,
        eigen_product_free_f32,
        f32
    );
    extern "C" {
        pub fn eigen_triplets(
            m: usize,
            n: usize,
            len: usize,
            i: *const u32,
            j: *const u32,
            v: *const f64,
        ) -> *mut c_void;
        pub fn eigen_set_from_triplets(h: *mut c_void);
        pub fn eigen_triplets_result(
            h: *mut c_void,
            p: *mut *const i32,
            c: *mut *const i32,
            v: *mut *const f64,
        ) -> usize;
        pub fn eigen_triplets_free(h: *mut c_void);
        pub fn eigen_to_csc(
            m: usize,
            n: usize,
            p: *const u32,
            j: *const u32,
            v: *const f64,
        ) -> *mut c_void;
        pub fn eigen_to_csc_run(h: *mut c_void);
        pub fn eigen_to_csc_result(
            h: *mut c_void,
            p: *mut *const i32,
            c: *mut *const i32,
            v: *mut *const f64,
        ) -> usize;
        pub fn eigen_to_csc_free(h: *mut c_void);
    }
}

/// Eigen's CSR → CSC: a ColMajor copy of a RowMajor map of `a`'s arrays
/// (which must outlive it), into a reused matrix.
pub struct EigenToCsc {
    #[cfg(peer_eigen)]
    h: *mut std::ffi::c_void,
    cols: usize,
}

impl EigenToCsc {
    #[allow(unused_variables)]
    pub fn new(a: &Csr) -> Option<EigenToCsc> {
        #[cfg(peer_eigen)]
        unsafe {
            let h = eigen_ffi::eigen_to_csc(
                a.rows,
                a.cols,
                a.pos.as_ptr(),
                a.crd.as_ptr(),
                a.val.as_ptr(),
            );
            return Some(EigenToCsc { h, cols: a.cols });
        }
        #[allow(unreachable_code)]
        None
    }

    pub fn run(&mut self) {
        #[cfg(peer_eigen)]
        unsafe {
            eigen_ffi::eigen_to_csc_run(self.h)
        }
    }

    /// The CSC arrays (column pointers, row indices, values).
    pub fn out(&self) -> Out {
        #[cfg(peer_eigen)]
        unsafe {
            let (mut p, mut c, mut v) = (std::ptr::null(), std::ptr::null(), std::ptr::null());
            let n = eigen_ffi::eigen_to_csc_result(self.h, &mut p, &mut c, &mut v);
            use std::slice::from_raw_parts as s;
            return out_from(s(p, self.cols + 1), s(c, n), s(v, n));
        }
        #[allow(unreachable_code)]
        Out::default()
    }
}

impl Drop for EigenToCsc {
    fn drop(&mut self) {
        #[cfg(peer_eigen)]
        unsafe {
            eigen_ffi::eigen_to_csc_free(self.h)
        }
    }
}

/// Eigen's sparse product `C = A * B` (RowMajor, int indices) over maps of
/// the caller's arrays, which must outlive it.
pub struct EigenProduct {
    #[cfg(peer_eigen)]
    h: *mut std::ffi::c_void,
    f32: bool,
    rows: usize,
}

impl EigenProduct {
    #[allow(unused_variables)]
    pub fn new<T: Elem>(a: &Csr, av: &[T], b: &Csr, bv: &[T]) -> Option<EigenProduct> {
        #[cfg(peer_eigen)]
        unsafe {
            let (ap, aj, bp, bj) = (
                a.pos.as_ptr(),
                a.crd.as_ptr(),
                b.pos.as_ptr(),
                b.crd.as_ptr(),
            );
            let h = if T::F32 {
                eigen_ffi::eigen_product_f32(
                    a.rows,
                    a.cols,
                    b.cols,
                    ap,
                    aj,
                    av.as_ptr().cast(),
                    bp,
                    bj,
                    bv.as_ptr().cast(),
                )
            } else {
                eigen_ffi::eigen_product_f64(
                    a.rows,
                    a.cols,
                    b.cols,
                    ap,
                    aj,
                    av.as_ptr().cast(),
                    bp,
                    bj,
                    bv.as_ptr().cast(),
                )
            };
            return Some(EigenProduct {
                h,
                f32: T::F32,
                rows: a.rows,
            });
        }
        #[allow(unreachable_code)]
        None
    }

    pub fn run(&mut self) {
        #[cfg(peer_eigen)]
        unsafe {
            if self.f32 {
                eigen_ffi::eigen_product_run_f32(self.h)
            } else {
                eigen_ffi::eigen_product_run_f64(self.h)
            }
        }
    }

    pub fn out(&self) -> Out {
        #[cfg(peer_eigen)]
        unsafe {
            let (mut p, mut c) = (std::ptr::null(), std::ptr::null());
            let rows = self.rows;
            return if self.f32 {
                let mut v = std::ptr::null();
                let n = eigen_ffi::eigen_product_result_f32(self.h, &mut p, &mut c, &mut v);
                use std::slice::from_raw_parts as s;
                out_from(s(p, rows + 1), s(c, n), s(v, n))
            } else {
                let mut v = std::ptr::null();
                let n = eigen_ffi::eigen_product_result_f64(self.h, &mut p, &mut c, &mut v);
                use std::slice::from_raw_parts as s;
                out_from(s(p, rows + 1), s(c, n), s(v, n))
            };
        }
        #[allow(unreachable_code)]
        Out::default()
    }
}

impl Drop for EigenProduct {
    fn drop(&mut self) {
        #[cfg(peer_eigen)]
        unsafe {
            if self.f32 {
                eigen_ffi::eigen_product_free_f32(self.h)
            } else {
                eigen_ffi::eigen_product_free_f64(self.h)
            }
        }
    }
}

/// Eigen's `setFromTriplets` (repeats summed) into a reused RowMajor
/// matrix, from triplets built once.
pub struct EigenTriplets {
    #[cfg(peer_eigen)]
    h: *mut std::ffi::c_void,
    rows: usize,
}

impl EigenTriplets {
    #[allow(unused_variables)]
    pub fn new(m: usize, n: usize, i: &[u32], j: &[u32], v: &[f64]) -> Option<EigenTriplets> {
        #[cfg(peer_eigen)]
        unsafe {
            let h = eigen_ffi::eigen_triplets(m, n, i.len(), i.as_ptr(), j.as_ptr(), v.as_ptr());
            return Some(EigenTriplets { h, rows: m });
        }
        #[allow(unreachable_code)]
        None
    }

    pub fn run(&mut self) {
        #[cfg(peer_eigen)]
        unsafe {
            eigen_ffi::eigen_set_from_triplets(self.h)
        }
    }

    pub fn out(&self) -> Out {
        #[cfg(peer_eigen)]
        unsafe {
            let (mut p, mut c, mut v) = (std::ptr::null(), std::ptr::null(), std::ptr::null());
            let n = eigen_ffi::eigen_triplets_result(self.h, &mut p, &mut c, &mut v);
            use std::slice::from_raw_parts as s;
            return out_from(s(p, self.rows + 1), s(c, n), s(v, n));
        }
        #[allow(unreachable_code)]
        Out::default()
    }
}

impl Drop for EigenTriplets {
    fn drop(&mut self) {
        #[cfg(peer_eigen)]
        unsafe {
            eigen_ffi::eigen_triplets_free(self.h)
        }
    }
}
