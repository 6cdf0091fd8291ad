//! Semiring operations (`binary`, `unary`, `select`, `reduce`) and index
//! variables as values, against a dense reference that evaluates each
//! region on the masks of stored entries (`sparse_tests::semiring`):
//! seed 000's examples (`seeds`), every region combination (`binary`,
//! `binary_forms`, `unary`), reductions (`reduce`, `reduce_products`),
//! shared summed indices (`spgemm`), closures as Rust (`closures`), the
//! less common formats (`formats`), sparse outputs too small for the
//! result (`capacity`) and one kernel per lattice shape (`lowering`).
//!
//! One test binary (a tier); each file below is a module of it.

mod semiring {
    mod binary;
    mod binary_forms;
    mod capacity;
    mod closures;
    mod formats;
    mod lowering;
    mod reduce;
    mod reduce_products;
    mod seeds;
    mod spgemm;
    mod unary;
}
