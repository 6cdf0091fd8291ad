//! `assemble` rejects hand-written encodings that name no valid encoding
//! (`InvalidEncoding`), naming the offending level. The level markers
//! only spell real level formats, so what is left to check is how they
//! combine: parents, maps, block pairs, sizes, rank.

use sparse_core::levels::{d0, d1, d5, dense, floordiv, modulo, singleton, soa, structured};
use sparse_core::vocab::{LevelFormat, LevelType};
use sparse_core::{AssembleError, Enc, Encoding, Level, SparseTensor};

use AssembleError::InvalidEncoding;

fn invalid<E: Encoding<Pos = usize, Crd = usize>>() -> Result<(), AssembleError> {
    SparseTensor::<f32, E, 2, 2>::assemble([2, 2], [Level::dense(), Level::dense()], &[0.0; 4])
        .map(|_| ())
}

#[test]
fn invalid_encoding_singleton_without_parent() {
    type E = Enc<usize, usize, (singleton, dense), (d0, d1)>;
    assert_eq!(invalid::<E>(), Err(InvalidEncoding { level: 0 }));
}

#[test]
fn invalid_encoding_singleton_below_dense() {
    type E = Enc<usize, usize, (dense, singleton<soa>), (d0, d1)>;
    assert_eq!(invalid::<E>(), Err(InvalidEncoding { level: 1 }));
}

#[test]
fn invalid_encoding_map_not_invertible() {
    // (i, j) -> (i, i): j is lost.
    type E = Enc<usize, usize, (dense, dense), (d0, d0)>;
    assert_eq!(invalid::<E>(), Err(InvalidEncoding { level: 1 }));
}

#[test]
fn invalid_encoding_block_pair_with_different_sizes() {
    type E = Enc<usize, usize, (dense, dense, dense), (d0, floordiv<d1, 2>, modulo<d1, 3>)>;
    let r = SparseTensor::<f32, E, 2, 3>::assemble([2, 6], [Level::dense(); 3], &[0.0; 36]);
    assert_eq!(r.err(), Some(InvalidEncoding { level: 1 }));
}

#[test]
fn invalid_encoding_zero_divisor() {
    type E = Enc<usize, usize, (dense, dense), (floordiv<d0, 0>, modulo<d0, 0>)>;
    let r = SparseTensor::<f32, E, 1, 2>::assemble([4], [Level::dense(); 2], &[]);
    assert_eq!(r.err(), Some(InvalidEncoding { level: 0 }));
}

#[test]
fn invalid_encoding_more_levels_than_the_tensor_type() {
    // Three levels in the encoding, two in the tensor type.
    type E = Enc<usize, usize, (dense, dense, dense), (d0, d1, d1)>;
    assert_eq!(E::LEVELS, 3);
    assert_eq!(invalid::<E>(), Err(InvalidEncoding { level: 2 }));
    // One level in the encoding, two in the tensor type.
    type F = Enc<usize, usize, (dense,), (d0,)>;
    assert_eq!(invalid::<F>(), Err(InvalidEncoding { level: 1 }));
}

#[test]
fn invalid_encoding_dimension_out_of_rank() {
    type E = Enc<usize, usize, (dense, dense), (d0, d5)>;
    assert_eq!(invalid::<E>(), Err(InvalidEncoding { level: 1 }));
}

#[test]
fn invalid_encoding_structured_needs_mod_m() {
    let nv24 = LevelType::new(LevelFormat::Structured { n: 2, m: 4 });
    type E = Enc<usize, usize, (dense, structured<2, 4>), (d0, d1)>;
    assert_eq!(E::level_type(1), Some(nv24));
    assert_eq!(invalid::<E>(), Err(InvalidEncoding { level: 1 }));
}

#[test]
fn invalid_encoding_structured_n_above_m() {
    type E = Enc<usize, usize, (dense, structured<5, 4>), (d0, modulo<d1, 4>)>;
    assert_eq!(invalid::<E>(), Err(InvalidEncoding { level: 1 }));
}

#[test]
fn invalid_encoding_rank_above_max() {
    type E = Enc<usize, usize, (), ()>;
    let r = SparseTensor::<f32, E, 9, 1>::assemble([1; 9], [Level::dense()], &[0.0]);
    assert_eq!(r.err(), Some(InvalidEncoding { level: 8 }));
}
