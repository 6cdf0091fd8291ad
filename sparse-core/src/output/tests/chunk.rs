//! Chunk outputs joined in row order (`chunk.rs`, what `#[parallel]`
//! kernels with a sparse output run): the joined output is the one the
//! same insertions make sequentially, storage and errors alike, through
//! the direct write (room and widths suffice) and through the replay
//! (a buffer too small, positions too wide, chunks that do not partition
//! the rows). Every result is re-assembled through the checked
//! constructor. No threads: Miri runs these.

use super::*;
use crate::output::chunk::Chunk;

/// Entries `(row, column, value)` in row-major order, cut into chunks at
/// the rows `cuts` (each chunk holds rows `cuts[k]..cuts[k + 1]`, the last
/// up to `rows`).
fn chunks<E: Encoding, B: OutputBuffers<E::Pos, E::Crd, f64>>(
    like: &SparseTensorOut<f64, E, B, 2, 2>,
    entries: &[(usize, usize, f64)],
    cuts: &[usize],
    rows: usize,
) -> Vec<Chunk<f64, E, 2, 2>> {
    let mut out = Vec::new();
    for (k, &row0) in cuts.iter().enumerate() {
        let end = cuts.get(k + 1).copied().unwrap_or(rows);
        let mut part = like.chunk_out(end - row0);
        part.begin();
        for &(i, j, v) in entries.iter().filter(|e| (row0..end).contains(&e.0)) {
            part.insert([i - row0, j], v);
        }
        part.finish("output").expect("a chunk takes its rows");
        reassembles(&part);
        out.push(Chunk { row0, out: part });
    }
    out
}

/// The sequential insertions into `c`, and their result.
fn sequential<E: Encoding, B: OutputBuffers<E::Pos, E::Crd, f64>>(
    c: &mut SparseTensorOut<f64, E, B, 2, 2>,
    entries: &[(usize, usize, f64)],
) -> Result<(), KernelError> {
    c.begin();
    for &(i, j, v) in entries {
        c.insert([i, j], v);
    }
    c.finish("c")
}

/// Joins the chunks of `entries` (cut at `cuts`) into `c` as a kernel
/// does (`begin`, join, `finish`).
fn joined<E: Encoding, B: OutputBuffers<E::Pos, E::Crd, f64>>(
    c: &mut SparseTensorOut<f64, E, B, 2, 2>,
    entries: &[(usize, usize, f64)],
    cuts: &[usize],
) -> Result<(), KernelError> {
    let rows = c.dim_sizes()[0];
    let parts = chunks(c, entries, cuts, rows);
    c.begin();
    c.concat_rows(&parts);
    c.finish("c")
}

/// A 7x6 matrix with empty rows at the start, in the middle and at the end.
const ENTRIES: [(usize, usize, f64); 8] = [
    (1, 0, 1.0),
    (1, 4, -2.5),
    (2, 5, 3.0),
    (4, 1, 0.0),
    (4, 2, 7.5),
    (4, 3, -1.0),
    (5, 0, 9.0),
    (5, 5, 0.25),
];

fn storage<E: Encoding, B: OutputBuffers<E::Pos, E::Crd, f64>>(
    c: &SparseTensorOut<f64, E, B, 2, 2>,
) -> Vec<Vec<u64>> {
    let v = c.view();
    let mut out = Vec::new();
    for l in 0..2 {
        out.push(v.level(l).positions().iter().map(|p| p.to_u64()).collect());
        out.push(
            v.level(l)
                .coordinates()
                .iter()
                .map(|x| x.to_u64())
                .collect(),
        );
    }
    out.push(v.values().iter().map(|x| x.to_bits()).collect());
    out
}

#[test]
fn csr_and_dcsr_chunks_join_into_the_sequential_storage() {
    for cuts in [&[0][..], &[0, 3], &[0, 1, 2, 4, 7], &[0, 0, 5, 6]] {
        let mut want = Mem::<u8, u8, f64, 2>::new(16, 16, 16, 0);
        let mut got = Mem::<u8, u8, f64, 2>::new(16, 16, 16, 0);
        let mut w = out::<f64, Csr, 2, 2>([7, 6], &mut want).unwrap();
        let mut g = out::<f64, Csr, 2, 2>([7, 6], &mut got).unwrap();
        sequential(&mut w, &ENTRIES).unwrap();
        joined(&mut g, &ENTRIES, cuts).unwrap();
        reassembles(&g);
        assert_eq!(storage(&g), storage(&w), "CSR, cuts {cuts:?}");

        let mut want = Mem::<u16, u16, f64, 2>::new(16, 16, 16, 0);
        let mut got = Mem::<u16, u16, f64, 2>::new(16, 16, 16, 0);
        let mut w = out::<f64, Dcsr, 2, 2>([7, 6], &mut want).unwrap();
        let mut g = out::<f64, Dcsr, 2, 2>([7, 6], &mut got).unwrap();
        sequential(&mut w, &ENTRIES).unwrap();
        joined(&mut g, &ENTRIES, cuts).unwrap();
        reassembles(&g);
        assert_eq!(storage(&g), storage(&w), "DCSR, cuts {cuts:?}");
        assert_eq!(g.view().level(0).coordinates(), &[1, 2, 4, 5]);
    }
}

#[test]
fn empty_matrices_join() {
    for dims in [[0, 0], [0, 4], [3, 0], [3, 4]] {
        let mut m = Mem::<u8, u8, f64, 2>::new(8, 8, 8, 0);
        let mut c = out::<f64, Csr, 2, 2>(dims, &mut m).unwrap();
        joined(&mut c, &[], &[0]).unwrap();
        reassembles(&c);
        assert_eq!(c.view().level(1).positions().len(), dims[0] + 1);
        assert_eq!(c.number_of_entries(), 0);
    }
}

/// Too little room, or a position past `posWidth`: the joined output
/// reports the sequential insertions' error (the exact length needed) and
/// is left empty and valid; with room again it is reused.
#[test]
fn errors_are_the_sequential_ones() {
    // Values: room for 5 of 8.
    for (pos, crd, val) in [(16, 16, 5), (16, 3, 16), (4, 16, 16)] {
        let mut want = Mem::<u16, u16, f64, 2>::new(pos, crd, val, 0);
        let mut got = Mem::<u16, u16, f64, 2>::new(pos, crd, val, 0);
        let mut w = out::<f64, Dcsr, 2, 2>([7, 6], &mut want).unwrap();
        let mut g = out::<f64, Dcsr, 2, 2>([7, 6], &mut got).unwrap();
        let e = sequential(&mut w, &ENTRIES).unwrap_err();
        assert!(
            matches!(e, KernelError::Capacity { tensor: "c", .. }),
            "{e:?}"
        );
        assert_eq!(joined(&mut g, &ENTRIES, &[0, 2, 5]), Err(e));
        assert_eq!(g.number_of_entries(), 0);
        reassembles(&g);
        // Fewer entries fit, through the same output.
        joined(&mut g, &ENTRIES[..2], &[0, 2, 5]).unwrap();
        assert_eq!(g.number_of_entries(), 2);
    }
    // 8-bit positions and 300 entries: the chunks (`usize` positions)
    // hold them; the join fails as the sequential insertions do.
    let many: Vec<(usize, usize, f64)> = (0..300).map(|k| (k / 100, k % 100, k as f64)).collect();
    let mut want = Mem::<u8, u8, f64, 2>::new(8, 400, 400, 0);
    let mut got = Mem::<u8, u8, f64, 2>::new(8, 400, 400, 0);
    let mut w = out::<f64, Csr, 2, 2>([3, 100], &mut want).unwrap();
    let mut g = out::<f64, Csr, 2, 2>([3, 100], &mut got).unwrap();
    let e = sequential(&mut w, &many).unwrap_err();
    assert!(
        matches!(
            e,
            KernelError::PositionOverflow {
                level: 1,
                entries: 300,
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(joined(&mut g, &many, &[0, 1, 2]), Err(e));
    assert_eq!(g.number_of_entries(), 0);
}

/// Chunks that do not partition the rows in order (which the parallel
/// runtime never makes) are inserted one by one: the result is still the
/// sequential one, or its order error.
#[test]
fn chunks_out_of_line_are_replayed() {
    let mut want = Mem::<u8, u8, f64, 2>::new(16, 16, 16, 0);
    let mut got = Mem::<u8, u8, f64, 2>::new(16, 16, 16, 0);
    let mut w = out::<f64, Csr, 2, 2>([7, 6], &mut want).unwrap();
    let mut g = out::<f64, Csr, 2, 2>([7, 6], &mut got).unwrap();
    sequential(&mut w, &ENTRIES).unwrap();
    // Rows 0..3 and 3..7, but the second chunk claims to start at row 3
    // while the first stops short at 2: a gap the direct write refuses.
    let mut parts = chunks(&g, &ENTRIES, &[0, 3], 7);
    if let Some(first) = parts.first_mut() {
        let mut short = g.chunk_out(2);
        short.begin();
        short.insert([1, 0], 1.0);
        short.insert([1, 4], -2.5);
        short.finish("output").unwrap();
        first.out = short;
    }
    g.begin();
    g.concat_rows(&parts);
    g.finish("c").unwrap();
    reassembles(&g);
    // Row 2's entry was dropped with the short chunk; the rest is there.
    assert_eq!(g.number_of_entries(), ENTRIES.len() - 1);
    // In the wrong order: the insertion order error.
    parts.reverse();
    g.begin();
    g.concat_rows(&parts);
    assert!(matches!(
        g.finish("c"),
        Err(KernelError::InsertOutOfOrder { tensor: "c", .. })
    ));
    assert_eq!(g.number_of_entries(), 0);
    reassembles(&g);
}
