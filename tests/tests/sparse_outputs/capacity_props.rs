//! Sparse outputs under random capacities (issue 4): a kernel into a
//! `Slices` output either succeeds, with every buffer at least as long as
//! the reference layout of the result needs and the right result, or
//! returns `KernelError::Capacity` naming a buffer shorter than the
//! reference need, with exactly that need and that buffer's capacity, and
//! leaves the output empty. Growing the named buffer to `needed` and
//! calling again must converge on the result: `needed` is exact, never an
//! estimate.
//!
//! The reference lengths come from the independent reference builder
//! (`src/reference.rs`) building the expected result in the output's
//! layout.

use proptest::prelude::*;
use sparse_core::output::Slices;
use sparse_core::{Buffer, KernelError, SparseTensorOut, StoresValues};
use sparse_tests::dense::Dense;
use sparse_tests::fixture::{with_tensor, COO, CSR, DCSR};
use sparse_tests::gen::{dims, entries, Entries};
use sparse_tests::reference::{build, RefLevel};
use sparse_tests::sparse_out::{check_output, stored, union, Caps, SliceStore, Stored};

mod k {
    sparse_core::sparse_kernel! {
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 16 }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed), posWidth = 32, crdWidth = 16 }>
        #COO = #sparse_tensor.encoding<{
            map = (i, j) -> (i : compressed(nonunique), j : singleton), posWidth = 32, crdWidth = 16
        }>

        pub fn add_csr(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = a[i, j] + b[i, j];
        }
        pub fn add_dcsr(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = a[i, j] + b[i, j];
        }
        pub fn add_coo(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #COO>) {
            c[i, j] = a[i, j] + b[i, j];
        }
        pub fn spgemm_dcsr(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = a[i, k] * b[k, j];
        }
    }
}

type Store = SliceStore<u32, u16, f64, 2>;
type Csr<'a> = k::CSR<'a, f64>;

/// The buffer lengths of `entries` stored in `layout` (workspace 0).
fn lengths(layout: &[RefLevel], dims: [usize; 2], entries: &Entries<f64>) -> Caps<2> {
    let built = build(layout, &dims, entries, 0.0, 0.0);
    Caps {
        pos: [built.pos[0].len(), built.pos[1].len()],
        crd: [built.crd[0].len(), built.crd[1].len()],
        val: built.values.len(),
        ws_val: 0,
        ws_filled: 0,
        ws_added: 0,
    }
}

/// Capacities between what the empty tensor needs (so `new` accepts
/// them) and a little more than the result needs: each `frac` in `0..=5`
/// gives `frac / 4` of the need, so 4 and 5 are enough and 0 to 3 short.
fn capacities(empty: Caps<2>, need: Caps<2>, fracs: [usize; 8]) -> Caps<2> {
    let scale = |n: usize, f: usize| n * f / 4;
    Caps {
        pos: [
            empty.pos[0].max(scale(need.pos[0], fracs[0])),
            empty.pos[1].max(scale(need.pos[1], fracs[1])),
        ],
        crd: [scale(need.crd[0], fracs[2]), scale(need.crd[1], fracs[3])],
        val: scale(need.val, fracs[4]),
        ws_val: scale(need.ws_val, fracs[5]),
        ws_filled: scale(need.ws_filled, fracs[6]),
        ws_added: scale(need.ws_added, fracs[7]),
    }
}

/// What the result must be.
struct Want<'w> {
    layout: &'w [RefLevel],
    dims: [usize; 2],
    stored: Stored<f64>,
    dense: Dense<f64>,
    /// The workspace length a kernel that expands asks for (0 if none).
    ws: usize,
}

/// Calls `run` on outputs over `caps`, growing the buffer each error
/// names, until it succeeds; checks every error and the result.
fn converge<EC>(
    want: &Want<'_>,
    mut caps: Caps<2>,
    run: impl Fn(&mut SparseTensorOut<f64, EC, Slices<'_>, 2, 2>) -> Result<(), KernelError>,
) -> Result<(), TestCaseError>
where
    EC: StoresValues<Pos = u32, Crd = u16>,
{
    let entries: Entries<f64> = want.stored.iter().map(|(c, v)| (c.clone(), *v)).collect();
    let mut need = lengths(want.layout, want.dims, &entries);
    (need.ws_val, need.ws_filled, need.ws_added) = (want.ws, want.ws, want.ws);
    // Each round grows one buffer to its final length: at most 8 rounds.
    for _ in 0..=8 {
        let mut store = Store::new(caps);
        let mut c = store.out(want.dims);
        let got = run(&mut c);
        let e = match got {
            Ok(()) => {
                for (have, n, what) in [
                    (caps.pos[0], need.pos[0], "pos[0]"),
                    (caps.pos[1], need.pos[1], "pos[1]"),
                    (caps.crd[0], need.crd[0], "crd[0]"),
                    (caps.crd[1], need.crd[1], "crd[1]"),
                    (caps.val, need.val, "values"),
                ] {
                    prop_assert!(have >= n, "Ok with {} of {} < {} needed", what, have, n);
                }
                return check_output(&c.view(), &want.stored, &want.dense)
                    .map_err(TestCaseError::fail);
            }
            Err(e) => e,
        };
        let KernelError::Capacity {
            tensor,
            level,
            buffer,
            needed,
            capacity,
        } = e
        else {
            return Err(TestCaseError::fail(format!("unexpected {e:?}")));
        };
        prop_assert_eq!(tensor, "c");
        prop_assert!(level < 2, "{:?}", e);
        let (n, cap) = match buffer {
            Buffer::Positions => (need.pos[level], caps.pos[level]),
            Buffer::Coordinates => (need.crd[level], caps.crd[level]),
            Buffer::Values => {
                prop_assert_eq!(level, 1, "values are the last level's");
                (need.val, caps.val)
            }
            Buffer::Workspace => {
                prop_assert_eq!(level, 1, "the workspace is the last level's");
                (want.ws, caps.ws_val.min(caps.ws_filled).min(caps.ws_added))
            }
        };
        prop_assert_eq!((needed, capacity), (n, cap), "{:?} with {:?}", e, caps);
        prop_assert!(needed > capacity, "{:?}", e);
        let empty = Dense::zeros(&want.dims);
        check_output(&c.view(), &Stored::new(), &empty).map_err(TestCaseError::fail)?;
        match buffer {
            Buffer::Positions => caps.pos[level] = needed,
            Buffer::Coordinates => caps.crd[level] = needed,
            Buffer::Values => caps.val = needed,
            Buffer::Workspace => {
                caps.ws_val = caps.ws_val.max(needed);
                caps.ws_filled = caps.ws_filled.max(needed);
                caps.ws_added = caps.ws_added.max(needed);
            }
        }
    }
    Err(TestCaseError::fail(format!(
        "no success after growing every buffer: {caps:?}"
    )))
}

fn add_want<'w>(
    layout: &'w [RefLevel],
    dims: [usize; 2],
    a: &Entries<f64>,
    b: &Entries<f64>,
) -> Want<'w> {
    let (da, db) = (Dense::from_entries(&dims, a), Dense::from_entries(&dims, b));
    let data = da.data.iter().zip(&db.data).map(|(x, y)| x + y).collect();
    Want {
        layout,
        dims,
        stored: union(&stored(a), &stored(b), |x, y| x + y),
        dense: Dense::from_data(&dims, data),
        ws: 0,
    }
}

/// Runs `$kernel` (CSR + CSR into the layout `$layout`) under `fracs`.
macro_rules! check_add {
    ($layout:expr, $kernel:path, $dims:expr, $a:expr, $b:expr, $fracs:expr) => {{
        let want = add_want(&$layout, $dims, $a, $b);
        let entries: Entries<f64> = want.stored.iter().map(|(c, v)| (c.clone(), *v)).collect();
        let caps = capacities(
            lengths(&$layout, $dims, &Vec::new()),
            lengths(&$layout, $dims, &entries),
            $fracs,
        );
        converge(&want, caps, |c| {
            with_tensor(&CSR, $dims, $a, |ta: &Csr<'_>| {
                with_tensor(&CSR, $dims, $b, |tb: &Csr<'_>| $kernel(ta, tb, c))
            })
        })?;
    }};
}

fn spgemm_want([m, kk, n]: [usize; 3], a: &Entries<f64>, b: &Entries<f64>) -> Want<'static> {
    let mut want = Stored::new();
    for (ca, x) in a {
        for (cb, y) in b {
            if ca[1] == cb[0] {
                *want.entry(vec![ca[0], cb[1]]).or_insert(0.0) += x * y;
            }
        }
    }
    let (da, db) = (
        Dense::from_entries(&[m, kk], a),
        Dense::from_entries(&[kk, n], b),
    );
    let mut dense = Dense::zeros(&[m, n]);
    for i in 0..m {
        for j in 0..n {
            *dense.at_mut(&[i, j]) = (0..kk).map(|k| da.at(&[i, k]) * db.at(&[k, j])).sum();
        }
    }
    Want {
        layout: &DCSR,
        dims: [m, n],
        stored: want,
        dense,
        ws: n,
    }
}

fn fracs() -> impl Strategy<Value = [usize; 8]> {
    proptest::array::uniform8(0usize..=5)
}

fn two() -> impl Strategy<Value = ([usize; 2], Entries<f64>, Entries<f64>)> {
    dims::<2>(5).prop_flat_map(|d| (Just(d), entries(&d), entries(&d)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn add_into_short_buffers((d, a, b) in two(), f in fracs()) {
        check_add!(CSR, k::add_csr, d, &a, &b, f);
        check_add!(DCSR, k::add_dcsr, d, &a, &b, f);
        check_add!(COO, k::add_coo, d, &a, &b, f);
    }

    #[test]
    fn spgemm_into_short_buffers(
        (sizes, a, b) in dims::<3>(5).prop_flat_map(|[m, kk, n]| {
            (Just([m, kk, n]), entries(&[m, kk]), entries(&[kk, n]))
        }),
        f in fracs(),
    ) {
        let want = spgemm_want(sizes, &a, &b);
        let entries: Entries<f64> = want.stored.iter().map(|(c, v)| (c.clone(), *v)).collect();
        let mut need = lengths(&DCSR, want.dims, &entries);
        (need.ws_val, need.ws_filled, need.ws_added) = (want.ws, want.ws, want.ws);
        let caps = capacities(lengths(&DCSR, want.dims, &Vec::new()), need, f);
        let [m, kk, n] = sizes;
        converge(&want, caps, |c| {
            with_tensor(&CSR, [m, kk], &a, |ta: &Csr<'_>| {
                with_tensor(&CSR, [kk, n], &b, |tb: &Csr<'_>| k::spgemm_dcsr(ta, tb, c))
            })
        })?;
    }
}
