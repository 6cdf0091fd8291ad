//! Capacity, width, order and range errors, and the workspace.

use super::*;
use crate::levels::{compressed, d0, d1, singleton};

#[test]
fn capacity_errors_name_the_exact_need_and_leave_a_reusable_output() {
    // Coordinates: 5 needed, 3 available.
    let mut m = Mem::<u8, u8, f64, 2>::new(5, 3, 8, 0);
    let mut c = out::<f64, Csr, 2, 2>([4, 8], &mut m).unwrap();
    let err = KernelError::Capacity {
        tensor: "c",
        level: 1,
        buffer: Which::Coordinates,
        needed: 5,
        capacity: 3,
    };
    assert_eq!(csr_example(&mut c), Err(err));
    is_empty_and_valid(&c);
    // Reusable: a smaller result fits.
    c.begin();
    c.insert([1, 1], 9.0);
    c.finish("c").unwrap();
    assert_eq!(c.view().values(), &[9.0]);
    reassembles(&c);

    // Values: 5 needed, 4 available; exactly 5 works.
    let mut m = Mem::<u8, u8, f64, 2>::new(5, 8, 4, 0);
    let mut c = out::<f64, Csr, 2, 2>([4, 8], &mut m).unwrap();
    let err = KernelError::Capacity {
        tensor: "c",
        level: 1,
        buffer: Which::Values,
        needed: 5,
        capacity: 4,
    };
    assert_eq!(csr_example(&mut c), Err(err));
    is_empty_and_valid(&c);
    let mut m = Mem::<u8, u8, f64, 2>::new(5, 5, 5, 0);
    let mut c = out::<f64, Csr, 2, 2>([4, 8], &mut m).unwrap();
    csr_example(&mut c).unwrap();
    reassembles(&c);

    // Positions (DCSR level 1: rows 0 and 2 stored, 3 positions).
    let mut m = Mem::<u16, u16, i32, 2>::new(2, 3, 3, 0);
    let mut c = out::<i32, Dcsr, 2, 2>([3, 4], &mut m).unwrap();
    c.begin();
    for (l, v) in [([0, 1], 1), ([0, 3], 2), ([2, 0], 3)] {
        c.insert(l, v);
    }
    let err = KernelError::Capacity {
        tensor: "d",
        level: 1,
        buffer: Which::Positions,
        needed: 3,
        capacity: 2,
    };
    assert_eq!(c.finish("d"), Err(err));
    is_empty_and_valid(&c);
    c.begin();
    c.insert([2, 2], 4);
    c.finish("d").unwrap();
    assert_eq!(c.view().level(1).positions(), &[0, 1]);
}

#[test]
fn new_rejects_buffers_too_small_for_the_empty_tensor_and_wide_sizes() {
    let mut m = Mem::<u8, u8, f64, 2>::new(4, 8, 8, 0);
    let err = out::<f64, Csr, 2, 2>([4, 8], &mut m).err();
    assert_eq!(
        err,
        Some(AssembleError::Capacity {
            level: 1,
            buffer: Which::Positions,
            needed: 5,
            capacity: 4
        })
    );
    let mut m = Mem::<u8, u8, f64, 2>::new(5, 8, 8, 0);
    let err = out::<f64, Wide, 2, 2>([4, 257], &mut m).err();
    assert_eq!(
        err,
        Some(AssembleError::WidthOverflow {
            level: 1,
            buffer: Which::Coordinates,
            value: 256,
            max: 255
        })
    );
    // 256 columns fit u8 coordinates.
    let mut m = Mem::<u8, u8, f64, 2>::new(5, 8, 8, 0);
    assert!(out::<f64, Wide, 2, 2>([4, 256], &mut m).is_ok());
}

/// Sizes whose empty tensor no memory can hold (a CSR of `usize::MAX`
/// rows needs `usize::MAX + 1` positions; a dense array of `usize::MAX`
/// elements of 8 bytes) are `TooLarge` before any buffer is touched,
/// whatever the buffers; formats that store nothing per row accept them.
#[test]
fn empty_tensors_no_memory_can_hold_are_too_large() {
    type Csr64 = Enc<usize, usize, (dense, compressed), (d0, d1)>;
    type Dense64 = Enc<usize, usize, (dense, dense), (d0, d1)>;
    type Dcsr64 = Enc<usize, usize, (compressed, compressed), (d0, d1)>;
    type Csc64 = Enc<usize, usize, (dense, compressed), (d1, d0)>;
    let huge = [usize::MAX, 1];
    let mut m = Mem::<usize, usize, f64, 2>::new(2, 0, 0, 0);
    let err = out::<f64, Csr64, 2, 2>(huge, &mut m).err();
    assert_eq!(err, Some(AssembleError::TooLarge { level: 1 }));
    let mut m = Mem::<usize, usize, f64, 2>::new(2, 0, 0, 0);
    let err = out::<f64, Dense64, 2, 2>(huge, &mut m).err();
    assert_eq!(err, Some(AssembleError::TooLarge { level: 1 }));
    // 2^61 f64 values are 2^64 bytes: the count fits, the bytes do not.
    let mut m = Mem::<usize, usize, f64, 2>::new(2, 0, 0, 0);
    let err = out::<f64, Dense64, 2, 2>([1 << 61, 1], &mut m).err();
    assert_eq!(err, Some(AssembleError::TooLarge { level: 1 }));
    // Bytes are checked: the same count of u8 is merely a full buffer.
    let mut m = Mem::<usize, usize, u8, 2>::new(2, 0, 0, 0);
    let err = out::<u8, Dense64, 2, 2>([1 << 61, 1], &mut m).err();
    assert!(
        matches!(err, Some(AssembleError::Capacity { .. })),
        "{err:?}"
    );
    // DCSR and a CSC of one column store nothing per row.
    let mut m = Mem::<usize, usize, f64, 2>::new(2, 0, 0, 0);
    assert!(out::<f64, Dcsr64, 2, 2>(huge, &mut m).is_ok());
    let mut m = Mem::<usize, usize, f64, 2>::new(2, 0, 0, 0);
    assert!(out::<f64, Csc64, 2, 2>(huge, &mut m).is_ok());
}

#[test]
fn positions_past_the_width_are_an_error() {
    // 2 rows of 200 entries: the last position, 400, does not fit u8.
    let mut m = Mem::<u8, u8, u8, 2>::new(3, 400, 400, 0);
    let mut c = out::<u8, Csr, 2, 2>([2, 200], &mut m).unwrap();
    c.begin();
    for i in 0..2 {
        for j in 0..200 {
            c.insert([i, j], 1);
        }
    }
    assert_eq!(
        c.finish("c"),
        Err(KernelError::PositionOverflow {
            tensor: "c",
            level: 1,
            entries: 400,
            max: 255
        })
    );
    is_empty_and_valid(&c);
}

#[test]
fn bad_insertions_are_errors_not_corruption() {
    let mut m = Mem::<u8, u8, f64, 2>::new(5, 8, 8, 0);
    let mut c = out::<f64, Csr, 2, 2>([4, 8], &mut m).unwrap();
    c.begin();
    c.insert([1, 0], 1.0);
    c.insert([0, 5], 2.0);
    c.insert([3, 5], 3.0);
    assert_eq!(
        c.finish("c"),
        Err(KernelError::InsertOutOfOrder {
            tensor: "c",
            insert: 1,
            level: 0
        })
    );
    is_empty_and_valid(&c);

    c.begin();
    c.insert([1, 1], 1.0);
    c.insert([1, 1], 2.0);
    assert_eq!(
        c.finish("c"),
        Err(KernelError::InsertOutOfOrder {
            tensor: "c",
            insert: 1,
            level: 1
        })
    );
    is_empty_and_valid(&c);

    c.begin();
    c.insert([4, 0], 1.0);
    assert_eq!(
        c.finish("c"),
        Err(KernelError::InsertOutOfRange {
            tensor: "c",
            level: 0,
            coordinate: 4,
            size: 4
        })
    );
    is_empty_and_valid(&c);

    // COO with a unique singleton: a repeated (i, j) is a duplicate...
    let mut m = Mem::<usize, u8, f64, 2>::new(2, 6, 3, 0);
    let mut c = out::<f64, Coo, 2, 2>([3, 4], &mut m).unwrap();
    c.begin();
    c.insert([1, 2], 1.0);
    c.insert([1, 2], 1.0);
    assert_eq!(
        c.finish("c"),
        Err(KernelError::InsertOutOfOrder {
            tensor: "c",
            insert: 1,
            level: 1
        })
    );
    // ... but a repeated row is not.
    c.begin();
    c.insert([1, 2], 1.0);
    c.insert([1, 3], 1.0);
    c.finish("c").unwrap();
    reassembles(&c);

    // Insertions outside begin..finish do nothing.
    c.insert([0, 0], 5.0);
    assert_eq!(c.number_of_entries(), 2);
    reassembles(&c);
}

#[test]
fn workspace_expands_and_compresses_a_row() {
    let mut m = Mem::<u8, u8, f64, 2>::new(5, 8, 8, 8);
    let mut c = out::<f64, Csr, 2, 2>([4, 8], &mut m).unwrap();
    c.begin();
    // Row 1: contributions to columns 5, 1, 5 (Gustavson order).
    {
        let mut ws = c.workspace(8).unwrap();
        assert_eq!(ws.len(), 8);
        for (j, x) in [(5, 1.0), (1, 2.0), (5, 3.0)] {
            *ws.entry(j).unwrap() += x;
        }
        assert_eq!(ws.count(), 2);
        assert!(ws.entry(8).is_none());
    }
    c.compress([1, 0]);
    {
        let mut ws = c.workspace(8).unwrap();
        assert_eq!(ws.count(), 0);
        let (values, filled, added) = ws.parts();
        assert!(values.iter().all(|&v| v == 0.0));
        assert!(filled.iter().all(|&f| !f));
        assert!(added.is_empty());
        *ws.entry(0).unwrap() = 7.0;
    }
    c.compress([3, 0]);
    {
        let mut ws = c.workspace(8).unwrap();
        *ws.entry(2).unwrap() = 1.0;
    }
    c.reset_workspace();
    c.finish("c").unwrap();
    let v = c.view();
    assert_eq!(v.level(1).positions(), &[0, 0, 2, 2, 3]);
    assert_eq!(v.level(1).coordinates(), &[1, 5, 0]);
    assert_eq!(v.values(), &[2.0, 4.0, 7.0]);
    reassembles(&c);
}

/// A coordinate listed twice through `parts()` (breaking the workspace's
/// invariant) never becomes a tensor with a repeated coordinate: the bulk
/// append refuses it and `insert` reports it, on the short (insertion
/// sort) and long (scan) orderings alike.
#[test]
fn workspace_parts_listing_a_coordinate_twice_is_an_error() {
    for listed in [
        &[3usize, 1, 3][..],
        &[
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 17,
        ],
    ] {
        let n = 20;
        let mut m = Mem::<u8, u8, f64, 2>::new(4, 2 * n, 2 * n, 2 * n);
        let mut c = out::<f64, Csr, 2, 2>([2, n], &mut m).unwrap();
        c.begin();
        {
            let mut ws = c.workspace(n).unwrap();
            let (values, filled, added) = ws.parts();
            for &j in listed {
                values[j] = 1.0;
                filled[j] = true;
                added.push(j).unwrap();
            }
        }
        c.compress([0, 0]);
        let err = c.finish("c").unwrap_err();
        assert!(
            matches!(err, KernelError::InsertOutOfOrder { level: 1, .. }),
            "{listed:?}: {err:?}"
        );
        // Emptied, valid and reusable.
        assert_eq!(c.number_of_entries(), 0);
        reassembles(&c);
    }
}

#[test]
fn workspace_too_small_is_a_capacity_error() {
    let mut m = Mem::<u8, u8, f64, 2>::new(5, 8, 8, 3);
    let mut c = out::<f64, Csr, 2, 2>([4, 8], &mut m).unwrap();
    c.begin();
    c.insert([0, 0], 1.0);
    let err = c.workspace(8).err();
    let expected = |tensor| KernelError::Capacity {
        tensor,
        level: 1,
        buffer: Which::Workspace,
        needed: 8,
        capacity: 3,
    };
    assert_eq!(err, Some(expected("output")));
    // Already emptied (valid) for an early return; finish names the tensor.
    is_empty_and_valid(&c);
    c.insert([1, 0], 1.0);
    assert_eq!(c.finish("c"), Err(expected("c")));
    is_empty_and_valid(&c);
    // Reusable with a workspace that fits.
    c.begin();
    *c.workspace(3).unwrap().entry(2).unwrap() = 1.0;
    c.compress([2, 0]);
    c.finish("c").unwrap();
    assert_eq!(c.view().level(1).coordinates(), &[2]);
}

#[cfg(feature = "heapless")]
#[test]
fn fixed_buffers_report_capacity_and_are_reused() {
    let mut c = SparseTensorOut::<f64, Csr, Fixed<5>, 2, 2>::with_dims([4, 8]).unwrap();
    csr_example(&mut c).unwrap();
    assert_eq!(c.view().level(1).positions(), &[0, 2, 2, 3, 5]);
    let mut c = SparseTensorOut::<f64, Csr, Fixed<4>, 2, 2>::with_dims([3, 8]).unwrap();
    c.begin();
    for j in 0..5 {
        c.insert([1, j], 1.0);
    }
    assert_eq!(
        c.finish("c"),
        Err(KernelError::Capacity {
            tensor: "c",
            level: 1,
            buffer: Which::Coordinates,
            needed: 5,
            capacity: 4
        })
    );
    is_empty_and_valid(&c);
    assert!(c.workspace(5).is_err());
    assert_eq!(c.workspace(4).unwrap().len(), 4);
}

#[cfg(feature = "heapless")]
#[test]
fn fixed_buffers_name_positions_and_values() {
    // DCSR with one entry per row: level 1 needs rows + 1 positions.
    let mut c = SparseTensorOut::<i32, Dcsr, Fixed<4>, 2, 2>::with_dims([4, 4]).unwrap();
    c.begin();
    for i in 0..4 {
        c.insert([i, i], 1);
    }
    assert_eq!(
        c.finish("c"),
        Err(KernelError::Capacity {
            tensor: "c",
            level: 1,
            buffer: Which::Positions,
            needed: 5,
            capacity: 4
        })
    );
    is_empty_and_valid(&c);
    c.begin();
    for i in 0..3 {
        c.insert([i, i], 1);
    }
    c.finish("c").unwrap();
    assert_eq!(c.view().level(1).positions(), &[0, 1, 2, 3]);
    reassembles(&c);

    // BSR: two 2x2 blocks need 8 values.
    let mut c = SparseTensorOut::<f64, Bsr, Fixed<5>, 2, 4>::with_dims([4, 6]).unwrap();
    c.begin();
    c.insert([0, 0, 0, 0], 1.0);
    c.insert([0, 1, 1, 1], 2.0);
    assert_eq!(
        c.finish("c"),
        Err(KernelError::Capacity {
            tensor: "c",
            level: 3,
            buffer: Which::Values,
            needed: 8,
            capacity: 5
        })
    );
    is_empty_and_valid(&c);
    c.begin();
    c.insert([1, 2, 1, 0], 3.0);
    c.finish("c").unwrap();
    assert_eq!(c.view().values(), &[0.0, 0.0, 3.0, 0.0]);
    reassembles(&c);
}

#[test]
fn a_singleton_below_a_unique_level_holds_one_entry_per_parent() {
    type Cs = Enc<u8, u8, (compressed, singleton), (d0, d1)>;
    let mut m = Mem::<u8, u8, f64, 2>::new(2, 6, 3, 0);
    let mut c = out::<f64, Cs, 2, 2>([3, 4], &mut m).unwrap();
    c.begin();
    c.insert([0, 1], 1.0);
    c.insert([0, 2], 2.0);
    assert_eq!(
        c.finish("c"),
        Err(KernelError::InsertOutOfOrder {
            tensor: "c",
            insert: 1,
            level: 1
        })
    );
    is_empty_and_valid(&c);
    c.begin();
    c.insert([0, 1], 1.0);
    c.insert([2, 0], 2.0);
    c.finish("c").unwrap();
    assert_eq!(c.view().level(0).coordinates(), &[0, 1, 2, 0]);
    reassembles(&c);
}
