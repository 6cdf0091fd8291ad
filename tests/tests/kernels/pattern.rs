//! Pattern tensors (`explicitVal`: no values array, every stored entry
//! holds the constant) in kernels, against dense references in which each
//! stored entry is the constant: SpMV over CSR, DCSR, CSC and nonunique COO
//! (duplicates count once each) with `explicitVal` 1 and 2, additions,
//! `binary`/`unary`/`select`/`reduce` over pattern operands, and BFS on
//! random graphs through frontier steps (pull over the in-adjacency, push
//! over the out-adjacency with a set difference against the visited
//! pattern), against a plain BFS.

use std::collections::VecDeque;

use proptest::prelude::*;
use sparse_core::output::Owned;
use sparse_core::{DenseViewMut, Encoding, SparseTensor};
use sparse_tests::fixture::{with_tensor, COO, CSC, CSR, DCSR, SV};
use sparse_tests::gen::{dense_vec, dims, entries, Elem, Entries};
use sparse_tests::reference::{build, RefLevel};
use sparse_tests::semiring::{binary, reduce_rows, select, unary, Masked};
use sparse_tests::sparse_out::check_output;

mod k {
    sparse_core::sparse_kernel! {
        #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #PSV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), explicitVal = 1 : i32 }>
        #PCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), explicitVal = 1 : i32 }>
        #PCSR2 = #sparse_tensor.encoding<{
            map = (i, j) -> (i : dense, j : compressed), explicitVal = 2.0 : f64, posWidth = 8, crdWidth = 8
        }>
        #PDCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed), explicitVal = 1.0 : f64 }>
        #PCSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed), explicitVal = 2.0 : f64 }>
        #PCOO = #sparse_tensor.encoding<{
            map = (i, j) -> (i : compressed(nonunique), j : singleton(nonunique)), explicitVal = 1 : i32, implicitVal = 0 : i32
        }>

        pub fn spmv(a: &tensor<?x?xi32, #PCSR>, x: &tensor<?xi32>, y: &mut tensor<?xi32>) {
            y[i] = a[i, j] * x[j];
        }
        pub fn spmv_two(a: &tensor<?x?xf64, #PCSR2>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
        pub fn spmv_dcsr(a: &tensor<?x?xf64, #PDCSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
        pub fn spmv_csc(a: &tensor<?x?xf64, #PCSC>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
            y[i] = a[i, j] * x[j];
        }
        pub fn spmv_coo(a: &tensor<?x?xi32, #PCOO>, x: &tensor<?xi32>, y: &mut tensor<?xi32>) {
            y[i] = a[i, j] * x[j];
        }
        pub fn add(a: &tensor<?x?xf64, #PCSR2>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = a[i, j] + b[i, j];
        }
        pub fn combine(a: &tensor<?x?xf64, #PCSR2>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = binary(a[i, j], b[i, j], overlap = |x, y| x * y, left = |x| x + 0.5, right = none);
        }
        pub fn lower(a: &tensor<?x?xf64, #PDCSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = select(a[i, j], |_| j < i);
        }
        pub fn complement(a: &tensor<?x?xi32, #PCSR>, c: &mut tensor<?x?xi32>) {
            c[i, j] = unary(a[i, j], present = none, absent = || 1);
        }
        pub fn row_products(a: &tensor<?x?xf64, #PCSR2>, x: &mut tensor<?xf64>) {
            x[i] = reduce(a[i, j], identity = 1.0, |acc, v| acc * v);
        }

        // BFS, pull: `at` is the in-adjacency (`at[j, i]` for an edge i -> j).
        pub fn reach(at: &tensor<?x?xi32, #PCSR>, f: &tensor<?xi32, #PSV>, r: &mut tensor<?xi32>) {
            r[j] = at[j, i] * f[i];
        }
        pub fn fresh(r: &tensor<?xi32>, u: &tensor<?xi32>, next: &mut tensor<?xi32, #SV>) {
            next[j] = select(r[j] * u[j], |x| x > 0);
        }
        // BFS, push: `a` is the out-adjacency (`a[i, j]` for an edge i -> j).
        pub fn reach_push(a: &tensor<?x?xi32, #PCSR>, f: &tensor<?xi32, #PSV>, r: &mut tensor<?xi32>) {
            r[j] = a[i, j] * f[i];
        }
        pub fn positive(r: &tensor<?xi32>, p: &mut tensor<?xi32, #SV>) {
            p[j] = select(r[j], |x| x > 0);
        }
        pub fn minus_visited(p: &tensor<?xi32, #SV>, v: &tensor<?xi32, #PSV>, next: &mut tensor<?xi32, #SV>) {
            next[j] = binary(p[j], v[j], overlap = none, left = |_| 1, right = none);
        }
    }
}

/// Builds the pattern of `coords` for `layout` and assembles it without a
/// values array as the tensor type `f` takes.
///
/// # Panics
///
/// If `assemble` refuses the reference buffers (a mistake of the test).
fn with_pattern<V, E, const D: usize, const L: usize, R>(
    layout: &[RefLevel],
    dims: [usize; D],
    coords: &[Vec<usize>],
    f: impl FnOnce(&SparseTensor<'_, V, E, D, L>) -> R,
) -> R
where
    V: Elem,
    E: Encoding,
{
    let entries: Entries<V> = coords.iter().map(|c| (c.clone(), V::ZERO)).collect();
    let built = build(layout, &dims, &entries, V::ZERO, V::GARBAGE);
    let typed = built.typed::<E::Pos, E::Crd>();
    let tensor = SparseTensor::<V, E, D, L>::assemble(dims, typed.levels::<L>(), &[])
        .unwrap_or_else(|e| panic!("assemble refused the pattern {coords:?}: {e}"));
    f(&tensor)
}

/// The coordinates of a pattern with the constant at each.
fn constant<V: Copy>(coords: &[Vec<usize>], c: V) -> Entries<V> {
    coords.iter().map(|x| (x.clone(), c)).collect()
}

/// `y[i] = sum_j a[i, j] * x[j]` with every stored entry (repeats included)
/// worth `c`.
fn spmv_reference<V: Elem>(d: [usize; 2], coords: &[Vec<usize>], c: V, x: &[V]) -> Vec<V> {
    let mut y = vec![V::ZERO; d[0]];
    for p in coords {
        y[p[0]] = y[p[0]] + c * x[p[1]];
    }
    y
}

fn coords_of<V>(e: &Entries<V>) -> Vec<Vec<usize>> {
    e.iter().map(|(c, _)| c.clone()).collect()
}

fn spmv_formats(d: [usize; 2], coords: &[Vec<usize>], xf: &[f64]) -> Result<(), TestCaseError> {
    let xi: Vec<i32> = xf.iter().map(|&v| (v * 4.0) as i32).collect();
    let mut y = vec![i32::GARBAGE; d[0]];
    let r = with_pattern(&CSR, d, coords, |a| k::spmv(a, &xi, &mut y));
    prop_assert_eq!(r, Ok(()));
    prop_assert_eq!(
        &y,
        &spmv_reference(d, coords, 1, &xi),
        "spmv {:?} {:?}",
        d,
        coords
    );

    macro_rules! f64_spmv {
        ($name:literal, $layout:expr, $c:expr, $kernel:path) => {{
            let mut y = vec![f64::GARBAGE; d[0]];
            let r = with_pattern(&$layout, d, coords, |a| $kernel(a, xf, &mut y));
            prop_assert_eq!(r, Ok(()), "{}", $name);
            let want = spmv_reference(d, coords, $c, xf);
            prop_assert_eq!(&y, &want, "{} {:?} {:?} x = {:?}", $name, d, coords, xf);
        }};
    }
    f64_spmv!("spmv_two", CSR, 2.0, k::spmv_two);
    f64_spmv!("spmv_dcsr", DCSR, 1.0, k::spmv_dcsr);
    f64_spmv!("spmv_csc", CSC, 2.0, k::spmv_csc);
    Ok(())
}

/// Pattern `a` (holding 2.0, or 1 for the `i32` kernels) with an ordinary
/// `b`.
fn operations(d: [usize; 2], coords: &[Vec<usize>], b: &Entries<f64>) -> Result<(), TestCaseError> {
    let ma = Masked::from_entries(&d, &constant(coords, 2.0));
    let mb = Masked::from_entries(&d, b);
    let fail =
        |what: &str, e: String| TestCaseError::fail(format!("{what} {d:?} {coords:?} {b:?}: {e}"));

    let want = binary(
        &ma,
        &mb,
        |_, x, y| Some(x + y),
        |_, x| Some(x),
        |_, y| Some(y),
    );
    let mut c = k::CSROut::<f64, Owned>::with_dims(d).unwrap();
    let r = with_pattern(&CSR, d, coords, |ta| {
        with_tensor(&CSR, d, b, |tb| k::add(ta, tb, &mut c))
    });
    prop_assert_eq!(r, Ok(()));
    check_output(&c.view(), &want.stored(), &want.dense()).map_err(|e| fail("add", e))?;

    let want = binary(
        &ma,
        &mb,
        |_, x, y| Some(x * y),
        |_, x| Some(x + 0.5),
        |_, _| None,
    );
    let mut c = k::CSROut::<f64, Owned>::with_dims(d).unwrap();
    let r = with_pattern(&CSR, d, coords, |ta| {
        with_tensor(&CSR, d, b, |tb| k::combine(ta, tb, &mut c))
    });
    prop_assert_eq!(r, Ok(()));
    check_output(&c.view(), &want.stored(), &want.dense()).map_err(|e| fail("combine", e))?;

    let ones = Masked::from_entries(&d, &constant(coords, 1.0));
    let want = select(&ones, |c, _| c[1] < c[0]);
    let mut c = k::CSROut::<f64, Owned>::with_dims(d).unwrap();
    let r = with_pattern(&DCSR, d, coords, |ta| k::lower(ta, &mut c));
    prop_assert_eq!(r, Ok(()));
    check_output(&c.view(), &want.stored(), &want.dense()).map_err(|e| fail("lower", e))?;

    let want = unary(
        &Masked::from_entries(&d, &constant(coords, 1i32)),
        |_, _| None,
        |_| Some(1),
    );
    let mut c = vec![i32::GARBAGE; d[0] * d[1]];
    let r = with_pattern(&CSR, d, coords, |ta| {
        k::complement(ta, DenseViewMut::new(&mut c, d).unwrap())
    });
    prop_assert_eq!(r, Ok(()));
    prop_assert_eq!(&c, &want.dense().data, "complement {:?} {:?}", d, coords);

    let want = reduce_rows(&ma, 1.0, |acc, v| acc * v);
    let mut x = vec![f64::GARBAGE; d[0]];
    let r = with_pattern(&CSR, d, coords, |ta| k::row_products(ta, &mut x));
    prop_assert_eq!(r, Ok(()));
    prop_assert_eq!(&x, &want, "row_products {:?} {:?}", d, coords);
    Ok(())
}

// ---- BFS

/// BFS levels from `source` over the edges `(i, j)` (i -> j) by a queue.
fn bfs_reference(n: usize, edges: &[Vec<usize>], source: usize) -> Vec<Option<usize>> {
    let mut level = vec![None; n];
    level[source] = Some(0);
    let mut queue = VecDeque::from([source]);
    while let Some(u) = queue.pop_front() {
        let next = level[u].map(|l| l + 1);
        for e in edges.iter().filter(|e| e[0] == u) {
            if level[e[1]].is_none() {
                level[e[1]] = next;
                queue.push_back(e[1]);
            }
        }
    }
    level
}

/// The stored entries of a sparse vector.
fn stored_entries<E: Encoding>(t: &SparseTensor<'_, i32, E, 1, 1>) -> Vec<(usize, i32)> {
    let mut out = Vec::new();
    t.for_each(|[j], v| out.push((j, *v)));
    out
}

/// BFS levels by frontier steps: `pull` reaches through the in-adjacency
/// and keeps the unvisited reached vertices by `select`; push scatters
/// through the out-adjacency, selects the reached ones and removes the
/// visited pattern by a set difference.
fn bfs_kernels(n: usize, edges: &[Vec<usize>], source: usize, pull: bool) -> Vec<Option<usize>> {
    let reversed: Vec<Vec<usize>> = edges.iter().map(|e| vec![e[1], e[0]]).collect();
    let mut level = vec![None; n];
    level[source] = Some(0);
    let mut frontier = vec![vec![source]];
    let mut depth = 0;
    while !frontier.is_empty() {
        depth += 1;
        let visited: Vec<Vec<usize>> = (0..n)
            .filter(|&j| level[j].is_some())
            .map(|j| vec![j])
            .collect();
        let mut r = vec![i32::GARBAGE; n];
        let mut next = k::SVOut::<i32, Owned>::with_dims([n]).unwrap();
        if pull {
            let unvisited: Vec<i32> = level.iter().map(|l| i32::from(l.is_none())).collect();
            with_pattern(&CSR, [n, n], &reversed, |at| {
                with_pattern(&SV, [n], &frontier, |f| k::reach(at, f, &mut r))
            })
            .unwrap();
            k::fresh(&r, &unvisited, &mut next).unwrap();
        } else {
            with_pattern(&CSR, [n, n], edges, |a| {
                with_pattern(&SV, [n], &frontier, |f| k::reach_push(a, f, &mut r))
            })
            .unwrap();
            let mut p = k::SVOut::<i32, Owned>::with_dims([n]).unwrap();
            k::positive(&r, &mut p).unwrap();
            with_pattern(&SV, [n], &visited, |v| {
                k::minus_visited(&p.view(), v, &mut next)
            })
            .unwrap();
        }
        let entries = stored_entries(&next.view());
        let reached: Vec<usize> = entries.iter().map(|&(j, _)| j).collect();
        for &(j, v) in &entries {
            // Pull stores how many frontier vertices reach `j`; push the
            // `1` of `left = |_| 1`.
            let count = edges
                .iter()
                .filter(|e| e[1] == j && frontier.contains(&vec![e[0]]))
                .count();
            let want = if pull { count as i32 } else { 1 };
            assert_eq!(v, want, "next[{j}] at depth {depth} (pull: {pull})");
        }
        for &j in &reached {
            assert!(level[j].is_none(), "{j} reached again at depth {depth}");
            level[j] = Some(depth);
        }
        frontier = reached.into_iter().map(|j| vec![j]).collect();
    }
    level
}

fn graph() -> impl Strategy<Value = (usize, Vec<Vec<usize>>, usize)> {
    (1usize..=12).prop_flat_map(|n| {
        (
            Just(n),
            // Sparse graphs: an edge where a draw is 0 of 0..=3 or so,
            // through the generic entry generator's density.
            entries::<i32>(&[n, n]).prop_map(|e| coords_of(&e)),
            0..n,
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn spmv_over_patterns(
        (d, a, x) in dims::<2>(7).prop_flat_map(|d| (Just(d), entries::<i32>(&d), dense_vec::<f64>(d[1])))
    ) {
        spmv_formats(d, &coords_of(&a), &x)?;
    }

    #[test]
    fn duplicates_count_once_each(
        (d, a, x) in dims::<2>(5).prop_flat_map(|d| {
            (Just(d), sparse_tests::gen::entries_with_duplicates::<i32>(&d, 12), dense_vec::<i32>(d[1]))
        })
    ) {
        let mut coords = coords_of(&a);
        coords.sort();
        let mut y = vec![i32::GARBAGE; d[0]];
        let r = with_pattern(&COO, d, &coords, |t| k::spmv_coo(t, &x, &mut y));
        prop_assert_eq!(r, Ok(()));
        prop_assert_eq!(&y, &spmv_reference(d, &coords, 1, &x), "{:?} {:?}", d, coords);
    }

    #[test]
    fn operations_over_patterns(
        (d, a, b) in dims::<2>(6).prop_flat_map(|d| (Just(d), entries::<i32>(&d), entries::<f64>(&d)))
    ) {
        operations(d, &coords_of(&a), &b)?;
    }

    #[test]
    fn bfs_levels((n, edges, source) in graph()) {
        let want = bfs_reference(n, &edges, source);
        prop_assert_eq!(&bfs_kernels(n, &edges, source, true), &want, "pull {} {:?}", n, edges);
        prop_assert_eq!(&bfs_kernels(n, &edges, source, false), &want, "push {} {:?}", n, edges);
    }
}

#[test]
fn spmv_by_hand() {
    // [[1, 1, 0], [0, 0, 0], [1, 0, 1]] * [3, 4, 5] = [7, 0, 8].
    let coords = vec![vec![0, 0], vec![0, 1], vec![2, 0], vec![2, 2]];
    let mut y = [9; 3];
    with_pattern(&CSR, [3, 3], &coords, |a| k::spmv(a, &[3, 4, 5], &mut y)).unwrap();
    assert_eq!(y, [7, 0, 8]);
    let mut y = [9.0; 3];
    with_pattern(&CSR, [3, 3], &coords, |a| {
        k::spmv_two(a, &[3.0, 4.0, 5.0], &mut y)
    })
    .unwrap();
    assert_eq!(y, [14.0, 0.0, 16.0]);
    // Edge cases: no entries, zero-sized.
    for d in [[0, 0], [0, 3], [3, 0], [2, 2]] {
        spmv_formats(d, &[], &vec![1.0; d[1]]).unwrap();
        operations(d, &[], &Vec::new()).unwrap();
    }
}

#[test]
fn bfs_by_hand() {
    // 0 -> 1 -> 2 -> 3, 0 -> 2, 4 -> 0 (4 unreachable from 0), 3 -> 3.
    let edges = vec![
        vec![0, 1],
        vec![0, 2],
        vec![1, 2],
        vec![2, 3],
        vec![3, 3],
        vec![4, 0],
    ];
    let want = vec![Some(0), Some(1), Some(1), Some(2), None];
    assert_eq!(bfs_reference(5, &edges, 0), want);
    assert_eq!(bfs_kernels(5, &edges, 0, true), want);
    assert_eq!(bfs_kernels(5, &edges, 0, false), want);
    assert_eq!(
        bfs_kernels(5, &edges, 4, true),
        vec![Some(1), Some(2), Some(2), Some(3), Some(0)]
    );
}
