/* Intel MKL's inspector-executor SpGEMM as a peer (mkl_sparse_spmm, then
 * mkl_sparse_order so the rows are sorted as ours), sequential threading
 * layer. Compiled by build.rs only where mkl_spblas.h and libmkl_rt are
 * found (the `mkl` and `mkl-include` wheels from PyPI, or MKLROOT). */
#include <mkl_service.h>
#include <mkl_spblas.h>
#include <stdint.h>

void mkl_peer_init(void) {
    mkl_set_threading_layer(MKL_THREADING_SEQUENTIAL);
    mkl_set_num_threads(1);
}

/* A handle over the caller's CSR arrays (u32 read as MKL_INT = int32: LP64
 * interface, coordinates below 2^31); NULL on error. */
void *mkl_peer_matrix(size_t m, size_t n, const uint32_t *pos, const uint32_t *crd, void *val,
                      int f32) {
    sparse_matrix_t a = NULL;
    MKL_INT *p = (MKL_INT *)pos, *c = (MKL_INT *)crd;
    sparse_status_t s =
        f32 ? mkl_sparse_s_create_csr(&a, SPARSE_INDEX_BASE_ZERO, m, n, p, p + 1, c, (float *)val)
            : mkl_sparse_d_create_csr(&a, SPARSE_INDEX_BASE_ZERO, m, n, p, p + 1, c, (double *)val);
    return s == SPARSE_STATUS_SUCCESS ? (void *)a : NULL;
}

/* C = A B with sorted rows; frees the previous *c. 0 on success. */
int mkl_peer_spgemm(void **c, void *a, void *b) {
    if (*c) mkl_sparse_destroy((sparse_matrix_t)*c);
    *c = NULL;
    sparse_matrix_t r = NULL;
    sparse_status_t s = mkl_sparse_spmm(SPARSE_OPERATION_NON_TRANSPOSE, (sparse_matrix_t)a,
                                        (sparse_matrix_t)b, &r);
    if (s != SPARSE_STATUS_SUCCESS) return (int)s;
    *c = r;
    return (int)mkl_sparse_order(r);
}

/* C's CSR arrays (rows_start, rows_end, columns, values); 0 on success. */
int mkl_peer_export(void *c, int f32, size_t *rows, const int **start, const int **end,
                    const int **col, const void **val) {
    sparse_index_base_t base;
    MKL_INT r, n;
    MKL_INT *s, *e, *j;
    sparse_status_t st;
    if (f32) {
        float *v;
        st = mkl_sparse_s_export_csr((sparse_matrix_t)c, &base, &r, &n, &s, &e, &j, &v);
        *val = v;
    } else {
        double *v;
        st = mkl_sparse_d_export_csr((sparse_matrix_t)c, &base, &r, &n, &s, &e, &j, &v);
        *val = v;
    }
    *rows = (size_t)r;
    *start = s;
    *end = e;
    *col = j;
    return (int)st;
}

void mkl_peer_free(void *a) {
    if (a) mkl_sparse_destroy((sparse_matrix_t)a);
}

/* SpMV peers: a handle for y = A x, plain (`optimize` 0) or after
 * mkl_sparse_set_mv_hint + mkl_sparse_optimize (MKL then picks its own
 * layout, e.g. sliced ELLPACK); NULL on error. */
void *mkl_peer_mv_matrix(size_t m, size_t n, const uint32_t *pos, const uint32_t *crd, void *val,
                         int f32, int optimize) {
    sparse_matrix_t a = (sparse_matrix_t)mkl_peer_matrix(m, n, pos, crd, val, f32);
    if (a && optimize) {
        struct matrix_descr d = {.type = SPARSE_MATRIX_TYPE_GENERAL};
        if (mkl_sparse_set_mv_hint(a, SPARSE_OPERATION_NON_TRANSPOSE, d, 1000000) !=
                SPARSE_STATUS_SUCCESS ||
            mkl_sparse_optimize(a) != SPARSE_STATUS_SUCCESS) {
            mkl_sparse_destroy(a);
            return NULL;
        }
    }
    return (void *)a;
}

/* y = A x; 0 on success. */
int mkl_peer_mv(void *a, int f32, const void *x, void *y) {
    struct matrix_descr d = {.type = SPARSE_MATRIX_TYPE_GENERAL};
    sparse_operation_t op = SPARSE_OPERATION_NON_TRANSPOSE;
    return (int)(f32 ? mkl_sparse_s_mv(op, 1.0f, (sparse_matrix_t)a, d, (const float *)x, 0.0f,
                                       (float *)y)
                     : mkl_sparse_d_mv(op, 1.0, (sparse_matrix_t)a, d, (const double *)x, 0.0,
                                       (double *)y));
}
