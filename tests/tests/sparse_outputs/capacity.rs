//! Sparse outputs that run out of room (issue 4): for each buffer of each
//! family that can fill up (positions, coordinates, values, workspace;
//! `Slices` with one short buffer at a time, `Fixed<N>`), the exact
//! `KernelError::Capacity`, with the output left a valid empty tensor and
//! usable again; `Owned` never runs out. Also: a second call replaces the
//! first's result, `clear` empties, and `SparseTensorOut::new` refuses
//! sizes the coordinate width cannot hold.

use sparse_core::output::{Fixed, OutputBuffers, Owned, Slices};
use sparse_core::{AssembleError, Buffer, KernelError};
use sparse_tests::dense::Dense;
use sparse_tests::fixture::{with_tensor, CSR, SV};
use sparse_tests::gen::{Elem, Entries};
use sparse_tests::sparse_out::{check_output, stored, union, Caps, SliceStore, Stored};

mod k {
    sparse_core::sparse_kernel! {
        #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), posWidth = 32, crdWidth = 16 }>
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 16 }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed), posWidth = 32, crdWidth = 16 }>
        #DCSR8 = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed), posWidth = 8, crdWidth = 8 }>
        #COO = #sparse_tensor.encoding<{
            map = (i, j) -> (i : compressed(nonunique), j : singleton), posWidth = 32, crdWidth = 16
        }>

        pub fn vadd(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
            c[i] = a[i] + b[i];
        }
        pub fn add_csr(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = a[i, j] + b[i, j];
        }
        pub fn add_dcsr(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #DCSR>) {
            c[i, j] = a[i, j] + b[i, j];
        }
        pub fn add_dcsr8(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #DCSR8>) {
            c[i, j] = a[i, j] + b[i, j];
        }
        pub fn add_coo(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #COO>) {
            c[i, j] = a[i, j] + b[i, j];
        }
        pub fn spgemm(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
            c[i, j] = a[i, k] * b[k, j];
        }
    }
}

/// The CSR, DCSR and COO outputs of the block: positions `u32`,
/// coordinates `u16`.
type Store = SliceStore<u32, u16, f64, 2>;

fn at<const R: usize>(entries: &[([usize; R], i32)]) -> Entries<f64> {
    entries
        .iter()
        .map(|&(c, k)| (c.to_vec(), f64::small(k)))
        .collect()
}

/// `c = a + b` through `kernel`, with `a` and `b` in CSR.
fn add<O>(
    c: &mut O,
    dims: [usize; 2],
    (a, b): (&Entries<f64>, &Entries<f64>),
    kernel: impl FnOnce(&k::CSR<'_, f64>, &k::CSR<'_, f64>, &mut O) -> Result<(), KernelError>,
) -> Result<(), KernelError> {
    with_tensor(&CSR, dims, a, |ta| {
        with_tensor(&CSR, dims, b, |tb| kernel(ta, tb, c))
    })
}

/// What `a + b` stores, as the sparse and the dense reference.
fn sum(dims: [usize; 2], a: &Entries<f64>, b: &Entries<f64>) -> (Stored<f64>, Dense<f64>) {
    let want = union(&stored(a), &stored(b), |x, y| x + y);
    let (da, db) = (Dense::from_entries(&dims, a), Dense::from_entries(&dims, b));
    let data = da.data.iter().zip(&db.data).map(|(x, y)| x + y).collect();
    (want, Dense::from_data(&dims, data))
}

fn capacity(level: usize, buffer: Buffer, needed: usize, capacity: usize) -> KernelError {
    KernelError::Capacity {
        tensor: "c",
        level,
        buffer,
        needed,
        capacity,
    }
}

/// A valid tensor of `dims` with nothing stored.
macro_rules! assert_empty {
    ($c:expr, $dims:expr) => {{
        let dims = $dims;
        assert_eq!($c.number_of_entries(), 0);
        assert_eq!($c.dim_sizes(), dims);
        check_output(&$c.view(), &Stored::new(), &Dense::zeros(&dims)).unwrap();
    }};
}

/// Three entries in row 1, two in row 3 of a 5x4 matrix; `b` overlaps
/// once, so `a + b` stores 6 entries in 2 rows.
fn five_by_four() -> (Entries<f64>, Entries<f64>) {
    let a = at(&[
        ([1, 0], 1),
        ([1, 2], 2),
        ([1, 3], 3),
        ([3, 0], 4),
        ([3, 1], 5),
    ]);
    let b = at(&[([1, 2], -2), ([3, 3], 6)]);
    (a, b)
}

#[test]
fn positions_of_the_empty_tensor_are_checked_at_new() {
    // CSR over 5 rows always needs 6 positions, DCSR and COO 2 on level 0:
    // `new` refuses buffers that cannot hold even the empty tensor.
    for (pos, want) in [
        (
            [0, 5],
            AssembleError::Capacity {
                level: 1,
                buffer: Buffer::Positions,
                needed: 6,
                capacity: 5,
            },
        ),
        (
            [0, 0],
            AssembleError::Capacity {
                level: 1,
                buffer: Buffer::Positions,
                needed: 6,
                capacity: 0,
            },
        ),
    ] {
        let mut caps = Caps::<2>::uniform(64);
        caps.pos = pos;
        let mut store = Store::new(caps);
        let got: Result<k::CSROut<f64, Slices<'_>>, _> = store.try_out([5, 4]);
        assert_eq!(got.err(), Some(want));
    }
    let mut caps = Caps::<2>::uniform(64);
    caps.pos = [1, 64];
    let level0 = AssembleError::Capacity {
        level: 0,
        buffer: Buffer::Positions,
        needed: 2,
        capacity: 1,
    };
    let mut store = Store::new(caps);
    let got: Result<k::DCSROut<f64, Slices<'_>>, _> = store.try_out([5, 4]);
    assert_eq!(got.err(), Some(level0));
    let mut store = Store::new(caps);
    let got: Result<k::COOOut<f64, Slices<'_>>, _> = store.try_out([5, 4]);
    assert_eq!(got.err(), Some(level0));
    assert_eq!(
        k::CSROut::<f64, Fixed<4>>::with_dims([10, 2]).err(),
        Some(AssembleError::Capacity {
            level: 1,
            buffer: Buffer::Positions,
            needed: 11,
            capacity: 4
        })
    );

    // Exactly enough: the output works.
    let (a, b) = five_by_four();
    caps.pos = [0, 6];
    let mut store = Store::new(caps);
    let mut c = store.out([5, 4]);
    assert_eq!(add(&mut c, [5, 4], (&a, &b), k::add_csr), Ok(()));
    let (want, dense) = sum([5, 4], &a, &b);
    check_output(&c.view(), &want, &dense).unwrap();
}

#[test]
fn slices_short_coordinates_then_reused() {
    let (a, b) = five_by_four();
    let none = Vec::new();
    let mut caps = Caps::<2>::uniform(64);
    caps.crd = [0, 4];
    let mut store = Store::new(caps);
    let mut c = store.out([5, 4]);
    // A result first: the failed call must not leave it (or half of its own).
    let four = at(&[([0, 0], 1), ([2, 1], 0), ([4, 2], 3), ([4, 3], 4)]);
    assert_eq!(add(&mut c, [5, 4], (&four, &none), k::add_csr), Ok(()));
    let got = add(&mut c, [5, 4], (&a, &b), k::add_csr);
    assert_eq!(got, Err(capacity(1, Buffer::Coordinates, 6, 4)));
    assert_empty!(c, [5, 4]);
    // The same output takes a result that fits.
    let (x, y) = (
        at(&[([1, 1], 2), ([3, 3], 1)]),
        at(&[([1, 1], 5), ([4, 0], 1)]),
    );
    assert_eq!(add(&mut c, [5, 4], (&x, &y), k::add_csr), Ok(()));
    let (want, dense) = sum([5, 4], &x, &y);
    check_output(&c.view(), &want, &dense).unwrap();
}

#[test]
fn slices_short_values_then_reused() {
    let (a, b) = five_by_four();
    let mut caps = Caps::<2>::uniform(64);
    caps.val = 5;
    let mut store = Store::new(caps);
    let mut c = store.out([5, 4]);
    assert_eq!(add(&mut c, [5, 4], (&a, &Vec::new()), k::add_csr), Ok(()));
    let got = add(&mut c, [5, 4], (&a, &b), k::add_csr);
    assert_eq!(got, Err(capacity(1, Buffer::Values, 6, 5)));
    assert_empty!(c, [5, 4]);
    assert_eq!(add(&mut c, [5, 4], (&b, &b), k::add_csr), Ok(()));
    let (want, dense) = sum([5, 4], &b, &b);
    check_output(&c.view(), &want, &dense).unwrap();
}

#[test]
fn slices_short_dcsr_levels() {
    let (a, b) = five_by_four();
    // One coordinate per non-empty row on level 0, one position per
    // non-empty row (and the first 0) on level 1.
    for (pos, crd, want) in [
        ([64, 64], [1, 64], capacity(0, Buffer::Coordinates, 2, 1)),
        ([64, 2], [64, 64], capacity(1, Buffer::Positions, 3, 2)),
        ([64, 64], [64, 5], capacity(1, Buffer::Coordinates, 6, 5)),
    ] {
        let mut caps = Caps::<2>::uniform(64);
        caps.pos = pos;
        caps.crd = crd;
        let mut store = Store::new(caps);
        let mut c = store.out([5, 4]);
        assert_eq!(add(&mut c, [5, 4], (&a, &b), k::add_dcsr), Err(want));
        assert_empty!(c, [5, 4]);
        // One entry fits every one of those buffers.
        let one = at(&[([2, 2], 7)]);
        assert_eq!(
            add(&mut c, [5, 4], (&one, &Vec::new()), k::add_dcsr),
            Ok(())
        );
        let (want, dense) = sum([5, 4], &one, &Vec::new());
        check_output(&c.view(), &want, &dense).unwrap();
    }
}

#[test]
fn slices_short_coo_tuples() {
    let (a, b) = five_by_four();
    // AoS COO: level 0 holds (i, j) pairs, 2 coordinates per entry.
    for (pos, crd, want) in [
        ([2, 0], [11, 0], capacity(0, Buffer::Coordinates, 12, 11)),
        ([2, 0], [0, 0], capacity(0, Buffer::Coordinates, 12, 0)),
    ] {
        let mut caps = Caps::<2>::uniform(64);
        caps.pos = pos;
        caps.crd = crd;
        let mut store = Store::new(caps);
        let mut c = store.out([5, 4]);
        assert_eq!(add(&mut c, [5, 4], (&a, &b), k::add_coo), Err(want));
        assert_empty!(c, [5, 4]);
    }
    let mut caps = Caps::<2>::uniform(64);
    caps.crd = [12, 0];
    let mut store = Store::new(caps);
    let mut c = store.out([5, 4]);
    assert_eq!(add(&mut c, [5, 4], (&a, &b), k::add_coo), Ok(()));
    let (want, dense) = sum([5, 4], &a, &b);
    check_output(&c.view(), &want, &dense).unwrap();
}

#[test]
fn slices_short_vector() {
    let a = at(&[([0], 1), ([3], 2), ([5], 0)]);
    let b = at(&[([3], 1), ([7], -1)]);
    let mut store = SliceStore::<u32, u16, f64, 1>::new(Caps {
        pos: [2],
        crd: [3],
        val: 64,
        ws_val: 0,
        ws_filled: 0,
        ws_added: 0,
    });
    let mut c = store.out([8]);
    let run = |c: &mut _, x: &Entries<f64>, y: &Entries<f64>| {
        with_tensor(&SV, [8], x, |tx| {
            with_tensor(&SV, [8], y, |ty| k::vadd(tx, ty, c))
        })
    };
    assert_eq!(
        run(&mut c, &a, &b),
        Err(capacity(0, Buffer::Coordinates, 4, 3))
    );
    assert_empty!(c, [8]);
    assert_eq!(run(&mut c, &a, &a), Ok(()));
    let want = union(&stored(&a), &stored(&a), |x, y| x + y);
    let dense = Dense::from_data(
        &[8],
        Dense::from_entries(&[8], &a)
            .data
            .iter()
            .map(|v| v * 2.0)
            .collect(),
    );
    check_output(&c.view(), &want, &dense).unwrap();
}

/// `a` (2x3) times `b` (3x6): row 0 of the product has columns 1, 4 and 5.
fn spgemm_inputs() -> (Entries<f64>, Entries<f64>) {
    let a = at(&[([0, 0], 1), ([0, 2], 2)]);
    let b = at(&[([0, 4], 3), ([0, 1], 1), ([2, 5], -1), ([2, 4], 2)]);
    (a, b)
}

fn spgemm<B: OutputBuffers<u32, u16, f64>>(
    c: &mut k::CSROut<f64, B>,
    a: &Entries<f64>,
    b: &Entries<f64>,
) -> Result<(), KernelError> {
    with_tensor(&CSR, [2, 3], a, |ta| {
        with_tensor(&CSR, [3, 6], b, |tb| k::spgemm(ta, tb, c))
    })
}

fn spgemm_want(a: &Entries<f64>, b: &Entries<f64>) -> (Stored<f64>, Dense<f64>) {
    let (da, db) = (
        Dense::from_entries(&[2, 3], a),
        Dense::from_entries(&[3, 6], b),
    );
    let mut want = Stored::new();
    let mut dense = Dense::zeros(&[2, 6]);
    for (ca, x) in a {
        for (cb, y) in b {
            if ca[1] == cb[0] {
                *want.entry(vec![ca[0], cb[1]]).or_insert(0.0) += x * y;
            }
        }
    }
    for i in 0..2 {
        for j in 0..6 {
            *dense.at_mut(&[i, j]) = (0..3).map(|k| da.at(&[i, k]) * db.at(&[k, j])).sum();
        }
    }
    (want, dense)
}

#[test]
fn slices_short_workspace() {
    let (a, b) = spgemm_inputs();
    // The workspace spans the output's innermost level: 6 columns, in
    // each of its three buffers; the error names the smallest.
    for (ws_val, ws_filled, ws_added) in
        [(5, 64, 64), (64, 5, 64), (64, 64, 5), (0, 0, 0), (6, 6, 1)]
    {
        let mut caps = Caps::<2>::uniform(64);
        (caps.ws_val, caps.ws_filled, caps.ws_added) = (ws_val, ws_filled, ws_added);
        let mut store = Store::new(caps);
        let mut c = store.out([2, 6]);
        let got = spgemm(&mut c, &a, &b);
        let smallest = ws_val.min(ws_filled).min(ws_added);
        assert_eq!(got, Err(capacity(1, Buffer::Workspace, 6, smallest)));
        assert_empty!(c, [2, 6]);
    }
    let mut caps = Caps::<2>::uniform(64);
    (caps.ws_val, caps.ws_filled, caps.ws_added) = (6, 6, 6);
    let mut store = Store::new(caps);
    let mut c = store.out([2, 6]);
    for (x, y) in [(&b[..0].to_vec(), &b), (&a, &b)] {
        assert_eq!(spgemm(&mut c, x, y), Ok(()));
        let (want, dense) = spgemm_want(x, y);
        check_output(&c.view(), &want, &dense).unwrap();
    }
}

#[test]
fn fixed_capacity_errors() {
    // Positions: DCSR level 1 takes one per non-empty row, plus the first.
    let rows = at(&[([0, 0], 1), ([1, 1], 2), ([2, 2], 3), ([4, 0], 4)]);
    let mut c = k::DCSROut::<f64, Fixed<4>>::with_dims([6, 3]).unwrap();
    let three = rows[..3].to_vec();
    assert_eq!(add(&mut c, [6, 3], (&three, &three), k::add_dcsr), Ok(()));
    assert_eq!(
        add(&mut c, [6, 3], (&rows, &Vec::new()), k::add_dcsr),
        Err(capacity(1, Buffer::Positions, 5, 4))
    );
    assert_empty!(c, [6, 3]);
    assert_eq!(
        add(
            &mut c,
            [6, 3],
            (&rows[1..].to_vec(), &rows[1..].to_vec()),
            k::add_dcsr
        ),
        Ok(())
    );
    let (want, dense) = sum([6, 3], &rows[1..].to_vec(), &rows[1..].to_vec());
    check_output(&c.view(), &want, &dense).unwrap();

    // Coordinates (pushed before the entry's value): 9 entries.
    let row: Entries<f64> = (0..8).map(|j| (vec![0, j], f64::small(j as i32))).collect();
    let mut c = k::CSROut::<f64, Fixed<4>>::with_dims([2, 8]).unwrap();
    let small = at(&[([1, 7], 2), ([0, 0], 1)]);
    assert_eq!(add(&mut c, [2, 8], (&small, &small), k::add_csr), Ok(()));
    assert_eq!(
        add(&mut c, [2, 8], (&row, &at(&[([1, 0], 1)])), k::add_csr),
        Err(capacity(1, Buffer::Coordinates, 9, 4))
    );
    assert_empty!(c, [2, 8]);
    assert_eq!(
        add(&mut c, [2, 8], (&small, &row[..2].to_vec()), k::add_csr),
        Ok(())
    );
    let (want, dense) = sum([2, 8], &small, &row[..2].to_vec());
    check_output(&c.view(), &want, &dense).unwrap();

    // Workspace: 6 columns.
    let (a, b) = spgemm_inputs();
    let mut c = k::CSROut::<f64, Fixed<4>>::with_dims([2, 6]).unwrap();
    assert_eq!(
        spgemm(&mut c, &a, &b),
        Err(capacity(1, Buffer::Workspace, 6, 4))
    );
    assert_empty!(c, [2, 6]);
    let mut c = k::CSROut::<f64, Fixed<6>>::with_dims([2, 6]).unwrap();
    assert_eq!(spgemm(&mut c, &a, &b), Ok(()));
    let (want, dense) = spgemm_want(&a, &b);
    check_output(&c.view(), &want, &dense).unwrap();
}

#[test]
fn owned_never_runs_out() {
    let dims = [40, 50];
    let full: Entries<f64> = (0..2000)
        .map(|p| (vec![p / 50, p % 50], f64::small(p as i32 % 13 - 6)))
        .collect();
    let diag: Entries<f64> = (0..40).map(|i| (vec![i, i], 1.0)).collect();
    let mut c = k::CSROut::<f64, Owned>::with_dims(dims).unwrap();
    for (x, y) in [(&full, &diag), (&diag, &Vec::new()), (&full, &full)] {
        assert_eq!(add(&mut c, dims, (x, y), k::add_csr), Ok(()));
        let (want, dense) = sum(dims, x, y);
        check_output(&c.view(), &want, &dense).unwrap();
    }
    let mut c = k::DCSROut::<f64, Owned>::with_dims(dims).unwrap();
    assert_eq!(add(&mut c, dims, (&full, &diag), k::add_dcsr), Ok(()));
    let (want, dense) = sum(dims, &full, &diag);
    check_output(&c.view(), &want, &dense).unwrap();
}

#[test]
fn second_call_replaces_and_clear_empties() {
    let (a, b) = five_by_four();
    let one = at(&[([4, 3], 2)]);
    let mut c = k::DCSROut::<f64, Fixed<16>>::with_dims([5, 4]).unwrap();
    assert_empty!(c, [5, 4]);
    for (x, y) in [(&a, &b), (&one, &Vec::new()), (&a, &b), (&a, &b)] {
        assert_eq!(add(&mut c, [5, 4], (x, y), k::add_dcsr), Ok(()));
        let (want, dense) = sum([5, 4], x, y);
        check_output(&c.view(), &want, &dense).unwrap();
    }
    c.clear();
    assert_empty!(c, [5, 4]);
    c.clear();
    assert_empty!(c, [5, 4]);
    assert_eq!(add(&mut c, [5, 4], (&one, &one), k::add_dcsr), Ok(()));
    let (want, dense) = sum([5, 4], &one, &one);
    check_output(&c.view(), &want, &dense).unwrap();

    let mut store = Store::new(Caps::uniform(16));
    let mut c: k::COOOut<f64, Slices<'_>> = store.out([5, 4]);
    for (x, y) in [(&a, &b), (&one, &Vec::new())] {
        assert_eq!(add(&mut c, [5, 4], (x, y), k::add_coo), Ok(()));
        let (want, dense) = sum([5, 4], x, y);
        check_output(&c.view(), &want, &dense).unwrap();
    }
    c.clear();
    assert_empty!(c, [5, 4]);
}

#[test]
fn new_refuses_sizes_the_coordinates_cannot_hold() {
    // DCSR8: coordinates up to 255, so 256 rows fit and 257 do not.
    let too_big = AssembleError::WidthOverflow {
        level: 0,
        buffer: Buffer::Coordinates,
        value: 256,
        max: 255,
    };
    assert!(k::DCSR8Out::<f64, Owned>::with_dims([256, 256]).is_ok());
    assert_eq!(
        k::DCSR8Out::<f64, Owned>::with_dims([257, 2]).err(),
        Some(too_big)
    );
    assert_eq!(
        k::DCSR8Out::<f64, Fixed<4>>::with_dims([257, 2]).err(),
        Some(too_big)
    );
    let mut store = SliceStore::<u8, u8, f64, 2>::new(Caps::uniform(4));
    let got: Result<k::DCSR8Out<f64, Slices<'_>>, _> = store.try_out([2, 300]);
    assert_eq!(
        got.err(),
        Some(AssembleError::WidthOverflow {
            level: 1,
            buffer: Buffer::Coordinates,
            value: 299,
            max: 255,
        })
    );
}
