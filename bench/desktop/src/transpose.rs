//! CSR → CSC (the transpose of the storage): `sparse_core::convert` into
//! caller buffers and into `Vec`s, against sprs' `to_csc` and
//! nalgebra-sparse's `CscMatrix::from`, and a hand-written counting
//! transpose over preallocated arrays. COO → CSR: `convert_sum` from an
//! unordered or a sorted COO tensor against sprs' `TriMat::to_csr` on the
//! same triplets (both sum repeats).

use std::cell::RefCell;
use std::hint::black_box;

use nalgebra_sparse::{CscMatrix, CsrMatrix};
use sparse_core::convert::{convert, convert_sum};
use sparse_core::{Level, Owned, SliceBuffer, Slices};

use crate::gen::{Csr, Rng};
use crate::harness::{measure, Budget, Competitor};
use crate::kernels;
use crate::peers::{EigenToCsc, EigenTriplets, GraphBlasConvert};
use crate::report::{table, Work};

/// The counting transpose, u32 arrays, outputs preallocated.
pub fn hand(a: &Csr, pos: &mut [u32], crd: &mut [u32], val: &mut [f64]) {
    pos.fill(0);
    for &j in &a.crd {
        pos[j as usize + 1] += 1;
    }
    for j in 0..a.cols {
        pos[j + 1] += pos[j];
    }
    for i in 0..a.rows {
        for p in a.pos[i] as usize..a.pos[i + 1] as usize {
            let j = a.crd[p] as usize;
            let q = pos[j] as usize;
            crd[q] = i as u32;
            val[q] = a.val[p];
            pos[j] += 1;
        }
    }
    for j in (1..=a.cols).rev() {
        pos[j] = pos[j - 1];
    }
    pos[0] = 0;
}

pub fn csr_to_csc(name: &str, a: &Csr, budget: &Budget) {
    let (m, n, nnz) = (a.rows, a.cols, a.nnz());
    let ta = kernels::CSR32::<f64>::assemble(
        [m, n],
        [Level::dense(), Level::compressed(&a.pos, &a.crd)],
        &a.val,
    )
    .expect("valid CSR");
    let sa = sprs::CsMatI::<f64, u32>::new((m, n), a.pos.clone(), a.crd.clone(), a.val.clone());
    let na = CsrMatrix::try_from_csr_data(m, n, a.pos_usize(), a.crd_usize(), a.val.clone())
        .expect("valid CSR");
    let want = sa.to_csc();
    let (wpos, wcrd, wval) = (
        want.indptr().raw_storage().to_vec(),
        want.indices().to_vec(),
        want.data().to_vec(),
    );

    let mut pos = vec![0u32; n + 1];
    let mut crd = vec![0u32; nnz];
    let mut val = vec![0.0f64; nnz];
    let slices = RefCell::new(
        kernels::CSC32Out::<f64, Slices<'_>>::new(
            [m, n],
            [SliceBuffer::default(), SliceBuffer::new(&mut pos)],
            [SliceBuffer::default(), SliceBuffer::new(&mut crd)],
            SliceBuffer::new(&mut val),
            SliceBuffer::default(),
            SliceBuffer::default(),
            SliceBuffer::default(),
        )
        .expect("room for the empty tensor"),
    );
    let owned = RefCell::new(kernels::CSC32Out::<f64, Owned>::with_dims([m, n]).expect("dims"));
    let sprs_out = RefCell::new(None);
    let na_out = RefCell::new(None);
    let hand_out = RefCell::new((vec![0u32; n + 1], vec![0u32; nnz], vec![0.0; nnz]));
    let eigen = EigenToCsc::new(a).map(RefCell::new);
    let gb = GraphBlasConvert::new(a, None).map(RefCell::new);
    let mut comps = vec![
        Competitor::ours("convert into caller slices (exact size)", || {
            convert(black_box(&ta), &mut *slices.borrow_mut()).expect("fits")
        }),
        Competitor::ours("convert into Owned (reused)", || {
            convert(black_box(&ta), &mut *owned.borrow_mut()).expect("fits")
        }),
        Competitor::peer("sprs to_csc (allocates)", || {
            *sprs_out.borrow_mut() = Some(black_box(&sa).to_csc());
        }),
        Competitor::peer("nalgebra-sparse CscMatrix::from (allocates)", || {
            *na_out.borrow_mut() = Some(CscMatrix::from(black_box(&na)));
        }),
        Competitor::reference("hand-written counting transpose (preallocated)", || {
            let mut o = hand_out.borrow_mut();
            let (p, c, v) = &mut *o;
            hand(black_box(a), p, c, v);
        }),
    ];
    if let Some(e) = &eigen {
        comps.push(Competitor::peer(
            "Eigen ColMajor = RowMajor (reused)",
            || e.borrow_mut().run(),
        ));
    }
    if let Some(g) = &gb {
        comps.push(Competitor::peer(
            "GraphBLAS 7.4 GrB_transpose (reused)",
            || g.borrow_mut().run(),
        ));
    }
    let t = measure(comps, budget);
    let peers = [
        eigen.map(|e| e.borrow().out()),
        gb.map(|g| g.borrow().out()),
    ];
    for o in peers.iter().flatten() {
        let w = |x: &[u32]| x.iter().map(|&v| v as usize).collect::<Vec<_>>();
        assert_eq!(
            (&o.pos, &o.crd, &o.val),
            (&w(&wpos), &w(&wcrd), &wval),
            "{name}: a peer differs"
        );
    }
    // Every implementation produced the same arrays.
    for out in [&slices.borrow().view(), &owned.borrow().view()] {
        assert_eq!(out.level(1).positions(), &wpos[..], "{name}: positions");
        assert_eq!(out.level(1).coordinates(), &wcrd[..], "{name}: coordinates");
        assert_eq!(out.values(), &wval[..], "{name}: values");
    }
    let h = hand_out.borrow();
    assert_eq!(
        (&h.0, &h.1, &h.2),
        (&wpos, &wcrd, &wval),
        "{name}: hand-written"
    );
    let nc = na_out.borrow();
    let nc = nc.as_ref().expect("ran");
    assert_eq!(nc.values(), &wval[..], "{name}: nalgebra-sparse");
    table(
        &format!("{name}, f64: CSR → CSC"),
        &t,
        &Work { nnz, bytes: None },
        None,
    );
}

/// COO → CSR: the matrix's entries as triplets, shuffled (`sorted =
/// false`: an unordered COO tensor, `compressed(nonunique, nonordered)`) or
/// in row order (a sorted COO tensor), converted with `convert_sum` into
/// caller slices of exactly the result's size and into a reused `Owned`
/// output, against sprs' `TriMat::to_csr` on the same triplets (which
/// sorts them and sums repeats, allocating the result).
/// The triplets of `a` in row order, or shuffled (a fixed seed).
pub fn triplets(a: &Csr, sorted: bool) -> Vec<(u32, u32, f64)> {
    let mut triplets: Vec<(u32, u32, f64)> = Vec::with_capacity(a.nnz());
    for i in 0..a.rows {
        for p in a.pos[i] as usize..a.pos[i + 1] as usize {
            triplets.push((i as u32, a.crd[p], a.val[p]));
        }
    }
    if !sorted {
        // Fisher-Yates, fixed seed.
        let mut rng = Rng::new(77);
        for k in (1..triplets.len()).rev() {
            triplets.swap(k, rng.below(k + 1));
        }
    }
    triplets
}

pub fn coo_to_csr(name: &str, a: &Csr, sorted: bool, budget: &Budget) {
    let (m, n, nnz) = (a.rows, a.cols, a.nnz());
    let triplets = triplets(a, sorted);
    let aos: Vec<u32> = triplets.iter().flat_map(|t| [t.0, t.1]).collect();
    let val: Vec<f64> = triplets.iter().map(|t| t.2).collect();
    let coo_pos = [0u32, nnz as u32];
    let levels = [Level::compressed(&coo_pos, &aos), Level::fused()];
    let unordered = kernels::UCOO32::<f64>::assemble([m, n], levels, &val).expect("valid COO");
    let ordered =
        sorted.then(|| kernels::COO32::<f64>::assemble([m, n], levels, &val).expect("sorted COO"));
    let tri = sprs::TriMatI::<f64, u32>::from_triplets(
        (m, n),
        triplets.iter().map(|t| t.0).collect(),
        triplets.iter().map(|t| t.1).collect(),
        val.clone(),
    );
    let want: sprs::CsMatI<f64, u32, u32> = tri.to_csr();

    let mut pos = vec![0u32; m + 1];
    let mut crd = vec![0u32; nnz];
    let mut vals = vec![0.0f64; nnz];
    let slices = RefCell::new(
        kernels::CSR32Out::<f64, Slices<'_>>::new(
            [m, n],
            [SliceBuffer::default(), SliceBuffer::new(&mut pos)],
            [SliceBuffer::default(), SliceBuffer::new(&mut crd)],
            SliceBuffer::new(&mut vals),
            SliceBuffer::default(),
            SliceBuffer::default(),
            SliceBuffer::default(),
        )
        .expect("room for the empty tensor"),
    );
    let owned = RefCell::new(kernels::CSR32Out::<f64, Owned>::with_dims([m, n]).expect("dims"));
    let sprs_out = RefCell::new(None);
    let what = if sorted {
        "sorted COO"
    } else {
        "unordered COO"
    };
    let (ti, tj): (Vec<u32>, Vec<u32>) = triplets.iter().map(|t| (t.0, t.1)).unzip();
    let eigen = EigenTriplets::new(m, n, &ti, &tj, &val).map(RefCell::new);
    let gb = GraphBlasConvert::new(a, Some((&ti, &tj, &val))).map(RefCell::new);
    let mut comps = vec![
        Competitor::ours(
            format!("convert_sum {what} into caller slices (exact size)"),
            || {
                let mut o = slices.borrow_mut();
                match &ordered {
                    Some(t) => convert_sum(black_box(t), &mut *o),
                    None => convert_sum(black_box(&unordered), &mut *o),
                }
                .expect("fits")
            },
        ),
        Competitor::ours(format!("convert_sum {what} into Owned (reused)"), || {
            let mut o = owned.borrow_mut();
            match &ordered {
                Some(t) => convert_sum(black_box(t), &mut *o),
                None => convert_sum(black_box(&unordered), &mut *o),
            }
            .expect("fits")
        }),
        Competitor::peer("sprs TriMat::to_csr (allocates)", || {
            *sprs_out.borrow_mut() = Some(black_box(&tri).to_csr::<u32>());
        }),
    ];
    if let Some(e) = &eigen {
        comps.push(Competitor::peer("Eigen setFromTriplets (reused)", || {
            e.borrow_mut().run()
        }));
    }
    if let Some(g) = &gb {
        comps.push(Competitor::peer(
            "GraphBLAS 7.4 GrB_Matrix_build (reused)",
            || g.borrow_mut().run(),
        ));
    }
    let t = measure(comps, budget);
    let (wpos, wcrd, wval) = (
        want.indptr().raw_storage().to_vec(),
        want.indices().to_vec(),
        want.data().to_vec(),
    );
    for out in [&slices.borrow().view(), &owned.borrow().view()] {
        assert_eq!(out.level(1).positions(), &wpos[..], "{name}: positions");
        assert_eq!(out.level(1).coordinates(), &wcrd[..], "{name}: coordinates");
        assert_eq!(out.values(), &wval[..], "{name}: values");
    }
    let peers = [
        eigen.map(|e| e.borrow().out()),
        gb.map(|g| g.borrow().out()),
    ];
    for o in peers.iter().flatten() {
        let w = |x: &[u32]| x.iter().map(|&v| v as usize).collect::<Vec<_>>();
        assert_eq!(
            (&o.pos, &o.crd, &o.val),
            (&w(&wpos), &w(&wcrd), &wval),
            "{name}: a peer differs"
        );
    }
    table(
        &format!("{name}, f64: {what} → CSR"),
        &t,
        &Work { nnz, bytes: None },
        None,
    );
}
