//! Sparse operands for the kernel tests: an entry list built into buffers
//! by the independent reference builder ([`crate::reference`]), narrowed to
//! the encoding's widths and assembled as the kernel's parameter type.
//!
//! The encoding type comes from the kernel itself: [`with_tensor`] hands the
//! tensor to a closure, so `with_tensor(&CSR, dims, &e, |a| spmv(a, &x, &mut y))`
//! assembles exactly the `CSR<'_, f64>` that `spmv` takes.

use sparse_core::vocab::LevelExpr;
use sparse_core::{Encoding, SparseTensor};

use crate::gen::{Elem, Entries};
use crate::reference::{build, fused, lvl, Kind, RefLevel};

const I: LevelExpr = LevelExpr::Dim(0);
const J: LevelExpr = LevelExpr::Dim(1);
const K: LevelExpr = LevelExpr::Dim(2);
const UNIQUE: Kind = Kind::Compressed { unique: true };
const NONUNIQUE: Kind = Kind::Compressed { unique: false };

/// `(i) -> (i : compressed)`.
pub const SV: [RefLevel; 1] = [lvl(UNIQUE, I)];
/// `(i) -> (i : dense)`: a sparse-typed vector that stores everything.
pub const DV: [RefLevel; 1] = [lvl(Kind::Dense, I)];
/// `(i, j) -> (i : dense, j : compressed)`.
pub const CSR: [RefLevel; 2] = [lvl(Kind::Dense, I), lvl(UNIQUE, J)];
/// `(i, j) -> (j : dense, i : compressed)`.
pub const CSC: [RefLevel; 2] = [lvl(Kind::Dense, J), lvl(UNIQUE, I)];
/// `(i, j) -> (i : compressed, j : compressed)`.
pub const DCSR: [RefLevel; 2] = [lvl(UNIQUE, I), lvl(UNIQUE, J)];
/// `(i, j) -> (j : compressed, i : compressed)`.
pub const DCSC: [RefLevel; 2] = [lvl(UNIQUE, J), lvl(UNIQUE, I)];
/// `(i, j) -> (i : compressed(nonunique), j : singleton)`, AoS. The same
/// buffers serve `singleton(nonunique)`, whose entries may repeat.
pub const COO: [RefLevel; 2] = [lvl(NONUNIQUE, I), fused(J)];
/// `(i, j) -> (i : compressed(nonunique), j : singleton(soa))`.
pub const COO_SOA: [RefLevel; 2] = [lvl(NONUNIQUE, I), lvl(Kind::Singleton, J)];
/// `(i, j) -> (i : dense, j : loose_compressed)`: segments stored in
/// reverse row order with a free slot (holding [`Elem::GARBAGE`]) before
/// each.
pub const LOOSE: [RefLevel; 2] = [lvl(Kind::Dense, I), lvl(Kind::Loose, J)];
/// `(i, j, k) -> (i : compressed, j : compressed, k : compressed)`.
pub const CSF: [RefLevel; 3] = [lvl(UNIQUE, I), lvl(UNIQUE, J), lvl(UNIQUE, K)];
/// `(i, j, k) -> (i : dense, j : compressed, k : compressed)`.
pub const DCC: [RefLevel; 3] = [lvl(Kind::Dense, I), lvl(UNIQUE, J), lvl(UNIQUE, K)];

/// Builds `entries` for `layout`, assembles them as the tensor type `f`
/// takes, and returns what `f` returns.
///
/// # Panics
///
/// If the layout has not `L` levels, a buffer value does not fit the
/// encoding's widths, or `assemble` refuses the reference buffers: all
/// mistakes of the test, not of the kernel under test.
pub fn with_tensor<V, E, const D: usize, const L: usize, R>(
    layout: &[RefLevel],
    dims: [usize; D],
    entries: &Entries<V>,
    f: impl FnOnce(&SparseTensor<'_, V, E, D, L>) -> R,
) -> R
where
    V: Elem,
    E: Encoding,
{
    assert_eq!(layout.len(), L, "the layout has one entry per level");
    let built = build(layout, &dims, entries, V::ZERO, V::GARBAGE);
    let typed = built.typed::<E::Pos, E::Crd>();
    let tensor = SparseTensor::<V, E, D, L>::assemble(dims, typed.levels::<L>(), &typed.values)
        .unwrap_or_else(|e| panic!("assemble refused the reference buffers {built:?}: {e}"));
    f(&tensor)
}
