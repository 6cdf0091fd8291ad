//! `assemble` on random garbage: it never panics, whatever it accepts can be
//! walked, printed and disassembled without panicking, and for CSR and COO
//! it accepts exactly what an independent, naive validity check accepts.

use proptest::collection::vec;
use proptest::prelude::*;
use sparse_core::levels::{
    batch, compressed, counting, d0, d1, d2, d5, dense, floordiv, high, loose_compressed, modulo,
    nonordered, nonunique, singleton, soa, structured,
};
use sparse_core::vocab::LevelFormat;
use sparse_core::{Enc, Encoding, Level, SparseTensor};
use sparse_tests::reference::*;

fn small() -> impl Strategy<Value = Vec<u8>> {
    vec(0u8..10, 0..14)
}

fn dim() -> impl Strategy<Value = usize> {
    prop_oneof![8 => 0usize..7, 1 => Just(usize::MAX), 1 => Just(1usize << 40)]
}

/// Assembles, and if that works uses every read path of the tensor.
fn exercise<E, const DIM: usize, const LVL: usize>(
    dims: [usize; DIM],
    bufs: &[(Vec<u8>, Vec<u8>)],
    values: &[u8],
) -> bool
where
    E: Encoding<Pos = u8, Crd = u8>,
{
    let levels: [Level<'_, u8, u8>; LVL] =
        std::array::from_fn(|l| Level::compressed(&bufs[l].0, &bufs[l].1));
    let Ok(t) = SparseTensor::<u8, E, DIM, LVL>::assemble(dims, levels, values) else {
        return false;
    };
    let mut n = 0;
    t.for_each_lvl(|_, _| n += 1);
    // Loose segments may overlap (`assemble` allows it), and an entry in
    // two segments is walked twice.
    let loose = (0..LVL).any(|l| t.level_type(l).format == LevelFormat::LooseCompressed);
    assert!(loose || n <= values.len());
    t.for_each(|d, _| assert!(d.iter().zip(&dims).all(|(c, s)| c < s)));
    let _ = (t.to_string(), format!("{t:#}"));
    let (d2, l2, v2) = t.disassemble();
    assert_eq!((d2, v2), (dims, values));
    let again = SparseTensor::<u8, E, DIM, LVL>::assemble(d2, l2, v2);
    assert!(again.is_ok(), "disassemble must round-trip");
    true
}

/// Naive CSR validity, written from the definition.
fn csr_valid(rows: usize, cols: usize, pos: &[u8], crd: &[u8], values: usize) -> bool {
    let pos: Vec<usize> = pos.iter().map(|&p| p as usize).collect();
    pos.len() == rows + 1
        && pos[0] == 0
        && pos.windows(2).all(|w| w[0] <= w[1])
        && pos[rows] == crd.len()
        && crd.iter().all(|&c| (c as usize) < cols)
        && (0..rows).all(|r| crd[pos[r]..pos[r + 1]].windows(2).all(|w| w[0] < w[1]))
        && values == crd.len()
}

/// Naive sorted-COO validity: tuples strictly increasing.
fn coo_valid(rows: usize, cols: usize, pos: &[u8], tuples: &[u8], values: usize) -> bool {
    let n = tuples.len() / 2;
    let pairs: Vec<(u8, u8)> = tuples
        .chunks(2)
        .filter(|c| c.len() == 2)
        .map(|c| (c[0], c[1]))
        .collect();
    pos.len() == 2
        && pos[0] == 0
        && pos[1] as usize == n
        && tuples.len() == 2 * n
        && pairs
            .iter()
            .all(|&(i, j)| (i as usize) < rows && (j as usize) < cols)
        && pairs.windows(2).all(|w| w[0] < w[1])
        && values == n
}

type CsrNo = Enc<u8, u8, (dense, compressed<nonordered>), (d0, d1)>;
type Nv24 = Enc<u8, u8, (dense, dense, structured<2, 4>), (d0, floordiv<d1, 4>, modulo<d1, 4>)>;
type Coo3 =
    Enc<u8, u8, (compressed<nonunique>, singleton<nonunique>, singleton<soa>), (d0, d1, d2)>;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn csr_accepts_exactly_the_valid(rows in 0usize..5, cols in 0usize..7, pos in small(), crd in small(), nv in 0usize..8) {
        let values = vec![1u8; nv];
        let ok = exercise::<Csr<u8, u8>, 2, 2>([rows, cols], &[(vec![], vec![]), (pos.clone(), crd.clone())], &values);
        prop_assert_eq!(ok, csr_valid(rows, cols, &pos, &crd, nv));
    }

    #[test]
    fn csr_from_nearly_valid_input(rows in 1usize..5, cols in 1usize..7, mut crd in vec(0u8..7, 0..10), cut in vec(0usize..10, 0..5), flip in 0usize..20) {
        // Start from sorted rows and sometimes break one thing.
        crd.sort_unstable();
        crd.dedup();
        let mut pos = vec![0u8; rows + 1];
        let mut cuts: Vec<usize> = cut.into_iter().map(|c| c.min(crd.len())).collect();
        cuts.resize(rows - 1, crd.len());
        cuts.sort_unstable();
        for (r, c) in cuts.iter().enumerate() {
            pos[r + 1] = *c as u8;
        }
        pos[rows] = crd.len() as u8;
        if flip < crd.len() {
            crd[flip] = crd[flip].wrapping_add(3);
        }
        let nv = crd.len();
        let ok = exercise::<Csr<u8, u8>, 2, 2>([rows, cols], &[(vec![], vec![]), (pos.clone(), crd.clone())], &vec![0; nv]);
        prop_assert_eq!(ok, csr_valid(rows, cols, &pos, &crd, nv));
    }

    #[test]
    fn coo_accepts_exactly_the_valid(rows in 0usize..5, cols in 0usize..7, n in 0u8..5, tuples in small(), nv in 0usize..6) {
        let pos = vec![0, n];
        let values = vec![1u8; nv];
        let ok = exercise::<Coo<u8, u8>, 2, 2>([rows, cols], &[(pos.clone(), tuples.clone()), (vec![], vec![])], &values);
        prop_assert_eq!(ok, coo_valid(rows, cols, &pos, &tuples, nv));
    }

    #[test]
    fn coo_from_nearly_valid_input(rows in 1usize..5, cols in 1usize..5, mut pairs in vec((0u8..5, 0u8..5), 0..8), swap in 0usize..10, nv_off in prop_oneof![6 => Just(0isize), 1 => -1isize..2]) {
        // Sorted distinct tuples, then maybe two swapped or a length off.
        pairs.sort_unstable();
        pairs.dedup();
        if swap + 1 < pairs.len() {
            pairs.swap(swap, swap + 1);
        }
        let tuples: Vec<u8> = pairs.iter().flat_map(|&(i, j)| [i, j]).collect();
        let pos = vec![0, pairs.len() as u8];
        let nv = (pairs.len() as isize + nv_off).max(0) as usize;
        let ok = exercise::<Coo<u8, u8>, 2, 2>([rows, cols], &[(pos.clone(), tuples.clone()), (vec![], vec![])], &vec![0; nv]);
        prop_assert_eq!(ok, coo_valid(rows, cols, &pos, &tuples, nv));
    }

    #[test]
    fn never_panics_on_garbage(
        d in [dim(), dim(), dim()],
        b in vec((small(), small()), 4),
        values in vec(0u8..4, 0..40),
    ) {
        let _ = exercise::<Csr<u8, u8>, 2, 2>([d[0], d[1]], &b, &values);
        let _ = exercise::<CsrNo, 2, 2>([d[0], d[1]], &b, &values);
        let _ = exercise::<Dcsr<u8, u8>, 2, 2>([d[0], d[1]], &b, &values);
        let _ = exercise::<Coo<u8, u8>, 2, 2>([d[0], d[1]], &b, &values);
        let _ = exercise::<CooSoa<u8, u8>, 2, 2>([d[0], d[1]], &b, &values);
        let _ = exercise::<Loose<u8, u8>, 2, 2>([d[0], d[1]], &b, &values);
        let _ = exercise::<Bsr22<u8, u8>, 2, 4>([d[0], d[1]], &b, &values);
        let _ = exercise::<Nv24, 2, 3>([d[0], d[1]], &b, &values);
        let _ = exercise::<Csf<u8, u8>, 3, 3>(d, &b, &values);
        let _ = exercise::<Coo3, 3, 3>(d, &b, &values);
    }

    #[test]
    fn never_panics_on_forged_encodings(
        which in 0usize..8,
        d in [dim(), dim()],
        b in vec((small(), small()), 4),
        values in vec(0u8..4, 0..40),
    ) {
        let _ = assemble_forged(which, d, &b, &values);
    }
}

/// Hand-forged encodings: singletons without parents, maps out of rank,
/// zero divisors, structured levels without `mod m`, counting levels that
/// are not dense, level counts that differ from the tensor type's, the
/// largest constants. (The level markers spell only real level formats;
/// garbage format codes are no longer expressible.) Types must be written
/// out, so `which` picks one.
fn assemble_forged(which: usize, d: [usize; 2], b: &[(Vec<u8>, Vec<u8>)], values: &[u8]) -> bool {
    macro_rules! forged {
        ($($t:ty, $m:ty);* $(;)?) => {{
            let mut any = false;
            let mut i = 0usize;
            $(
                if which == i {
                    any |= exercise::<Enc<u8, u8, $t, $m>, 2, 3>(d, b, values);
                }
                i += 1;
            )*
            let _ = i;
            any
        }};
    }
    forged!(
        (singleton, singleton, singleton), (d0, d1, d0);
        (compressed, singleton<soa>, dense), (d0, d5, d1);
        (dense, dense, dense), (floordiv<d0, 0>, modulo<d0, 0>, d1);
        (dense, structured<2, 4>, compressed), (d0, d1, modulo<d1, 4>);
        (loose_compressed, loose_compressed, loose_compressed), (d0, d1, d1);
        (compressed, compressed<nonunique>, singleton<(nonunique, soa)>), (d1, d0, counting<d0, 3>);
        (dense, dense), (d0, d1);
        (structured<15, 31>, batch, compressed<(nonordered, high)>), (floordiv<d1, 2047>, modulo<d1, 2047>, d0);
    )
}

/// The `runtime_assemble` fuzz target's corpus and regressions, replayed
/// through the same harness (`sparse_tests::fuzz_harness::run`): every
/// input must pass its checks. Natively it replays all of them; under Miri
/// (see `scripts/test-all.sh`) the fixed sample listed in
/// `fuzz/miri-sample.txt`, looking for undefined behaviour in the unchecked
/// accessors generated kernels use on what `assemble` accepted. (Listing
/// the corpus directory alone takes minutes under Miri, hence the list.)
#[test]
fn fuzz_corpus_replays() {
    use sparse_tests::fuzz_harness::{run, Outcome};

    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
    let manifest = std::fs::read_to_string(root.join("miri-sample.txt"))
        .expect("fuzz/miri-sample.txt lists the Miri sample");
    let sample: Vec<&str> = manifest
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let files: Vec<std::path::PathBuf> = if cfg!(miri) {
        sample.iter().map(|name| root.join(name)).collect()
    } else {
        let mut files = Vec::new();
        for dir in ["corpus/runtime_assemble", "regressions/runtime_assemble"] {
            let entries = std::fs::read_dir(root.join(dir)).expect("the corpus is committed");
            files.extend(entries.map(|e| e.expect("a readable entry").path()));
        }
        files.retain(|p| p.is_file() && !p.ends_with(".keep"));
        files.sort();
        // The sample must name files that exist: re-minimising the corpus
        // renames them (see fuzz/README.md to regenerate the list).
        for name in &sample {
            assert!(
                root.join(name).is_file(),
                "fuzz/miri-sample.txt names {name}, which is gone: run fuzz/seed-corpus.sh"
            );
        }
        files
    };
    assert!(
        files.len() >= 16,
        "the committed runtime corpus is missing ({} files)",
        files.len()
    );
    let outcomes: Vec<Outcome> = files
        .iter()
        .map(|path| run(&std::fs::read(path).expect("a corpus file is readable")))
        .collect();
    // The corpus still reaches the kernels in every encoding that has
    // them: a harness change that made every input invalid would
    // otherwise pass silently.
    if !cfg!(miri) {
        for enc in 0..14 {
            assert!(
                outcomes.iter().any(|o| o.encoding == enc && o.kernels),
                "no corpus input reaches the kernels of encoding {enc}: re-minimise the corpus"
            );
        }
    }
}
