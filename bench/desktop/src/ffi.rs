//! The C -O3 reference loops (c/kernels.c).

extern "C" {
    pub fn c_spmv_csr_f64_i32(
        n: usize,
        pos: *const u32,
        crd: *const u32,
        val: *const f64,
        x: *const f64,
        y: *mut f64,
    );
    pub fn c_spmv_csr_f32_i32(
        n: usize,
        pos: *const u32,
        crd: *const u32,
        val: *const f32,
        x: *const f32,
        y: *mut f32,
    );
    pub fn c_spmv_csr_f64_u16(
        n: usize,
        pos: *const u32,
        crd: *const u16,
        val: *const f64,
        x: *const f64,
        y: *mut f64,
    );
    pub fn c_spmv_csr_f32_u16(
        n: usize,
        pos: *const u32,
        crd: *const u16,
        val: *const f32,
        x: *const f32,
        y: *mut f32,
    );
    pub fn c_spmv_csc_f64(
        m: usize,
        n: usize,
        pos: *const u32,
        crd: *const u32,
        val: *const f64,
        x: *const f64,
        y: *mut f64,
    );
    pub fn c_spmv_csc_f32(
        m: usize,
        n: usize,
        pos: *const u32,
        crd: *const u32,
        val: *const f32,
        x: *const f32,
        y: *mut f32,
    );
    pub fn c_triad(n: usize, a: *mut f64, b: *const f64, c: *const f64, s: f64);
    #[allow(clippy::too_many_arguments)]
    pub fn c_add_f64(
        m: usize,
        ap: *const u32,
        ac: *const u32,
        av: *const f64,
        bp: *const u32,
        bc: *const u32,
        bv: *const f64,
        cp: *mut u32,
        cc: *mut u32,
        cv: *mut f64,
    ) -> usize;
    #[allow(clippy::too_many_arguments)]
    pub fn c_add_f32(
        m: usize,
        ap: *const u32,
        ac: *const u32,
        av: *const f32,
        bp: *const u32,
        bc: *const u32,
        bv: *const f32,
        cp: *mut u32,
        cc: *mut u32,
        cv: *mut f32,
    ) -> usize;
    #[allow(clippy::too_many_arguments)]
    pub fn c_sddmm_f64(
        m: usize,
        k: usize,
        pos: *const u32,
        crd: *const u32,
        s: *const f64,
        u: *const f64,
        vt: *const f64,
        out: *mut f64,
    );
    #[allow(clippy::too_many_arguments)]
    pub fn c_sddmm_f32(
        m: usize,
        k: usize,
        pos: *const u32,
        crd: *const u32,
        s: *const f32,
        u: *const f32,
        vt: *const f32,
        out: *mut f32,
    );
}
