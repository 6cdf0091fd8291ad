//! One constant per storage family, each from a literal: the printed
//! layout (MLIR's `sparse_tensor.print`) against a hand-computed one, the
//! entries against the dense matrix, and the buffers re-checked by the
//! validating `assemble`, which must accept them unchanged.

use std::fmt::Display;

use sparse_core::{Encoding, SparseTensor};

sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 8, crdWidth = 8 }>
    #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
    #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed), posWidth = 16, crdWidth = 16 }>
    #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
    #COOSOA = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton(soa)) }>
    #COODUP = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton(nonunique)) }>
    #LOOSE = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : loose_compressed) }>
    #DENSE = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : dense) }>
    #CSF = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : compressed, j : compressed, k : compressed) }>
    #BSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense),
        posWidth = 8,
        crdWidth = 8
    }>
    #NV_24 = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : block2_4),
        crdWidth = 2
    }>
    #PAT = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), explicitVal = 1.0 : f32 }>

    // | 1 0 0 2 |
    // | 0 0 0 0 |
    // | 0 3 4 0 |
    static A_CSR: tensor<3x4xf32, #CSR> = dense<[[1.0, 0.0, 0.0, 2.0], [0.0, 0.0, 0.0, 0.0], [0.0, 3.0, 4.0, 0.0]]>;
    static A_CSC: tensor<3x4xf32, #CSC> = sparse<[[0, 0], [0, 3], [2, 1], [2, 2]], [1.0, 2.0, 3.0, 4.0]>;
    // The same entries out of order: the constant sorts them.
    static A_DCSR: tensor<3x4xf32, #DCSR> = sparse<[[2, 2], [0, 3], [2, 1], [0, 0]], [4.0, 2.0, 3.0, 1.0]>;
    static A_COO: tensor<3x4xf32, #COO> = dense<[[1.0, 0.0, 0.0, 2.0], [0.0, 0.0, 0.0, 0.0], [0.0, 3.0, 4.0, 0.0]]>;
    static A_SOA: tensor<3x4xf32, #COOSOA> = sparse<[[0, 0], [0, 3], [2, 1], [2, 2]], [1.0, 2.0, 3.0, 4.0]>;
    static A_LOOSE: tensor<3x4xf32, #LOOSE> = sparse<[[0, 0], [0, 3], [2, 1], [2, 2]], [1.0, 2.0, 3.0, 4.0]>;
    static A_DENSE: tensor<3x4xf32, #DENSE> = sparse<[[0, 0], [0, 3], [2, 1], [2, 2]], [1.0, 2.0, 3.0, 4.0]>;
    /// Duplicates on a nonunique level are stored, and mean their sum.
    static DUP: tensor<3x4xf32, #COODUP> = sparse<[[0, 1], [2, 3], [0, 1]], [1.0, 7.0, 2.0]>;
    static T_CSF: tensor<2x2x3xf64, #CSF> = sparse<[[0, 0, 1], [0, 1, 0], [0, 1, 2], [1, 1, 1]], [1.0, 2.0, 3.0, 4.0]>;
    /// Seed 001's BSR example (2x2 blocks; zeros inside a block are stored).
    static B_BSR: tensor<4x6xf32, #BSR> = dense<[
        [1.0, 2.0, 0.0, 0.0, 4.0, 0.0],
        [0.0, 3.0, 0.0, 0.0, 0.0, 5.0],
        [0.0, 0.0, 6.0, 7.0, 0.0, 0.0],
        [0.0, 0.0, 8.0, 0.0, 0.0, 0.0]
    ]>;
    // Row 0: groups [1 0 2 0] and [0 0 0 3]; row 1: [0 0 0 0] and [4 5 0 0].
    static S_24: tensor<2x8xf32, #NV_24> = dense<[[1.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 3.0], [0.0, 0.0, 0.0, 0.0, 4.0, 5.0, 0.0, 0.0]]>;
    static P: tensor<3x4xf32, #PAT> = sparse<[[0, 1], [2, 3]], 1.0>;
    /// 2:4 pruning keeps the two largest magnitudes per group of four,
    /// ties to the lower index.
    static PRUNED: tensor<2x8xf32, #NV_24> = prune_2_4(dense<[
        [1.0, -3.0, 3.0, 2.0, 0.5, 0.5, 0.5, 0.5],
        [0.0, 0.0, 0.0, 0.0, -1.0, 7.0, -7.0, 2.0]
    ]>);

    // Every family from every other form: the tests compare their layouts
    // with the ones above.
    static A_CSR_S: tensor<3x4xf32, #CSR> = sparse<[[2, 1], [0, 0], [2, 2], [0, 3]], [3.0, 1.0, 4.0, 2.0]>;
    static A_CSR_F: tensor<3x4xf32, #CSR> = file("data/constants/a.mtx");
    static A_CSR_N: tensor<3x4xf32, #CSR> = file("data/constants/a.npy");
    static A_CSC_D: tensor<3x4xf32, #CSC> = dense<[[1.0, 0.0, 0.0, 2.0], [0.0, 0.0, 0.0, 0.0], [0.0, 3.0, 4.0, 0.0]]>;
    static A_CSC_F: tensor<3x4xf32, #CSC> = file("data/constants/a.mtx");
    static A_CSC_N: tensor<3x4xf32, #CSC> = file("data/constants/a.npy");
    static A_DCSR_D: tensor<3x4xf32, #DCSR> = dense<[[1.0, 0.0, 0.0, 2.0], [0.0, 0.0, 0.0, 0.0], [0.0, 3.0, 4.0, 0.0]]>;
    static A_DCSR_F: tensor<3x4xf32, #DCSR> = file("data/constants/a.mtx");
    static A_DCSR_N: tensor<3x4xf32, #DCSR> = file("data/constants/a.npy");
    static A_COO_S: tensor<3x4xf32, #COO> = sparse<[[0, 0], [0, 3], [2, 1], [2, 2]], [1.0, 2.0, 3.0, 4.0]>;
    static A_COO_F: tensor<3x4xf32, #COO> = file("data/constants/a.mtx");
    static A_COO_N: tensor<3x4xf32, #COO> = file("data/constants/a.npy");
    static A_SOA_D: tensor<3x4xf32, #COOSOA> = dense<[[1.0, 0.0, 0.0, 2.0], [0.0, 0.0, 0.0, 0.0], [0.0, 3.0, 4.0, 0.0]]>;
    static A_SOA_F: tensor<3x4xf32, #COOSOA> = file("data/constants/a.mtx");
    static A_SOA_N: tensor<3x4xf32, #COOSOA> = file("data/constants/a.npy");
    static A_LOOSE_D: tensor<3x4xf32, #LOOSE> = dense<[[1.0, 0.0, 0.0, 2.0], [0.0, 0.0, 0.0, 0.0], [0.0, 3.0, 4.0, 0.0]]>;
    static A_LOOSE_F: tensor<3x4xf32, #LOOSE> = file("data/constants/a.mtx");
    static A_LOOSE_N: tensor<3x4xf32, #LOOSE> = file("data/constants/a.npy");
    static A_DENSE_D: tensor<3x4xf32, #DENSE> = dense<[[1.0, 0.0, 0.0, 2.0], [0.0, 0.0, 0.0, 0.0], [0.0, 3.0, 4.0, 0.0]]>;
    static A_DENSE_F: tensor<3x4xf32, #DENSE> = file("data/constants/a.mtx");
    static A_DENSE_N: tensor<3x4xf32, #DENSE> = file("data/constants/a.npy");
    static T_CSF_D: tensor<2x2x3xf64, #CSF> = dense<[[[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]], [[0.0, 0.0, 0.0], [0.0, 4.0, 0.0]]]>;
    static T_CSF_N: tensor<2x2x3xf64, #CSF> = file("data/constants/t.npy");
    static B_BSR_S: tensor<4x6xf32, #BSR> = sparse<[[0, 0], [0, 1], [1, 1], [0, 4], [1, 5], [2, 2], [2, 3], [3, 2]],
                                                   [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]>;
    static B_BSR_F: tensor<4x6xf32, #BSR> = file("data/constants/bsr.mtx");
    static S_24_S: tensor<2x8xf32, #NV_24> = sparse<[[0, 0], [0, 2], [0, 7], [1, 4], [1, 5]], [1.0, 2.0, 3.0, 4.0, 5.0]>;
    static S_24_N: tensor<2x8xf32, #NV_24> = file("data/constants/s24.npy");
    static P_F: tensor<2x3xf32, #PAT> = file("data/constants/pattern.mtx");

    /// A linker section named on the constant holds its buffers too.
    #[cfg_attr(target_os = "linux", link_section = ".rodata.sk_weights")]
    static IN_SECTION: tensor<3x4xf32, #CSR> = sparse<[[0, 0], [1, 2]], [1.0, 5.0]>;

    fn spmv_coo_dup(a: &tensor<3x4xf32, #COODUP>, x: &tensor<4xf32>, y: &mut tensor<3xf32>) {
        y[i] = a[i, j] * x[j];
    }
    fn spmv_bsr(a: &tensor<4x6xf32, #BSR>, x: &tensor<6xf32>, y: &mut tensor<4xf32>) {
        y[i] = a[i, j] * x[j];
    }
    fn spmv_24(a: &tensor<2x8xf32, #NV_24>, x: &tensor<8xf32>, y: &mut tensor<2xf32>) {
        y[i] = a[i, j] * x[j];
    }
}

/// Kernels take block and 2:4 constants straight from their statics, as
/// they take CSR ones: the pruned layer of a network in flash.
#[test]
fn kernels_over_block_and_2_4_constants() {
    let x = [1.0, -2.0, 0.5, 4.0, 0.25, -1.0];
    let mut y = [f32::NAN; 4];
    spmv_bsr(&B_BSR, &x, &mut y).unwrap();
    // Rows of seed 001's BSR matrix times x.
    assert_eq!(y, [1.0 - 4.0 + 1.0, -6.0 - 5.0, 3.0 + 28.0, 4.0]);
    let x8 = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0];
    let mut y2 = [f32::NAN; 2];
    spmv_24(&S_24, &x8, &mut y2).unwrap();
    assert_eq!(y2, [1.0 + 6.0 + 24.0, 20.0 + 30.0]);
    // prune_2_4 keeps -3, 3 | 0.5, 0.5 (first two) and 0, 0 | 7, -7.
    spmv_24(&PRUNED, &x8, &mut y2).unwrap();
    assert_eq!(y2, [-6.0 + 9.0 + 2.5 + 3.0, 42.0 - 49.0]);
}

const A: [[f32; 4]; 3] = [[1.0, 0.0, 0.0, 2.0], [0.0; 4], [0.0, 3.0, 4.0, 0.0]];

/// The stored entries (dimension coordinates, value), in storage order.
fn entries<V: Copy, E: Encoding, const D: usize, const L: usize>(
    t: &SparseTensor<'_, V, E, D, L>,
) -> Vec<([usize; D], V)> {
    let mut out = Vec::new();
    t.for_each(|d, v| out.push((d, *v)));
    out
}

/// The printed layout, and the validating `assemble` accepts the buffers.
fn check<V: Display + PartialEq + std::fmt::Debug, E: Encoding, const D: usize, const L: usize>(
    t: &'static SparseTensor<'static, V, E, D, L>,
    printed: &str,
) {
    assert_eq!(t.to_string(), printed);
    let (dims, levels, values) = t.disassemble();
    let again = SparseTensor::<V, E, D, L>::assemble(dims, levels, values)
        .expect("assemble accepts a constant's buffers");
    assert_eq!(again.to_string(), printed);
}

/// The entries of `t` summed into a dense 3x4 matrix.
fn densify<E: Encoding, const L: usize>(t: &SparseTensor<'_, f32, E, 2, L>) -> [[f32; 4]; 3] {
    let mut d = [[0.0; 4]; 3];
    t.for_each(|[i, j], v| d[i][j] += *v);
    d
}

#[test]
fn csr_from_dense_drops_zeros() {
    check(
        &A_CSR,
        "---- Sparse Tensor ----\nnse = 4\ndim = ( 3, 4 )\nlvl = ( 3, 4 )\n\
         pos[1] : ( 0, 2, 2, 4 )\ncrd[1] : ( 0, 3, 1, 2 )\nvalues : ( 1, 2, 3, 4 )\n----",
    );
    assert_eq!(densify(&A_CSR), A);
}

#[test]
fn csc_is_column_major() {
    check(
        &A_CSC,
        "---- Sparse Tensor ----\nnse = 4\ndim = ( 3, 4 )\nlvl = ( 4, 3 )\n\
         pos[1] : ( 0, 1, 2, 3, 4 )\ncrd[1] : ( 0, 2, 2, 0 )\nvalues : ( 1, 3, 4, 2 )\n----",
    );
    assert_eq!(densify(&A_CSC), A);
}

#[test]
fn dcsr_sorts_the_entries() {
    check(
        &A_DCSR,
        "---- Sparse Tensor ----\nnse = 4\ndim = ( 3, 4 )\nlvl = ( 3, 4 )\n\
         pos[0] : ( 0, 2 )\ncrd[0] : ( 0, 2 )\npos[1] : ( 0, 2, 4 )\ncrd[1] : ( 0, 3, 1, 2 )\n\
         values : ( 1, 2, 3, 4 )\n----",
    );
    assert_eq!(densify(&A_DCSR), A);
}

#[test]
fn coo_aos_interleaves_tuples_and_soa_does_not() {
    check(
        &A_COO,
        "---- Sparse Tensor ----\nnse = 4\ndim = ( 3, 4 )\nlvl = ( 3, 4 )\n\
         pos[0] : ( 0, 4 )\ncrd[0] : ( 0, 0, 0, 3, 2, 1, 2, 2 )\nvalues : ( 1, 2, 3, 4 )\n----",
    );
    check(
        &A_SOA,
        "---- Sparse Tensor ----\nnse = 4\ndim = ( 3, 4 )\nlvl = ( 3, 4 )\n\
         pos[0] : ( 0, 4 )\ncrd[0] : ( 0, 0, 2, 2 )\ncrd[1] : ( 0, 3, 1, 2 )\n\
         values : ( 1, 2, 3, 4 )\n----",
    );
    assert_eq!(densify(&A_COO), A);
    assert_eq!(densify(&A_SOA), A);
}

#[test]
fn loose_compressed_has_lo_hi_pairs() {
    check(
        &A_LOOSE,
        "---- Sparse Tensor ----\nnse = 4\ndim = ( 3, 4 )\nlvl = ( 3, 4 )\n\
         pos[1] : ( 0, 2, 2, 2, 2, 4 )\ncrd[1] : ( 0, 3, 1, 2 )\nvalues : ( 1, 2, 3, 4 )\n----",
    );
    assert_eq!(densify(&A_LOOSE), A);
}

#[test]
fn all_dense_stores_every_element() {
    check(
        &A_DENSE,
        "---- Sparse Tensor ----\nnse = 12\ndim = ( 3, 4 )\nlvl = ( 3, 4 )\n\
         values : ( 1, 0, 0, 2, 0, 0, 0, 0, 0, 3, 4, 0 )\n----",
    );
    assert_eq!(densify(&A_DENSE), A);
}

#[test]
fn nonunique_duplicates_are_stored_and_summed_by_kernels() {
    check(
        &DUP,
        "---- Sparse Tensor ----\nnse = 3\ndim = ( 3, 4 )\nlvl = ( 3, 4 )\n\
         pos[0] : ( 0, 3 )\ncrd[0] : ( 0, 1, 0, 1, 2, 3 )\nvalues : ( 1, 2, 7 )\n----",
    );
    let mut y = [0.0; 3];
    spmv_coo_dup(&DUP, &[1.0, 10.0, 100.0, 1000.0], &mut y).unwrap();
    assert_eq!(y, [30.0, 0.0, 7000.0]);
}

#[test]
fn csf_three_levels() {
    check(
        &T_CSF,
        "---- Sparse Tensor ----\nnse = 4\ndim = ( 2, 2, 3 )\nlvl = ( 2, 2, 3 )\n\
         pos[0] : ( 0, 2 )\ncrd[0] : ( 0, 1 )\npos[1] : ( 0, 2, 3 )\ncrd[1] : ( 0, 1, 1 )\n\
         pos[2] : ( 0, 1, 3, 4 )\ncrd[2] : ( 1, 0, 2, 1 )\nvalues : ( 1, 2, 3, 4 )\n----",
    );
    assert_eq!(
        entries(&T_CSF),
        [
            ([0, 0, 1], 1.0),
            ([0, 1, 0], 2.0),
            ([0, 1, 2], 3.0),
            ([1, 1, 1], 4.0)
        ]
    );
}

#[test]
fn bsr_is_seed_001s_layout() {
    check(
        &B_BSR,
        "---- Sparse Tensor ----\nnse = 12\ndim = ( 4, 6 )\nlvl = ( 2, 3, 2, 2 )\n\
         pos[1] : ( 0, 2, 3 )\ncrd[1] : ( 0, 2, 1 )\n\
         values : ( 1, 2, 0, 3, 4, 0, 0, 5, 6, 7, 8, 0 )\n----",
    );
    let mut d = [[0.0; 6]; 4];
    B_BSR.for_each(|[i, j], v| d[i][j] += *v);
    assert_eq!(
        d,
        [
            [1.0, 2.0, 0.0, 0.0, 4.0, 0.0],
            [0.0, 3.0, 0.0, 0.0, 0.0, 5.0],
            [0.0, 0.0, 6.0, 7.0, 0.0, 0.0],
            [0.0, 0.0, 8.0, 0.0, 0.0, 0.0],
        ]
    );
}

#[test]
fn two_four_pads_groups_with_zeros_at_the_lowest_free_slots() {
    check(
        &S_24,
        "---- Sparse Tensor ----\nnse = 8\ndim = ( 2, 8 )\nlvl = ( 2, 2, 4 )\n\
         crd[2] : ( 0, 2, 0, 3, 0, 1, 0, 1 )\nvalues : ( 1, 2, 0, 3, 0, 0, 4, 5 )\n----",
    );
    // `crdWidth = 2`: the eight coordinates in two bytes, first in the
    // lowest bits.
    assert_eq!(
        S_24.level(2).coordinates(),
        &[
            sparse_core::Packed2::new([0, 2, 0, 3]),
            sparse_core::Packed2::new([0, 1, 0, 1])
        ]
    );
    let mut d = [[0.0; 8]; 2];
    S_24.for_each(|[i, j], v| d[i][j] += *v);
    assert_eq!(
        d,
        [
            [1.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 3.0],
            [0.0, 0.0, 0.0, 0.0, 4.0, 5.0, 0.0, 0.0],
        ]
    );
}

#[test]
fn pattern_encoding_stores_no_values() {
    check(
        &P,
        "---- Sparse Tensor ----\nnse = 2\ndim = ( 3, 4 )\nlvl = ( 3, 4 )\n\
         pos[1] : ( 0, 1, 1, 2 )\ncrd[1] : ( 1, 3 )\nvalues : ( 1, 1 )\n----",
    );
    assert!(P.values().is_empty());
    assert_eq!(entries(&P), [([0, 1], 1.0), ([2, 3], 1.0)]);
}

#[test]
fn prune_2_4_keeps_the_largest_magnitudes() {
    check(
        &PRUNED,
        "---- Sparse Tensor ----\nnse = 8\ndim = ( 2, 8 )\nlvl = ( 2, 2, 4 )\n\
         crd[2] : ( 1, 2, 0, 1, 0, 1, 1, 2 )\nvalues : ( -3, 3, 0.5, 0.5, 0, 0, 7, -7 )\n----",
    );
    let mut d = [[0.0; 8]; 2];
    PRUNED.for_each(|[i, j], v| d[i][j] += *v);
    assert_eq!(
        d,
        [
            [0.0, -3.0, 3.0, 0.0, 0.5, 0.5, 0.0, 0.0],
            [0.0, 0.0, 0.0, 0.0, 0.0, 7.0, -7.0, 0.0],
        ]
    );
}

#[test]
fn every_form_gives_the_same_layout_in_every_family() {
    fn same<V: Display, E: Encoding, const D: usize, const L: usize>(
        checked: &SparseTensor<'static, V, E, D, L>,
        others: &[&SparseTensor<'static, V, E, D, L>],
    ) {
        for other in others {
            assert_eq!(other.to_string(), checked.to_string());
        }
    }
    same(&A_CSR, &[&A_CSR_S, &A_CSR_F, &A_CSR_N]);
    same(&A_CSC, &[&A_CSC_D, &A_CSC_F, &A_CSC_N]);
    same(&A_DCSR, &[&A_DCSR_D, &A_DCSR_F, &A_DCSR_N]);
    same(&A_COO, &[&A_COO_S, &A_COO_F, &A_COO_N]);
    same(&A_SOA, &[&A_SOA_D, &A_SOA_F, &A_SOA_N]);
    same(&A_LOOSE, &[&A_LOOSE_D, &A_LOOSE_F, &A_LOOSE_N]);
    same(&A_DENSE, &[&A_DENSE_D, &A_DENSE_F, &A_DENSE_N]);
    same(&T_CSF, &[&T_CSF_D, &T_CSF_N]);
    same(&B_BSR, &[&B_BSR_S, &B_BSR_F]);
    same(&S_24, &[&S_24_S, &S_24_N]);
    assert_eq!(
        P_F.to_string(),
        "---- Sparse Tensor ----\nnse = 2\ndim = ( 2, 3 )\nlvl = ( 2, 3 )\n\
         pos[1] : ( 0, 1, 2 )\ncrd[1] : ( 2, 0 )\nvalues : ( 1, 1 )\n----"
    );
}

#[test]
fn attributes_on_the_constant_reach_its_buffers() {
    assert_eq!(
        IN_SECTION.to_string(),
        "---- Sparse Tensor ----\nnse = 2\ndim = ( 3, 4 )\nlvl = ( 3, 4 )\n\
         pos[1] : ( 0, 1, 2, 2 )\ncrd[1] : ( 0, 2 )\nvalues : ( 1, 5 )\n----"
    );
}
