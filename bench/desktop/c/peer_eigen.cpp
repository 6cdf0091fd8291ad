// Eigen 3 as a peer: SparseMatrix<_, RowMajor, int> product (A * B, the
// conservative product: sorted rows) and setFromTriplets (COO -> CSR,
// repeats summed). Compiled by build.rs only where Eigen's headers are
// found (Debian: libeigen3-dev).
#include <Eigen/SparseCore>
#include <cstddef>
#include <cstdint>
#include <vector>

template <class T> using Csr = Eigen::SparseMatrix<T, Eigen::RowMajor, int>;

template <class T> struct Product {
    Eigen::Map<const Csr<T>> a, b;
    Csr<T> c;
};

template <class T>
static void *product_new(size_t m, size_t k, size_t n, const uint32_t *ap, const uint32_t *aj,
                         const T *av, const uint32_t *bp, const uint32_t *bj, const T *bv) {
    auto *p = new Product<T>{
        Eigen::Map<const Csr<T>>(m, k, ap[m], (const int *)ap, (const int *)aj, av),
        Eigen::Map<const Csr<T>>(k, n, bp[k], (const int *)bp, (const int *)bj, bv), Csr<T>()};
    return p;
}

template <class T> static void product_run(void *h) {
    auto *p = (Product<T> *)h;
    p->c = p->a * p->b;
}

// The result's arrays (compressed: the outer index has rows + 1 entries).
template <class T>
static size_t product_result(void *h, const int **pos, const int **crd, const T **val) {
    auto *p = (Product<T> *)h;
    p->c.makeCompressed();
    *pos = p->c.outerIndexPtr();
    *crd = p->c.innerIndexPtr();
    *val = p->c.valuePtr();
    return p->c.nonZeros();
}

extern "C" {
void *eigen_product_f64(size_t m, size_t k, size_t n, const uint32_t *ap, const uint32_t *aj,
                        const double *av, const uint32_t *bp, const uint32_t *bj, const double *bv) {
    return product_new<double>(m, k, n, ap, aj, av, bp, bj, bv);
}
void *eigen_product_f32(size_t m, size_t k, size_t n, const uint32_t *ap, const uint32_t *aj,
                        const float *av, const uint32_t *bp, const uint32_t *bj, const float *bv) {
    return product_new<float>(m, k, n, ap, aj, av, bp, bj, bv);
}
void eigen_product_run_f64(void *h) { product_run<double>(h); }
void eigen_product_run_f32(void *h) { product_run<float>(h); }
size_t eigen_product_result_f64(void *h, const int **p, const int **c, const double **v) {
    return product_result<double>(h, p, c, v);
}
size_t eigen_product_result_f32(void *h, const int **p, const int **c, const float **v) {
    return product_result<float>(h, p, c, v);
}
void eigen_product_free_f64(void *h) { delete (Product<double> *)h; }
void eigen_product_free_f32(void *h) { delete (Product<float> *)h; }

// COO -> CSR with repeats summed: the triplets are built once by the caller
// handle; the timed call is setFromTriplets into a reused matrix.
struct Triplets {
    std::vector<Eigen::Triplet<double, int>> t;
    Csr<double> c;
    size_t m, n;
};
void *eigen_triplets(size_t m, size_t n, size_t len, const uint32_t *i, const uint32_t *j,
                     const double *v) {
    auto *h = new Triplets{{}, Csr<double>(), m, n};
    h->t.reserve(len);
    for (size_t k = 0; k < len; k++) h->t.emplace_back((int)i[k], (int)j[k], v[k]);
    return h;
}
void eigen_set_from_triplets(void *h) {
    auto *p = (Triplets *)h;
    p->c.resize(p->m, p->n);
    p->c.setFromTriplets(p->t.begin(), p->t.end());
}
size_t eigen_triplets_result(void *h, const int **pos, const int **crd, const double **val) {
    auto *p = (Triplets *)h;
    p->c.makeCompressed();
    *pos = p->c.outerIndexPtr();
    *crd = p->c.innerIndexPtr();
    *val = p->c.valuePtr();
    return p->c.nonZeros();
}
void eigen_triplets_free(void *h) { delete (Triplets *)h; }

// CSR -> CSC: a ColMajor copy of a RowMajor map (Eigen's count and
// scatter between storage orders), into a reused matrix.
struct ToCsc {
    Eigen::Map<const Csr<double>> a;
    Eigen::SparseMatrix<double, Eigen::ColMajor, int> c;
};
void *eigen_to_csc(size_t m, size_t n, const uint32_t *p, const uint32_t *j, const double *v) {
    return new ToCsc{Eigen::Map<const Csr<double>>(m, n, p[m], (const int *)p, (const int *)j, v), {}};
}
void eigen_to_csc_run(void *h) {
    auto *t = (ToCsc *)h;
    t->c = t->a;
}
size_t eigen_to_csc_result(void *h, const int **pos, const int **crd, const double **val) {
    auto *t = (ToCsc *)h;
    t->c.makeCompressed();
    *pos = t->c.outerIndexPtr();
    *crd = t->c.innerIndexPtr();
    *val = t->c.valuePtr();
    return t->c.nonZeros();
}
void eigen_to_csc_free(void *h) { delete (ToCsc *)h; }
}
