//! File readers on arbitrary bytes: the run-time Matrix Market and FROSTT
//! readers (`sparse_core::io`) and the compile-time `.mtx` and `.npy`
//! readers of `file(..)` constants. The first byte picks the reader and
//! the element type; the rest is the file.
//!
//! Checks: no panic, hang or abort; memory in proportion to the file
//! (the targets are DCSR and COO, which store nothing per declared row,
//! so a header claiming 10^18 rows must cost nothing: libFuzzer's
//! `-rss_limit_mb`/`-malloc_limit_mb` catch any allocation that follows
//! a claim); an accepted tensor's coordinates lie below its sizes and it
//! holds no more entries than the file has lines (twice, for mirrors).
#![no_main]

use libfuzzer_sys::fuzz_target;
use sparse_compiler::model::{read_constant_file, ElemType};
use sparse_core::io::{read_frostt, read_matrix_market};
use sparse_core::levels::{compressed, d0, d1, d2, nonunique, singleton};
use sparse_core::{Enc, Encoding, SparseTensorOut};

type Dcsr = Enc<usize, usize, (compressed, compressed), (d0, d1)>;
type Coo3 = Enc<
    usize,
    usize,
    (
        compressed<nonunique>,
        singleton<nonunique>,
        singleton<nonunique>,
    ),
    (d0, d1, d2),
>;

fn check<V, E: Encoding, const D: usize, const L: usize>(
    t: &SparseTensorOut<V, E, sparse_core::Owned, D, L>,
    lines: usize,
) where
    V: Clone + Default,
{
    let dims = t.dim_sizes();
    let mut n = 0usize;
    t.view().for_each(|c, _| {
        assert!(
            c.iter().zip(&dims).all(|(c, d)| c < d),
            "{c:?} outside {dims:?}"
        );
        n += 1;
    });
    assert!(n <= 2 * lines + 2, "{n} entries from {lines} lines");
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, file)) = data.split_first() else {
        return;
    };
    let lines = file.iter().filter(|&&b| b == b'\n').count() + 1;
    match pick % 8 {
        0 => {
            if let Ok(t) = read_matrix_market::<f64, Dcsr, _, 2>(file) {
                check(&t, lines);
            }
        }
        1 => {
            if let Ok(t) = read_matrix_market::<i8, Dcsr, _, 2>(file) {
                check(&t, lines);
            }
        }
        2 => {
            if let Ok(t) = read_matrix_market::<u64, Dcsr, _, 2>(file) {
                check(&t, lines);
            }
        }
        3 => {
            if let Ok(t) = read_frostt::<i32, Coo3, _, 3, 3>(file) {
                check(&t, lines);
            }
        }
        4 => {
            if let Ok(t) = read_frostt::<f32, Dcsr, _, 2, 2>(file) {
                check(&t, lines);
            }
        }
        5 => {
            let _ = read_constant_file(file, false, ElemType::F32);
        }
        6 => {
            let _ = read_constant_file(file, false, ElemType::I8);
        }
        _ => {
            let elem = [ElemType::F32, ElemType::F64, ElemType::I16, ElemType::Bool]
                [usize::from(pick / 8) % 4];
            let _ = read_constant_file(file, true, elem);
        }
    }
});
