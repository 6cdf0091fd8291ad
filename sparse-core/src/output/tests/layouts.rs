//! Layouts built by insertion, checked against hand-worked buffers.

use super::*;
use crate::levels::{compressed, d0, d1, nonunique, singleton};

#[test]
fn csr_by_insertion_matches_seed_layout() {
    let mut m = Mem::<u8, u8, f64, 2>::new(5, 8, 8, 0);
    let mut c = out::<f64, Csr, 2, 2>([4, 8], &mut m).unwrap();
    reassembles(&c);
    assert_eq!(c.view().level(1).positions(), &[0, 0, 0, 0, 0]);
    c.begin();
    for (i, j, v) in [
        (0, 0, 1.0),
        (0, 2, 2.0),
        (2, 1, 3.0),
        (3, 2, 4.0),
        (3, 7, 5.0),
    ] {
        c.insert([i, j], v);
    }
    c.finish("c").unwrap();
    let v = c.view();
    assert_eq!(v.level(1).positions(), &[0, 2, 2, 3, 5]);
    assert_eq!(v.level(1).coordinates(), &[0, 2, 1, 2, 7]);
    assert_eq!(v.values(), &[1.0, 2.0, 3.0, 4.0, 5.0]);
    assert_eq!(c.number_of_entries(), 5);
    reassembles(&c);
}

#[test]
fn bsr_blocks_are_zero_filled() {
    // 4x6 in 2x2 blocks:
    // | 1 2 . . 7 . |
    // | . 3 . . 8 . |
    // | . . . . . . |
    // | . . 4 5 . 6 |
    let mut m = Mem::<u8, u8, f64, 4>::new(3, 4, 16, 0);
    let mut c = out::<f64, Bsr, 2, 4>([4, 6], &mut m).unwrap();
    c.begin();
    // Level coordinates (i/2, j/2, i%2, j%2) in lexicographic order.
    let entries = [
        ([0, 0, 0, 0], 1.0),
        ([0, 0, 0, 1], 2.0),
        ([0, 0, 1, 1], 3.0),
        ([0, 2, 0, 0], 7.0),
        ([0, 2, 1, 0], 8.0),
        ([1, 1, 1, 0], 4.0),
        ([1, 1, 1, 1], 5.0),
        ([1, 2, 1, 1], 6.0),
    ];
    for (lvl, v) in entries {
        c.insert(lvl, v);
    }
    c.finish("c").unwrap();
    let v = c.view();
    assert_eq!(v.level(1).positions(), &[0, 2, 4]);
    assert_eq!(v.level(1).coordinates(), &[0, 2, 1, 2]);
    assert_eq!(
        v.values(),
        &[1.0, 2.0, 0.0, 3.0, 7.0, 0.0, 8.0, 0.0, 0.0, 0.0, 4.0, 5.0, 0.0, 0.0, 0.0, 6.0]
    );
    reassembles(&c);
}

#[test]
fn coo_aos_matches_seed_000() {
    // Seed 000's 3x4 COO: (0,0) 1.1, (1,2) 2.2, (1,3) 3.3.
    let mut m = Mem::<usize, u8, f64, 2>::new(2, 6, 3, 0);
    let mut c = out::<f64, Coo, 2, 2>([3, 4], &mut m).unwrap();
    c.begin();
    c.insert([0, 0], 1.1);
    c.insert([1, 2], 2.2);
    c.insert([1, 3], 3.3);
    c.finish("c").unwrap();
    let v = c.view();
    assert_eq!(v.level(0).positions(), &[0, 3]);
    assert_eq!(v.level(0).coordinates(), &[0, 0, 1, 2, 1, 3]);
    assert_eq!(v.values(), &[1.1, 2.2, 3.3]);
    reassembles(&c);
    extern crate alloc;
    assert_eq!(
        alloc::format!("{c}"),
        "---- Sparse Tensor ----\nnse = 3\ndim = ( 3, 4 )\nlvl = ( 3, 4 )\npos[0] : ( 0, 3 )\n\
         crd[0] : ( 0, 0, 1, 2, 1, 3 )\nvalues : ( 1.1, 2.2, 3.3 )\n----"
    );
    assert_eq!(alloc::format!("{c:#}"), alloc::format!("{:#}", c.view()));
}

#[test]
fn coo_soa_and_dcsr_and_loose() {
    let entries = [([0, 1], 1i32), ([0, 3], 2), ([2, 0], 3)];

    let mut m = Mem::<u32, u32, i32, 2>::new(2, 3, 3, 0);
    let mut c = out::<i32, CooSoa, 2, 2>([3, 4], &mut m).unwrap();
    c.begin();
    entries.iter().for_each(|&(l, v)| c.insert(l, v));
    c.finish("c").unwrap();
    let v = c.view();
    assert_eq!(v.level(0).positions(), &[0, 3]);
    assert_eq!(v.level(0).coordinates(), &[0, 0, 2]);
    assert_eq!(v.level(1).coordinates(), &[1, 3, 0]);
    reassembles(&c);

    let mut m = Mem::<u16, u16, i32, 2>::new(3, 3, 3, 0);
    let mut c = out::<i32, Dcsr, 2, 2>([3, 4], &mut m).unwrap();
    assert_eq!(c.view().level(0).positions(), &[0, 0]);
    c.begin();
    entries.iter().for_each(|&(l, v)| c.insert(l, v));
    c.finish("c").unwrap();
    let v = c.view();
    assert_eq!(v.level(0).positions(), &[0, 2]);
    assert_eq!(v.level(0).coordinates(), &[0, 2]);
    assert_eq!(v.level(1).positions(), &[0, 2, 3]);
    assert_eq!(v.level(1).coordinates(), &[1, 3, 0]);
    assert_eq!(v.values(), &[1, 2, 3]);
    reassembles(&c);

    let mut m = Mem::<u8, u8, i32, 2>::new(6, 3, 3, 0);
    let mut c = out::<i32, Loose, 2, 2>([3, 4], &mut m).unwrap();
    assert_eq!(c.view().level(1).positions(), &[0; 6]);
    c.begin();
    entries.iter().for_each(|&(l, v)| c.insert(l, v));
    c.finish("c").unwrap();
    let v = c.view();
    assert_eq!(v.level(1).positions(), &[0, 2, 2, 2, 2, 3]);
    assert_eq!(v.level(1).coordinates(), &[1, 3, 0]);
    reassembles(&c);
}

#[test]
fn all_dense_output_is_zero_filled() {
    let mut m = Mem::<u8, u8, i32, 2>::new(0, 0, 4, 0);
    let mut c = out::<i32, Dense2, 2, 2>([2, 2], &mut m).unwrap();
    assert_eq!(c.view().values(), &[0, 0, 0, 0]);
    c.begin();
    c.insert([0, 1], 7);
    c.insert([1, 0], 5);
    c.finish("c").unwrap();
    assert_eq!(c.view().values(), &[0, 7, 5, 0]);
    reassembles(&c);
    c.clear();
    assert_eq!(c.view().values(), &[0, 0, 0, 0]);
}

#[test]
fn explicit_zeros_are_stored() {
    let mut m = Mem::<u8, u8, f64, 2>::new(5, 8, 8, 0);
    let mut c = out::<f64, Csr, 2, 2>([4, 8], &mut m).unwrap();
    c.begin();
    c.insert([1, 3], 0.0);
    c.finish("c").unwrap();
    assert_eq!(c.number_of_entries(), 1);
    assert_eq!(c.view().level(1).positions(), &[0, 0, 1, 1, 1]);
}

#[test]
fn repeats_where_every_level_below_allows_them() {
    type CooNu = Enc<u8, u8, (compressed<nonunique>, singleton<nonunique>), (d0, d1)>;
    let mut m = Mem::<u8, u8, f64, 2>::new(2, 6, 3, 0);
    let mut c = out::<f64, CooNu, 2, 2>([3, 4], &mut m).unwrap();
    c.begin();
    c.insert([1, 2], 1.0);
    c.insert([1, 2], 2.0);
    c.finish("c").unwrap();
    assert_eq!(c.view().level(0).coordinates(), &[1, 2, 1, 2]);
    reassembles(&c);
}

#[test]
fn view_during_a_call_is_an_empty_valid_tensor() {
    let mut m = Mem::<u16, u16, i32, 2>::new(3, 3, 3, 0);
    let mut c = out::<i32, Dcsr, 2, 2>([3, 4], &mut m).unwrap();
    c.begin();
    c.insert([0, 1], 1);
    assert_eq!(c.view().dim_sizes(), [0, 0]);
    reassembles(&c);
    c.finish("c").unwrap();
    assert_eq!(c.view().dim_sizes(), [3, 4]);

    let mut m = Mem::<u8, u8, f64, 4>::new(3, 4, 16, 0);
    let mut c = out::<f64, Bsr, 2, 4>([4, 6], &mut m).unwrap();
    c.begin();
    c.insert([0, 1, 1, 1], 1.0);
    reassembles(&c);
    let mut m = Mem::<u8, u8, i32, 2>::new(6, 3, 3, 0);
    let mut c = out::<i32, Loose, 2, 2>([3, 4], &mut m).unwrap();
    c.begin();
    reassembles(&c);
}

#[cfg(feature = "alloc")]
#[test]
fn owned_buffers_grow() {
    let mut c = SparseTensorOut::<f64, Csr, Owned, 2, 2>::with_dims([4, 8]).unwrap();
    csr_example(&mut c).unwrap();
    assert_eq!(c.view().values(), &[1.0, 2.0, 3.0, 4.0, 5.0]);
    reassembles(&c);
}

#[cfg(feature = "alloc")]
#[test]
fn reserved_owned_buffers_fill_without_growing() {
    let mut c = SparseTensorOut::<f64, Csr, Owned, 2, 2>::with_dims([4, 8]).unwrap();
    c.begin();
    c.reserve_entries(5);
    let (crd, val) = (c.coordinates[1].as_ptr(), c.values.as_ptr());
    assert!(c.coordinates[1].capacity() >= 5 && c.values.capacity() >= 5);
    csr_example(&mut c).unwrap();
    // The five entries went into the reserved buffers: no reallocation.
    assert_eq!(c.coordinates[1].as_ptr(), crd);
    assert_eq!(c.values.as_ptr(), val);
    assert_eq!(c.view().values(), &[1.0, 2.0, 3.0, 4.0, 5.0]);
}
