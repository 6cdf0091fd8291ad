//! 2:4 tensors with 2-bit in-group coordinates (`crdWidth = 2`, four
//! packed per byte as `Packed2`): seed 001's worked layout, `assemble`'s
//! checks of the packed bytes, every 2:4 kernel of `structured_out.rs`
//! reading and writing the packed form as it does one coordinate per byte,
//! and output capacity counted in bytes. Against dense references and the
//! unpacked layouts.

use proptest::prelude::*;
use sparse_core::output::Owned;
use sparse_core::{DenseView, DenseViewMut, Index, Level, Packed2};

use super::structured_out::{k, layout_2_4, matrix_2_4, matvec, nonzeros};

/// `crd` packed four per byte.
fn packed(crd: &[u8]) -> Vec<Packed2> {
    let mut out = vec![Packed2::default(); crd.len().div_ceil(4)];
    assert_eq!(Packed2::pack(crd, &mut out), Some(out.len()));
    out
}

fn nv24p(rows: usize, cols: usize, crd: &[u8], val: &[f64]) -> k::NV24P<'static, f64> {
    let crd: &'static [Packed2] = Vec::leak(packed(crd));
    let val: &'static [f64] = Vec::leak(val.to_vec());
    k::NV24P::<f64>::assemble(
        [rows, cols],
        [Level::dense(), Level::dense(), Level::structured(crd)],
        val,
    )
    .unwrap()
}

/// Seed 001's 2:4 worked layout (NVIDIA's sparse MMA example), 16x16 with
/// 2-bit coordinates: the printed coordinates and values are the seed's,
/// the buffer is 32 bytes for 128 coordinates, and SpMV matches the dense
/// matrix the layout describes.
#[test]
fn the_seed_2_4_layout_with_packed_coordinates() {
    let rows: [[u8; 8]; 4] = [
        [0, 2, 0, 2, 0, 2, 0, 2],
        [1, 3, 1, 3, 1, 3, 1, 3],
        [0, 1, 2, 3, 0, 1, 2, 3],
        [2, 3, 0, 1, 2, 3, 0, 1],
    ];
    let more: [[u8; 8]; 4] = [
        [0, 1, 0, 1, 0, 1, 0, 1],
        [0, 1, 0, 1, 0, 1, 0, 1],
        [2, 3, 2, 3, 2, 3, 2, 3],
        [2, 3, 2, 3, 2, 3, 2, 3],
    ];
    let crd: Vec<u8> = [rows, more, rows, more]
        .iter()
        .flatten()
        .flatten()
        .copied()
        .collect();
    let val: Vec<f64> = (0..16)
        .flat_map(|r| {
            let base = (r % 8) * 4;
            (0..8).map(move |k| f64::from(base + k % 4 + 1))
        })
        .collect();
    assert_eq!(crd.len(), 128);
    let a = nv24p(16, 16, &crd, &val);
    assert_eq!(a.level(2).coordinates().len(), 32);
    let text = format!("{a}");
    let listed: Vec<String> = crd.iter().map(|c| c.to_string()).collect();
    assert!(
        text.contains(&format!("crd[2] : ( {} )", listed.join(", "))),
        "{text}"
    );
    // The dense matrix the layout describes.
    let mut m = vec![vec![0.0; 16]; 16];
    for (q, (&c, &v)) in crd.iter().zip(&val).enumerate() {
        let (r, g) = (q / 8, q % 8 / 2);
        m[r][g * 4 + usize::from(c)] = v;
    }
    let x: Vec<f64> = (0..16).map(|j| f64::from(j as u8) * 0.5 - 3.0).collect();
    let mut y = vec![0.0; 16];
    k::spmv_24p(&a, &x, &mut y).unwrap();
    assert_eq!(y, matvec(&m, &x));
    // Converting the dense matrix back gives the same bytes.
    let flat: Vec<f64> = m.iter().flatten().copied().collect();
    let mut c = k::NV24POut::<f64, Owned>::with_dims([16, 16]).unwrap();
    sparse_core::convert::from_dense(&flat, [16, 16], &mut c).unwrap();
    assert_eq!(c.view().level(2).coordinates(), a.level(2).coordinates());
    assert_eq!(c.view().values(), a.values());
}

#[test]
fn packed_coordinates_are_checked_by_assemble() {
    use sparse_core::AssembleError;
    // One coordinate per byte is the wrong length for 2-bit coordinates.
    let crd = [Packed2(1), Packed2(3)];
    assert_eq!(
        k::NV24P::<f64>::assemble(
            [1, 4],
            [Level::dense(), Level::dense(), Level::structured(&crd)],
            &[1.0, 2.0],
        )
        .err(),
        Some(AssembleError::WrongLength {
            level: 2,
            buffer: sparse_core::Buffer::Coordinates,
            expected: 1,
            found: 2
        })
    );
    // Two coordinates in one byte: the two unused fields must be 0.
    let crd = [Packed2::new([1, 3, 2, 0])];
    let err = k::NV24P::<f64>::assemble(
        [1, 4],
        [Level::dense(), Level::dense(), Level::structured(&crd)],
        &[1.0, 2.0],
    )
    .err();
    assert_eq!(
        err,
        Some(AssembleError::PackingPadding {
            level: 2,
            position: 2
        })
    );
    assert_eq!(
        err.unwrap().to_string(),
        "level 2: packed coordinate slot 2, past the level's coordinates in their last byte, is not 0"
    );
    // Unsorted within a group, as for one byte per coordinate.
    let crd = [Packed2::new([3, 1, 0, 0])];
    assert!(matches!(
        k::NV24P::<f64>::assemble(
            [1, 4],
            [Level::dense(), Level::dense(), Level::structured(&crd)],
            &[1.0, 2.0],
        ),
        Err(AssembleError::Unsorted {
            level: 2,
            position: 1
        })
    ));
    let crd = [Packed2::new([1, 3, 0, 0])];
    let a = k::NV24P::<f64>::assemble(
        [1, 4],
        [Level::dense(), Level::dense(), Level::structured(&crd)],
        &[1.0, 2.0],
    )
    .unwrap();
    let mut seen = Vec::new();
    a.for_each(|[i, j], v| seen.push((i, j, *v)));
    assert_eq!(seen, [(0, 1, 1.0), (0, 3, 2.0)]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Every kernel reads packed 2:4 as it reads one coordinate per byte,
    /// and writes it: against the dense reference.
    #[test]
    fn packed_2_4_kernels_match_dense(
        m in matrix_2_4(3, 12),
        mb in matrix_2_4(3, 12),
        x in proptest::collection::vec((-3i32..=3).prop_map(f64::from), 12 * 2),
        t in 0..3i32,
    ) {
        let (crd, val) = layout_2_4(3, 12, |i, g| nonzeros(&m, i, g), |i, j| m[i][j]);
        let a = nv24p(3, 12, &crd, &val);
        prop_assert_eq!(a.level(2).coordinates().len(), 5); // 18 coordinates
        let mut y = vec![0.0; 3];
        k::spmv_24p(&a, &x[..12], &mut y).unwrap();
        prop_assert_eq!(&y, &matvec(&m, &x[..12]));
        let mut y = vec![0.0; 6];
        k::spmm_24p(&a, DenseView::new(&x, [12, 2]).unwrap(), DenseViewMut::new(&mut y, [3, 2]).unwrap()).unwrap();
        let want: Vec<f64> = (0..3).flat_map(|i| {
            let m = &m;
            let x = &x;
            (0..2).map(move |k| (0..12).map(|j| m[i][j] * x[j * 2 + k]).sum::<f64>())
        }).collect();
        prop_assert_eq!(&y, &want);
        let (cb, vb) = layout_2_4(3, 12, |i, g| nonzeros(&mb, i, g), |i, j| mb[i][j]);
        let b = nv24p(3, 12, &cb, &vb);
        let mut c = vec![0.0; 36];
        k::add_24p(&a, &b, DenseViewMut::new(&mut c, [3, 12]).unwrap()).unwrap();
        let sum: Vec<f64> = m.iter().flatten().zip(mb.iter().flatten()).map(|(p, q)| p + q).collect();
        prop_assert_eq!(&c, &sum);

        // Pruning into a packed output.
        let t = f64::from(t);
        let pruned: Vec<Vec<f64>> = mb.iter()
            .map(|r| r.iter().map(|&v| if v.abs() > t { v } else { 0.0 }).collect())
            .collect();
        let flat: Vec<f64> = mb.iter().flatten().copied().collect();
        let mut out = k::NV24POut::<f64, Owned>::with_dims([3, 12]).unwrap();
        k::prune_24p(DenseView::new(&flat, [3, 12]).unwrap(), t, &mut out).unwrap();
        let (pc, pv) = layout_2_4(3, 12, |i, g| nonzeros(&pruned, i, g), |i, j| pruned[i][j]);
        prop_assert_eq!(out.view().level(2).coordinates(), &packed(&pc)[..]);
        prop_assert_eq!(out.view().values(), &pv[..]);
        // CSR → packed 2:4.
        let (mut pos, mut ccrd, mut cval) = (vec![0usize], Vec::new(), Vec::new());
        for r in &pruned {
            for (j, &v) in r.iter().enumerate().filter(|(_, v)| **v != 0.0) {
                ccrd.push(j);
                cval.push(v);
            }
            pos.push(ccrd.len());
        }
        let csr = k::CSR::<f64>::assemble([3, 12], [Level::dense(), Level::compressed(&pos, &ccrd)], &cval).unwrap();
        k::csr_to_24p(&csr, &mut out).unwrap();
        prop_assert_eq!(out.view().level(2).coordinates(), &packed(&pc)[..]);
        prop_assert_eq!(out.view().values(), &pv[..]);
        prop_assert_eq!(Packed2::get_at(out.view().level(2).coordinates(), 17), Some(usize::from(pc[17])));
    }
}

#[test]
fn packed_outputs_count_capacity_in_bytes() {
    use sparse_core::{SliceBuffer, Slices};
    // 1x8 in 2:4: four coordinates, one byte; offer none.
    let mut val = [0.0f64; 4];
    let mut crd: [Packed2; 0] = [];
    let made = k::NV24POut::<f64, Slices<'_>>::new(
        [1, 8],
        [
            SliceBuffer::default(),
            SliceBuffer::default(),
            SliceBuffer::default(),
        ],
        [
            SliceBuffer::default(),
            SliceBuffer::default(),
            SliceBuffer::new(&mut crd),
        ],
        SliceBuffer::new(&mut val),
        SliceBuffer::default(),
        SliceBuffer::default(),
        SliceBuffer::default(),
    );
    assert_eq!(
        made.err(),
        Some(sparse_core::AssembleError::Capacity {
            level: 2,
            buffer: sparse_core::Buffer::Coordinates,
            needed: 1,
            capacity: 0
        })
    );
    let mut crd = [Packed2::default(); 1];
    let mut c = k::NV24POut::<f64, Slices<'_>>::new(
        [1, 8],
        [
            SliceBuffer::default(),
            SliceBuffer::default(),
            SliceBuffer::default(),
        ],
        [
            SliceBuffer::default(),
            SliceBuffer::default(),
            SliceBuffer::new(&mut crd),
        ],
        SliceBuffer::new(&mut val),
        SliceBuffer::default(),
        SliceBuffer::default(),
        SliceBuffer::default(),
    )
    .unwrap();
    let d = [0.0, 0.0, 0.0, 5.0, 0.0, 6.0, 7.0, 0.0];
    k::prune_24p(DenseView::new(&d, [1, 8]).unwrap(), 0.0, &mut c).unwrap();
    assert_eq!(
        c.view().level(2).coordinates(),
        &[Packed2::new([0, 3, 1, 2])]
    );
    assert_eq!(c.view().values(), &[0.0, 5.0, 6.0, 7.0]);
}
