//! Reshapes that move coordinates: MLIR's `tensor.reshape`,
//! `collapse_shape` and `expand_shape` of a sparse tensor into a new
//! tensor, as a conversion (MLIR lowers them the same way: every stored
//! entry relabelled and inserted into a fresh tensor).
//!
//! All three relabel the row-major order of the elements: entry `d` of
//! the source is element `lin(d) = (..(d0 * n1 + d1) * n2 + ..)`, which is
//! coordinate `lin⁻¹` of the result's sizes. Row-major order is kept, so
//! a source stored in dimension order (its levels the plain dimensions in
//! order, all ordered) streams into a target stored in dimension order
//! (or splitting dimensions in order, as a row-major n:m map does):
//! `O(nse)`. Otherwise the conversion stages (see the
//! [module docs](super)). Use the zero-copy views
//! ([`SparseTensor::collapse_shape`], [`SparseTensor::expand_shape`])
//! where the storage allows them.

use core::ops::Add;

use crate::encoding::Encoding;
use crate::layout::Layout;
use crate::output::{OutputBuffers, SparseTensorOut};
use crate::reshape::{check_expand, group_sizes, ReshapeError};
use crate::tensor::SparseTensor;
use crate::vocab::LevelExpr;

use super::source::{tensor_may_repeat, Source};
use super::{engine, Merge};

/// A sparse tensor relabelled into the row-major shape `dims`.
struct Reshaped<'s, 't, V, S: Encoding, const DS: usize, const LS: usize, const D: usize> {
    src: &'s SparseTensor<'t, V, S, DS, LS>,
    dims: [usize; D],
}

impl<V, S: Encoding, const DS: usize, const LS: usize, const D: usize>
    Reshaped<'_, '_, V, S, DS, LS, D>
{
    /// The result coordinates of source coordinates `d` (below the sizes,
    /// whose product the result's equals, so nothing overflows).
    fn map(&self, d: &[usize; DS]) -> [usize; D] {
        let sizes = self.src.dim_sizes();
        let mut lin = 0usize;
        for (&c, &n) in d.iter().zip(&sizes) {
            lin = lin.wrapping_mul(n).wrapping_add(c);
        }
        let mut out = [0usize; D];
        for (c, &n) in out.iter_mut().zip(&self.dims).rev() {
            *c = lin.checked_rem(n).unwrap_or(0);
            lin = lin.checked_div(n).unwrap_or(0);
        }
        out
    }
}

impl<V, S: Encoding, const DS: usize, const LS: usize, const D: usize> Source<V, D>
    for Reshaped<'_, '_, V, S, DS, LS, D>
{
    fn dims(&self) -> [usize; D] {
        self.dims
    }
    /// Row-major order in, row-major order out.
    fn streams<E: Encoding, const LVL: usize>(&self) -> bool {
        let source_in_order = LS == DS
            && (0..LS).all(|l| {
                S::level_expr(l) == LevelExpr::Dim(l as u8)
                    && S::level_type(l).is_some_and(|t| t.is_ordered())
            });
        let exprs: [LevelExpr; LVL] = core::array::from_fn(E::level_expr);
        source_in_order && crate::vocab::splits_dims_in_order(&exprs, D)
    }
    fn each_lvl<const LVL: usize>(
        &self,
        layout: &Layout<D, LVL>,
        f: &mut dyn FnMut([usize; LVL], &V),
    ) {
        self.src
            .for_each(|d, v| f(layout.dim_to_lvl(&self.map(&d)), v));
    }
    fn each(&self, f: &mut dyn FnMut([usize; D], &V)) {
        self.src.for_each(|d, v| f(self.map(&d), v));
    }
    fn may_repeat(&self) -> bool {
        tensor_may_repeat::<S, LS>()
    }
}

/// The number of elements of `dims`.
fn elements(dims: &[usize]) -> Result<usize, ReshapeError> {
    dims.iter()
        .try_fold(1usize, |n, &d| n.checked_mul(d))
        .ok_or(ReshapeError::TooLarge)
}

fn run<V, S, E, B, const DS: usize, const LS: usize, const D: usize, const LVL: usize>(
    src: &SparseTensor<'_, V, S, DS, LS>,
    out: &mut SparseTensorOut<V, E, B, D, LVL>,
    merge: Merge<V>,
) -> Result<(), ReshapeError>
where
    V: Clone + Default,
    S: Encoding,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    let dims = out.dim_sizes();
    let (have, want) = match (elements(&src.dim_sizes()), elements(&dims)) {
        (Ok(a), Ok(b)) => (a, b),
        _ => {
            out.clear();
            return Err(ReshapeError::TooLarge);
        }
    };
    if have != want {
        out.clear();
        return Err(ReshapeError::Size {
            dim: 0,
            size: want,
            expected: have,
        });
    }
    let source = Reshaped { src, dims };
    engine::run(&source, out, merge).map_err(ReshapeError::Convert)
}

/// MLIR's `tensor.reshape` of a sparse tensor: `src`'s elements, in
/// row-major order, laid out in `out`'s dimension sizes (the same number
/// of elements, else [`ReshapeError::Size`] with the two counts), in
/// `out`'s encoding. Every stored entry is kept (explicit zeros
/// included); an entry stored twice is [`ConvertError::Duplicate`]
/// (wrapped in [`ReshapeError::Convert`], as every conversion error)
/// unless the target keeps repeats ([`reshape_sum`] adds them). On error
/// `out` is left empty.
///
/// [`ConvertError::Duplicate`]: super::ConvertError::Duplicate
///
/// ```
/// use sparse_core::convert::reshape;
/// use sparse_core::levels::{compressed, d0, d1};
/// use sparse_core::{Enc, Level, Slices, SparseTensor, SparseTensorOut};
///
/// type Dcsr = Enc<usize, usize, (compressed, compressed), (d0, d1)>;
/// // MLIR's sparse_reshape test: 3x4 into 2x6.
/// let (pos0, crd0, pos1, crd1) = ([0, 3], [0, 1, 2], [0, 2, 4, 6], [0, 2, 0, 2, 0, 2]);
/// let m = SparseTensor::<f64, Dcsr, 2, 2>::assemble(
///     [3, 4],
///     [Level::compressed(&pos0, &crd0), Level::compressed(&pos1, &crd1)],
///     &[1.1, 1.3, 2.1, 2.3, 3.1, 3.3],
/// )?;
/// let (mut pos0, mut crd0, mut pos1, mut crd1) = ([0usize; 2], [0usize; 2], [0usize; 3], [0usize; 6]);
/// let mut val = [0.0f64; 6];
/// let mut r = SparseTensorOut::<f64, Dcsr, Slices<'_>, 2, 2>::builder([2, 6])
///     .positions(0, &mut pos0)
///     .coordinates(0, &mut crd0)
///     .positions(1, &mut pos1)
///     .coordinates(1, &mut crd1)
///     .values(&mut val)
///     .build()?;
/// reshape(&m, &mut r)?;
/// assert_eq!(r.view().level(1).positions(), &[0, 3, 6]);
/// assert_eq!(r.view().level(1).coordinates(), &[0, 2, 4, 0, 2, 4]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn reshape<V, S, E, B, const DS: usize, const LS: usize, const D: usize, const LVL: usize>(
    src: &SparseTensor<'_, V, S, DS, LS>,
    out: &mut SparseTensorOut<V, E, B, D, LVL>,
) -> Result<(), ReshapeError>
where
    V: Clone + Default,
    S: Encoding,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    run(src, out, Merge::Refuse)
}

/// [`reshape`], with entries stored twice summed.
pub fn reshape_sum<V, S, E, B, const DS: usize, const LS: usize, const D: usize, const LVL: usize>(
    src: &SparseTensor<'_, V, S, DS, LS>,
    out: &mut SparseTensorOut<V, E, B, D, LVL>,
) -> Result<(), ReshapeError>
where
    V: Clone + Default + Add<Output = V> + 'static,
    S: Encoding,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    run(src, out, Merge::sum())
}

/// MLIR's `tensor.collapse_shape` of a sparse tensor as a conversion:
/// result dimension `g` is the row-major combination of source dimensions
/// `groups[g]`; `out`'s sizes must be the groups' products
/// ([`ReshapeError::Size`]). Then [`reshape`]. Where the storage allows
/// it, [`SparseTensor::collapse_shape`] gives the same tensor as a view.
pub fn collapse_shape<
    V,
    S,
    E,
    B,
    const DS: usize,
    const LS: usize,
    const D: usize,
    const LVL: usize,
>(
    src: &SparseTensor<'_, V, S, DS, LS>,
    groups: &[&[usize]; D],
    out: &mut SparseTensorOut<V, E, B, D, LVL>,
) -> Result<(), ReshapeError>
where
    V: Clone + Default,
    S: Encoding,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    let checked = group_sizes(groups, &src.dim_sizes()).and_then(|sizes| {
        let have = out.dim_sizes();
        match (0..D).find(|&g| sizes.get(g) != have.get(g)) {
            Some(dim) => Err(ReshapeError::Size {
                dim,
                size: have.get(dim).copied().unwrap_or(0),
                expected: sizes.get(dim).copied().unwrap_or(0),
            }),
            None => Ok(()),
        }
    });
    if let Err(e) = checked {
        out.clear();
        return Err(e);
    }
    run(src, out, Merge::Refuse)
}

/// MLIR's `tensor.expand_shape` of a sparse tensor as a conversion: source
/// dimension `d` splits row-major into result dimensions `groups[d]`,
/// whose sizes (`out`'s) must multiply to its size
/// ([`ReshapeError::Size`]). Then [`reshape`]. Where the storage allows
/// it, [`SparseTensor::expand_shape`] gives the same tensor as a view.
pub fn expand_shape<
    V,
    S,
    E,
    B,
    const DS: usize,
    const LS: usize,
    const D: usize,
    const LVL: usize,
>(
    src: &SparseTensor<'_, V, S, DS, LS>,
    groups: &[&[usize]; DS],
    out: &mut SparseTensorOut<V, E, B, D, LVL>,
) -> Result<(), ReshapeError>
where
    V: Clone + Default,
    S: Encoding,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    if let Err(e) = check_expand(groups, &src.dim_sizes(), &out.dim_sizes()) {
        out.clear();
        return Err(e);
    }
    run(src, out, Merge::Refuse)
}
