/* Hand-written reference loops, compiled with -O3 by build.rs (the cc crate).
 * The plain loops a C programmer would write: int32 (or uint16) indices,
 * no intrinsics, no restrict tricks beyond what the types say. */
#include <stddef.h>
#include <stdint.h>

#define SPMV_CSR(NAME, V, I)                                                   \
    void NAME(size_t n, const int32_t *pos, const I *crd, const V *val,        \
              const V *x, V *y) {                                              \
        for (size_t i = 0; i < n; i++) {                                       \
            V s = 0;                                                           \
            for (int32_t p = pos[i]; p < pos[i + 1]; p++) s += val[p] * x[crd[p]]; \
            y[i] = s;                                                          \
        }                                                                      \
    }
SPMV_CSR(c_spmv_csr_f64_i32, double, int32_t)
SPMV_CSR(c_spmv_csr_f32_i32, float, int32_t)
SPMV_CSR(c_spmv_csr_f64_u16, double, uint16_t)
SPMV_CSR(c_spmv_csr_f32_u16, float, uint16_t)

/* y = A x with A in CSC (pos over columns, crd = row indices). */
#define SPMV_CSC(NAME, V)                                                      \
    void NAME(size_t m, size_t n, const int32_t *pos, const int32_t *crd,      \
              const V *val, const V *x, V *y) {                                \
        for (size_t i = 0; i < m; i++) y[i] = 0;                               \
        for (size_t j = 0; j < n; j++) {                                       \
            V xj = x[j];                                                       \
            for (int32_t p = pos[j]; p < pos[j + 1]; p++) y[crd[p]] += val[p] * xj; \
        }                                                                      \
    }
SPMV_CSC(c_spmv_csc_f64, double)
SPMV_CSC(c_spmv_csc_f32, float)

/* STREAM triad a = b + s c. */
void c_triad(size_t n, double *a, const double *b, const double *c, double s) {
    for (size_t i = 0; i < n; i++) a[i] = b[i] + s * c[i];
}

/* C = A + B, CSR, two-pointer merge into caller-sized buffers. Returns nnz. */
#define ADD(NAME, V)                                                           \
    size_t NAME(size_t m, const int32_t *ap, const int32_t *ac, const V *av,   \
                const int32_t *bp, const int32_t *bc, const V *bv,             \
                int32_t *cp, int32_t *cc, V *cv) {                             \
        int32_t k = 0;                                                         \
        cp[0] = 0;                                                             \
        for (size_t i = 0; i < m; i++) {                                       \
            int32_t p = ap[i], pe = ap[i + 1], q = bp[i], qe = bp[i + 1];      \
            while (p < pe && q < qe) {                                         \
                int32_t ja = ac[p], jb = bc[q];                                \
                if (ja < jb) { cc[k] = ja; cv[k++] = av[p++]; }                \
                else if (jb < ja) { cc[k] = jb; cv[k++] = bv[q++]; }           \
                else { cc[k] = ja; cv[k++] = av[p++] + bv[q++]; }              \
            }                                                                  \
            while (p < pe) { cc[k] = ac[p]; cv[k++] = av[p++]; }               \
            while (q < qe) { cc[k] = bc[q]; cv[k++] = bv[q++]; }               \
            cp[i + 1] = k;                                                     \
        }                                                                      \
        return (size_t)k;                                                      \
    }
ADD(c_add_f64, double)
ADD(c_add_f32, float)

/* SDDMM: out[p] = s[p] * dot(u[i, :], vt[j, :]) over the pattern of S. */
#define SDDMM(NAME, V)                                                         \
    void NAME(size_t m, size_t k, const int32_t *pos, const int32_t *crd,      \
              const V *s, const V *u, const V *vt, V *out) {                   \
        for (size_t i = 0; i < m; i++) {                                       \
            const V *ui = u + i * k;                                           \
            for (int32_t p = pos[i]; p < pos[i + 1]; p++) {                    \
                const V *vj = vt + (size_t)crd[p] * k;                         \
                V d = 0;                                                       \
                for (size_t t = 0; t < k; t++) d += ui[t] * vj[t];             \
                out[p] = s[p] * d;                                             \
            }                                                                  \
        }                                                                      \
    }
SDDMM(c_sddmm_f64, double)
SDDMM(c_sddmm_f32, float)
