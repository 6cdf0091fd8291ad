//! End-to-end smoke tests of kernels with sparse outputs (issue 4): the
//! codegen snapshots with sparse outputs (`sparse_add_csr`,
//! `sparse_vector_add`, `sparse_scale`, `spgemm_csr`) compiled as they are,
//! and kernels written through `sparse_kernel!` (DCSR SpGEMM, row sums,
//! transpose from CSC, the `transpose_csr` conversion snapshot), over caller-provided `Slices` buffers, against
//! dense references and the exact stored pattern; then capacity overflow:
//! the typed error, the output still a valid tensor, and reusable.
//! (The differential tests over every buffer family are `kernels_sparse_out_*`.)

use std::collections::BTreeMap;

use proptest::prelude::*;
use sparse_core::{
    AssembleError, Encoding, Fixed, KernelError, OutputBuffers, SliceBuffer, Slices,
    SparseTensorOut,
};
use sparse_tests::dense::Dense;
use sparse_tests::fixture::{with_tensor, CSC, CSR, DCSR, SV};
use sparse_tests::gen::{sparse, Entries};

mod k {
    sparse_core::sparse_kernel! {
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 16, crdWidth = 8 }>
        #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
        #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>

        /// `c = a b` over DCSR: the workspace is borrowed per stored row.
        pub fn spgemm_dcsr(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #DCSR>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = a[i, k] * b[k, j];
        }
        /// Row sums into a sparse vector: one insert per stored row.
        pub fn row_sums(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?xf64, #SV>) {
            c[i] = a[i, j];
        }
        #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
        #LOOSE = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : loose_compressed) }>

        /// Level coordinates through a permutation (CSC stores `j` first).
        pub fn column_scale(a: &tensor<?x?xf64, #CSC>, x: &tensor<?xf64>, c: &mut tensor<?x?xf64, #CSC>) {
            c[i, j] = a[i, j] * x[j];
        }
        /// Not zero at implicit zeros: every coordinate is stored.
        pub fn shift(a: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = a[i, j] - 1.0;
        }
        /// Two sparse outputs (two buffer families), COO and loose.
        pub fn split(a: &tensor<?x?xf64, #CSR>, d: &mut tensor<?x?xf64, #COO>, e: &mut tensor<?x?xf64, #LOOSE>) {
            d[i, j] = a[i, j] * 3.0;
            e[i, j] = a[i, j];
        }
        /// The CSR transpose of a matrix given as CSC (no copy needed; a CSR
        /// `a` is read through a reordered copy, see `conversions::kernels`).
        pub fn transpose(a: &tensor<?x?xf64, #CSC>, c: &mut tensor<?x?xf64, #CSR>) {
            c[j, i] = a[i, j];
        }
    }
    macro_rules! snapshot {
        ($name:literal) => {
            include!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../sparse-macros/compiler/snapshots/",
                $name,
                ".rs"
            ));
        };
    }
    snapshot!("sparse_add_csr");
    snapshot!("sparse_vector_add");
    snapshot!("sparse_scale");
    snapshot!("spgemm_csr");
    snapshot!("transpose_csr");
    snapshot!("sddmm_sum_first");
    snapshot!("sddmm_reassociate");
}

/// Caller memory for one output: `cap` slots per level buffer and values,
/// `ws` slots per workspace buffer.
struct Mem<P, C> {
    pos: Vec<Vec<P>>,
    crd: Vec<Vec<C>>,
    val: Vec<f64>,
    ws_val: Vec<f64>,
    ws_filled: Vec<bool>,
    ws_added: Vec<usize>,
}

impl<P: Default + Clone, C: Default + Clone> Mem<P, C> {
    fn new(levels: usize, cap: usize, ws: usize) -> Self {
        Mem {
            pos: vec![vec![P::default(); cap + 1]; levels],
            crd: vec![vec![C::default(); cap]; levels],
            val: vec![0.0; cap],
            ws_val: vec![0.0; ws],
            ws_filled: vec![false; ws],
            ws_added: vec![0; ws],
        }
    }

    fn out<E, const D: usize, const L: usize>(
        &mut self,
        dims: [usize; D],
    ) -> Result<SparseTensorOut<f64, E, Slices<'_>, D, L>, AssembleError>
    where
        E: sparse_core::StoresValues<Pos = P, Crd = C>,
    {
        let mut pos = self.pos.iter_mut();
        let mut crd = self.crd.iter_mut();
        SparseTensorOut::new(
            dims,
            std::array::from_fn(|_| SliceBuffer::new(pos.next().expect("a buffer per level"))),
            std::array::from_fn(|_| SliceBuffer::new(crd.next().expect("a buffer per level"))),
            SliceBuffer::new(&mut self.val),
            SliceBuffer::new(&mut self.ws_val),
            SliceBuffer::new(&mut self.ws_filled),
            SliceBuffer::new(&mut self.ws_added),
        )
    }
}

/// The stored entries of an output, in the order it stores them.
fn read<E, B, const D: usize, const L: usize>(
    c: &SparseTensorOut<f64, E, B, D, L>,
) -> Vec<([usize; D], f64)>
where
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, f64>,
{
    let mut out = Vec::new();
    c.view().for_each(|at, v| out.push((at, *v)));
    out
}

/// Expected stored entries (coordinate → value), kept sorted.
type Want<const D: usize> = BTreeMap<[usize; D], f64>;

fn want_of<const D: usize>(entries: &Entries<f64>) -> Want<D> {
    entries
        .iter()
        .map(|(at, v)| (<[usize; D]>::try_from(&at[..]).expect("rank"), *v))
        .collect()
}

/// Asserts that `got` stores exactly `want`, row-major sorted, values equal
/// up to rounding.
fn assert_stored<const D: usize>(got: &[([usize; D], f64)], want: &Want<D>) {
    let coords: Vec<[usize; D]> = got.iter().map(|e| e.0).collect();
    let expected: Vec<[usize; D]> = want.keys().copied().collect();
    assert_eq!(coords, expected, "stored pattern");
    for ((at, v), w) in got.iter().zip(want.values()) {
        assert!(
            (v - w).abs() <= 1e-9 * (1.0 + w.abs()),
            "{at:?}: {v} vs {w}"
        );
    }
}

fn union(a: &Want<2>, b: &Want<2>) -> Want<2> {
    let mut out = a.clone();
    for (at, v) in b {
        *out.entry(*at).or_insert(0.0) += v;
    }
    out
}

/// The pattern and values of `a b`: `(i, j)` is stored iff some `k` has
/// `a[i, k]` and `b[k, j]` stored (a cancelling sum is a stored zero).
fn product(a: &Want<2>, b: &Want<2>) -> Want<2> {
    let mut out = Want::new();
    for (&[i, k], x) in a {
        for (&[k2, j], y) in b {
            if k == k2 {
                *out.entry([i, j]).or_insert(0.0) += x * y;
            }
        }
    }
    out
}

fn matrices() -> impl Strategy<Value = ([usize; 2], Entries<f64>, Entries<f64>)> {
    sparse::<f64, 2>(9)
        .prop_flat_map(|(d, a)| (Just(d), Just(a), sparse_tests::gen::entries::<f64>(&d)))
}

fn chain() -> impl Strategy<Value = ([usize; 3], Entries<f64>, Entries<f64>)> {
    sparse_tests::gen::dims::<3>(8).prop_flat_map(|[m, kk, n]| {
        (
            Just([m, kk, n]),
            sparse_tests::gen::entries::<f64>(&[m, kk]),
            sparse_tests::gen::entries::<f64>(&[kk, n]),
        )
    })
}

const CAP: usize = 128;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn sparse_add_inserts_the_union(( d, a, b) in matrices()) {
        let mut mem = Mem::<u16, u8>::new(2, CAP, 0);
        let mut c = mem.out::<_, 2, 2>(d).unwrap();
        with_tensor(&CSR, d, &a, |ta| with_tensor(&CSR, d, &b, |tb| k::add(ta, tb, &mut c))).unwrap();
        assert_stored(&read(&c), &union(&want_of(&a), &want_of(&b)));
        // A second call into the same output rebuilds it.
        with_tensor(&CSR, d, &b, |tb| k::scale(tb, &mut c)).unwrap();
        let doubled = want_of::<2>(&b).into_iter().map(|(at, v)| (at, v * 2.0)).collect();
        assert_stored(&read(&c), &doubled);
    }

    #[test]
    fn sddmm_snapshots_sum_first_and_in_partial_sums(
        (d, s) in sparse::<f64, 2>(6),
        kk in 0usize..=19,
        seed in any::<u64>(),
    ) {
        // Quarters: every order of the sums is exact.
        let val = |x: usize| ((seed.rotate_left(x as u32 % 64) ^ x as u64) % 9) as f64 / 4.0 - 1.0;
        let u: Vec<f64> = (0..d[0] * kk).map(val).collect();
        let vt: Vec<f64> = (0..d[1] * kk).map(|x| val(x + 1000)).collect();
        let mut want = want_of::<2>(&s);
        for ([i, j], v) in want.iter_mut() {
            *v *= (0..kk).map(|k| u[*i * kk + k] * vt[*j * kk + k]).sum::<f64>();
        }
        let uv = sparse_core::DenseView::new(&u, [d[0], kk]).unwrap();
        let vtv = sparse_core::DenseView::new(&vt, [d[1], kk]).unwrap();
        let mut mem = Mem::<u16, u8>::new(2, CAP, 0);
        let mut c = mem.out::<_, 2, 2>(d).unwrap();
        with_tensor(&CSR, d, &s, |ts| k::sddmm_sum_first(ts, uv, vtv, &mut c)).unwrap();
        assert_stored(&read(&c), &want);
        with_tensor(&CSR, d, &s, |ts| k::sddmm_reassociate(ts, uv, vtv, &mut c)).unwrap();
        assert_stored(&read(&c), &want);
    }

    #[test]
    fn sparse_vector_add_inserts_the_union((d, a) in sparse::<f64, 1>(20), seed in any::<u64>()) {
        // `b`: every other entry of `a` moved by one, values from the seed.
        let b: Entries<f64> = (0..d[0]).filter(|i| (seed >> (i % 64)) & 1 == 1).map(|i| (vec![i], i as f64 + 0.5)).collect();
        let mut mem = Mem::<usize, usize>::new(1, CAP, 0);
        let mut c = mem.out::<_, 1, 1>(d).unwrap();
        with_tensor(&SV, d, &a, |ta| with_tensor(&SV, d, &b, |tb| k::vadd(ta, tb, &mut c))).unwrap();
        let mut want = want_of::<1>(&a);
        for (at, v) in want_of::<1>(&b) {
            *want.entry(at).or_insert(0.0) += v;
        }
        assert_stored(&read(&c), &want);
    }

    #[test]
    fn spgemm_csr_expands_rows((dims, a, b) in chain()) {
        let [m, kk, n] = dims;
        let mut mem = Mem::<u16, u8>::new(2, CAP, n);
        let mut c = mem.out::<_, 2, 2>([m, n]).unwrap();
        with_tensor(&CSR, [m, kk], &a, |ta| with_tensor(&CSR, [kk, n], &b, |tb| k::spgemm(ta, tb, &mut c))).unwrap();
        let want = product(&want_of(&a), &want_of(&b));
        assert_stored(&read(&c), &want);
        // Against the dense product too.
        let (da, db) = (Dense::from_entries(&[m, kk], &a), Dense::from_entries(&[kk, n], &b));
        let mut dc = Dense::<f64>::zeros(&[m, n]);
        for i in 0..m { for j in 0..n { *dc.at_mut(&[i, j]) = (0..kk).map(|k| da.at(&[i, k]) * db.at(&[k, j])).sum(); } }
        for (at, v) in read(&c) { prop_assert!((v - dc.at(&at)).abs() < 1e-9); }
        for i in 0..m { for j in 0..n { if !want.contains_key(&[i, j]) { prop_assert_eq!(dc.at(&[i, j]), 0.0); } } }
    }

    #[test]
    fn fixed_buffers_on_the_stack((dims, a, b) in chain()) {
        let [m, kk, n] = dims;
        let mut c = k::CSROut::<f64, Fixed<CAP>>::with_dims([m, n]).unwrap();
        with_tensor(&CSR, [m, kk], &a, |ta| with_tensor(&CSR, [kk, n], &b, |tb| k::spgemm(ta, tb, &mut c))).unwrap();
        assert_stored(&read(&c), &product(&want_of(&a), &want_of(&b)));
        let mut s = k::SVOut::<f64, Fixed<CAP>>::with_dims([m]).unwrap();
        with_tensor(&CSR, [m, kk], &a, |ta| k::row_sums(ta, &mut s)).unwrap();
        prop_assert_eq!(s.number_of_entries(), m);
    }

    #[test]
    fn spgemm_dcsr_expands_stored_rows((dims, a, b) in chain()) {
        let [m, kk, n] = dims;
        let mut mem = Mem::<usize, usize>::new(2, CAP, n);
        let mut c = mem.out::<_, 2, 2>([m, n]).unwrap();
        with_tensor(&DCSR, [m, kk], &a, |ta| with_tensor(&DCSR, [kk, n], &b, |tb| k::spgemm_dcsr(ta, tb, &mut c))).unwrap();
        assert_stored(&read(&c), &product(&want_of(&a), &want_of(&b)));
    }

    #[test]
    fn row_sums_insert_once_per_stored_row((d, a) in sparse::<f64, 2>(9)) {
        let mut mem = Mem::<usize, usize>::new(1, CAP, 0);
        let mut c = mem.out::<_, 1, 1>([d[0]]).unwrap();
        with_tensor(&CSR, d, &a, |ta| k::row_sums(ta, &mut c)).unwrap();
        // Every row is visited (CSR rows are dense), so every row is stored,
        // empty rows as explicit zeros.
        let mut want = Want::<1>::new();
        for i in 0..d[0] { want.insert([i], 0.0); }
        for (at, v) in &a { *want.get_mut(&[at[0]]).unwrap() += v; }
        assert_stored(&read(&c), &want);
    }

    #[test]
    fn transpose_from_csc((d, a) in sparse::<f64, 2>(9)) {
        let mut mem = Mem::<u16, u8>::new(2, CAP, 0);
        let mut c = mem.out::<_, 2, 2>([d[1], d[0]]).unwrap();
        with_tensor(&CSC, d, &a, |ta| k::transpose(ta, &mut c)).unwrap();
        let want: Want<2> = a.iter().map(|(at, v)| ([at[1], at[0]], *v)).collect();
        assert_stored(&read(&c), &want);
    }

    /// The `transpose_csr` snapshot: a CSR input, a conversion into the
    /// CSR output's caller-provided slices.
    #[test]
    fn transpose_from_csr_converts_into_the_output((d, a) in sparse::<f64, 2>(9)) {
        let mut mem = Mem::<u16, u8>::new(2, CAP, 0);
        let mut c = mem.out::<_, 2, 2>([d[1], d[0]]).unwrap();
        with_tensor(&CSR, d, &a, |ta| k::transpose_csr(ta, &mut c)).unwrap();
        let want: Want<2> = a.iter().map(|(at, v)| ([at[1], at[0]], *v)).collect();
        assert_stored(&read(&c), &want);
    }
}

#[test]
fn permuted_coo_and_loose_outputs_from_one_kernel() {
    let (a, _) = small();
    let x = [1.0, 10.0, 100.0, 1000.0];
    let (mut mc, mut md, mut me) = (
        Mem::<usize, usize>::new(2, 16, 0),
        Mem::<usize, usize>::new(2, 16, 0),
        Mem::<usize, usize>::new(2, 16, 0),
    );
    let mut c = mc.out::<_, 2, 2>([3, 4]).unwrap();
    let mut d = md.out::<_, 2, 2>([3, 4]).unwrap();
    let mut e = me.out::<_, 2, 2>([3, 4]).unwrap();
    with_tensor(&CSC, [3, 4], &a, |ta| k::column_scale(ta, &x, &mut c)).unwrap();
    with_tensor(&CSR, [3, 4], &a, |ta| k::split(ta, &mut d, &mut e)).unwrap();
    let want = want_of::<2>(&a);
    // CSC stores column by column: read back in that order.
    let mut by_column: Vec<([usize; 2], f64)> =
        want.iter().map(|(at, v)| (*at, v * x[at[1]])).collect();
    by_column.sort_by_key(|(at, _)| (at[1], at[0]));
    assert_eq!(read(&c), by_column);
    assert_eq!(c.view().level(1).positions(), &[0, 2, 3, 4, 5]);
    assert_stored(
        &read(&d),
        &want.iter().map(|(at, v)| (*at, v * 3.0)).collect(),
    );
    assert_stored(&read(&e), &want);
    // `a - 1` is -1 where `a` stores nothing: all 12 coordinates are stored.
    let mut m = Mem::<u16, u8>::new(2, 16, 0);
    let mut f = m.out::<_, 2, 2>([3, 4]).unwrap();
    with_tensor(&CSR, [3, 4], &a, |ta| k::shift(ta, &mut f)).unwrap();
    let mut all = Want::<2>::new();
    for i in 0..3 {
        for j in 0..4 {
            all.insert([i, j], want.get(&[i, j]).copied().unwrap_or(0.0) - 1.0);
        }
    }
    assert_stored(&read(&f), &all);
}

/// 3 x 4: `a` has 5 entries, `b` 3, their union 6.
fn small() -> (Entries<f64>, Entries<f64>) {
    let a = vec![
        (vec![0, 0], 1.0),
        (vec![0, 2], 2.0),
        (vec![1, 1], 3.0),
        (vec![2, 0], 4.0),
        (vec![2, 3], 5.0),
    ];
    let b = vec![(vec![0, 2], 10.0), (vec![1, 3], 20.0), (vec![2, 0], -4.0)];
    (a, b)
}

#[test]
fn too_small_buffers_return_the_exact_need_and_leave_a_reusable_output() {
    let (a, b) = small();
    let mut mem = Mem::<u16, u8>::new(2, 4, 0);
    let mut c = mem.out::<_, 2, 2>([3, 4]).unwrap();
    let err = with_tensor(&CSR, [3, 4], &a, |ta| {
        with_tensor(&CSR, [3, 4], &b, |tb| k::add(ta, tb, &mut c))
    });
    match err {
        Err(KernelError::Capacity {
            tensor,
            needed,
            capacity,
            ..
        }) => {
            assert_eq!(tensor, "c");
            assert_eq!(capacity, 4);
            assert_eq!(needed, 6);
        }
        other => panic!("{other:?}"),
    }
    // Still a valid (empty) tensor of the same sizes.
    assert_eq!(c.dim_sizes(), [3, 4]);
    assert_eq!(c.number_of_entries(), 0);
    assert!(read(&c).is_empty());
    // Reusable: a result that fits goes through.
    let few = vec![(vec![1, 3], 7.0), (vec![2, 0], 8.0)];
    with_tensor(&CSR, [3, 4], &few, |ta| {
        with_tensor(&CSR, [3, 4], &b, |tb| k::add(ta, tb, &mut c))
    })
    .unwrap();
    assert_stored(&read(&c), &union(&want_of(&few), &want_of(&b)));
    // The explicit zero of 4 + -4 at (2, 0) is stored.
    with_tensor(&CSR, [3, 4], &vec![(vec![2, 0], 4.0)], |ta| {
        with_tensor(&CSR, [3, 4], &b, |tb| k::add(ta, tb, &mut c))
    })
    .unwrap();
    assert!(read(&c).contains(&([2, 0], 0.0)));
}

#[test]
fn fixed_overflow_names_the_buffer_and_the_need() {
    let (a, b) = small();
    let mut c = k::CSROut::<f64, Fixed<4>>::with_dims([3, 3]).unwrap();
    let err = with_tensor(&CSR, [3, 4], &a, |ta| {
        with_tensor(&CSR, [3, 4], &b, |tb| k::add(ta, tb, &mut c))
    });
    // Built as 3 x 4 inputs into a 3 x 3 output: the size check comes first.
    assert!(
        matches!(err, Err(KernelError::DimensionMismatch { tensor: "c", .. })),
        "{err:?}"
    );
    let mut c = k::CSROut::<f64, Fixed<5>>::with_dims([3, 4]).unwrap();
    let err = with_tensor(&CSR, [3, 4], &a, |ta| {
        with_tensor(&CSR, [3, 4], &b, |tb| k::add(ta, tb, &mut c))
    });
    assert!(
        matches!(
            err,
            Err(KernelError::Capacity {
                tensor: "c",
                needed: 6,
                capacity: 5,
                ..
            })
        ),
        "{err:?}"
    );
    assert_eq!(c.number_of_entries(), 0);
    with_tensor(&CSR, [3, 4], &a, |ta| k::scale(ta, &mut c)).unwrap();
    assert_eq!(read(&c).len(), 5);
}

#[test]
fn too_small_workspace_returns_a_workspace_error_before_any_work() {
    let (a, b) = small();
    let bt: Entries<f64> = b.iter().map(|(at, v)| (vec![at[1], at[0]], *v)).collect();
    // a (3 x 4) times bt (4 x 3): the workspace needs 3.
    let mut mem = Mem::<u16, u8>::new(2, 16, 2);
    let mut c = mem.out::<_, 2, 2>([3, 3]).unwrap();
    let err = with_tensor(&CSR, [3, 4], &a, |ta| {
        with_tensor(&CSR, [4, 3], &bt, |tb| k::spgemm(ta, tb, &mut c))
    });
    match err {
        Err(KernelError::Capacity {
            tensor,
            buffer,
            needed,
            capacity,
            ..
        }) => {
            assert_eq!((tensor, needed, capacity), ("c", 3, 2));
            assert_eq!(buffer, sparse_core::Buffer::Workspace);
        }
        other => panic!("{other:?}"),
    }
    assert!(read(&c).is_empty());
    // The same output with a 3 x 2 result fits its workspace of 2.
    let b2: Entries<f64> = bt.iter().filter(|(at, _)| at[1] < 2).cloned().collect();
    let mut c2 = mem.out::<_, 2, 2>([3, 2]).unwrap();
    with_tensor(&CSR, [3, 4], &a, |ta| {
        with_tensor(&CSR, [4, 2], &b2, |tb| k::spgemm(ta, tb, &mut c2))
    })
    .unwrap();
    assert_stored(&read(&c2), &product(&want_of(&a), &want_of(&b2)));
}

#[test]
fn output_sizes_are_checked_before_anything_is_written() {
    let (a, b) = small();
    let mut mem = Mem::<u16, u8>::new(2, 16, 0);
    let mut c = mem.out::<_, 2, 2>([3, 4]).unwrap();
    with_tensor(&CSR, [3, 4], &a, |ta| k::scale(ta, &mut c)).unwrap();
    let before = read(&c);
    let err = with_tensor(&CSR, [3, 4], &a, |ta| {
        with_tensor(&CSR, [3, 5], &b, |tb| k::add(ta, tb, &mut c))
    });
    assert!(
        matches!(
            err,
            Err(KernelError::DimensionMismatch {
                tensor: "b",
                dim: 1,
                ..
            })
        ),
        "{err:?}"
    );
    assert_eq!(read(&c), before);
}
