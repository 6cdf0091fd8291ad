/* SuiteSparse:GraphBLAS as a SpGEMM peer (GrB_mxm, plus-times and min-plus),
 * single-threaded. Compiled by build.rs only where <GraphBLAS.h> exists
 * (Debian: libgraphblas-dev). The matrices are imported once (copied into
 * GraphBLAS' CSR, by row); the timed call is GrB_mxm into a reused C plus
 * GrB_Matrix_wait (so C's rows are sorted and materialized, as ours). */
#include <GraphBLAS.h>
#include <stdint.h>
#include <stdlib.h>

void gb_init(void) {
    GrB_init(GrB_NONBLOCKING);
    GxB_set(GxB_NTHREADS, 1);
}

/* A CSR matrix (u32 arrays) as a GrB_Matrix of FP64 (f32 = 0) or FP32. */
void *gb_matrix(size_t m, size_t n, const uint32_t *pos, const uint32_t *crd, const void *val,
                int f32) {
    size_t nnz = pos[m];
    GrB_Index *p = malloc((m + 1) * sizeof(GrB_Index));
    GrB_Index *j = malloc((nnz ? nnz : 1) * sizeof(GrB_Index));
    for (size_t i = 0; i <= m; i++) p[i] = pos[i];
    for (size_t k = 0; k < nnz; k++) j[k] = crd[k];
    GrB_Matrix a = NULL;
    GrB_Info info =
        f32 ? GrB_Matrix_import_FP32(&a, GrB_FP32, m, n, p, j, (const float *)val, m + 1, nnz, nnz,
                                     GrB_CSR_FORMAT)
            : GrB_Matrix_import_FP64(&a, GrB_FP64, m, n, p, j, (const double *)val, m + 1, nnz, nnz,
                                     GrB_CSR_FORMAT);
    free(p);
    free(j);
    return info == GrB_SUCCESS ? (void *)a : NULL;
}

/* C = A B over plus-times (min_plus = 0) or min-plus; 0 on success. */
int gb_mxm(void *c, const void *a, const void *b, int min_plus, int f32) {
    GrB_Semiring s = f32 ? (min_plus ? GrB_MIN_PLUS_SEMIRING_FP32 : GrB_PLUS_TIMES_SEMIRING_FP32)
                         : (min_plus ? GrB_MIN_PLUS_SEMIRING_FP64 : GrB_PLUS_TIMES_SEMIRING_FP64);
    GrB_Info info = GrB_mxm((GrB_Matrix)c, NULL, NULL, s, (GrB_Matrix)a, (GrB_Matrix)b, NULL);
    if (info != GrB_SUCCESS) return (int)info;
    return (int)GrB_Matrix_wait((GrB_Matrix)c, GrB_MATERIALIZE);
}

/* An empty m x n result matrix for gb_mxm, held sparse (CSR): left free,
 * GraphBLAS keeps a dense enough product as a bitmap, which is no sorted
 * CSR and skips the work the other implementations do. */
void *gb_empty(size_t m, size_t n, int f32) {
    GrB_Matrix c = NULL;
    if (GrB_Matrix_new(&c, f32 ? GrB_FP32 : GrB_FP64, m, n) != GrB_SUCCESS) return NULL;
    GxB_Matrix_Option_set(c, GxB_SPARSITY_CONTROL, GxB_SPARSE);
    return (void *)c;
}

size_t gb_nvals(const void *c) {
    GrB_Index n = 0;
    GrB_Matrix_nvals(&n, (GrB_Matrix)c);
    return n;
}

/* The entries of C as (row, column, value in f64) triples. */
void gb_tuples(const void *c, uint64_t *i, uint64_t *j, double *x) {
    GrB_Index n = gb_nvals(c);
    GrB_Matrix_extractTuples_FP64(i, j, x, &n, (GrB_Matrix)c);
}

void gb_free(void *a) {
    GrB_Matrix m = (GrB_Matrix)a;
    GrB_Matrix_free(&m);
}

/* C = A' into a reused C (by row: the CSC arrays of A); 0 on success. */
int gb_transpose(void *c, const void *a) {
    GrB_Info info = GrB_transpose((GrB_Matrix)c, NULL, NULL, (GrB_Matrix)a, NULL);
    if (info != GrB_SUCCESS) return (int)info;
    return (int)GrB_Matrix_wait((GrB_Matrix)c, GrB_MATERIALIZE);
}

/* Triplets (as GrB_Index arrays, made once) into a reused m x n FP64 C,
 * repeats summed; 0 on success. */
int gb_build(void *c, const uint64_t *i, const uint64_t *j, const double *x, size_t len) {
    GrB_Matrix m = (GrB_Matrix)c;
    GrB_Info info = GrB_Matrix_clear(m);
    if (info != GrB_SUCCESS) return (int)info;
    info = GrB_Matrix_build_FP64(m, i, j, x, len, GrB_PLUS_FP64);
    if (info != GrB_SUCCESS) return (int)info;
    return (int)GrB_Matrix_wait(m, GrB_MATERIALIZE);
}
