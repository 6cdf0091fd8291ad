//! What a conversion reads: a sparse tensor, several of them side by side
//! (concatenation), or a dense row-major array.

use crate::encoding::Encoding;
use crate::index::Index;
use crate::layout::Layout;
use crate::output::{OutputBuffers, SparseTensorOut};
use crate::tensor::SparseTensor;
use crate::vocab::LevelExpr;

use super::{fast, ConvertError, Merge};

/// A source of entries for a conversion.
pub(crate) trait Source<V, const DIM: usize> {
    /// The dimension sizes.
    fn dims(&self) -> [usize; DIM];
    /// Whether [`each_lvl`](Self::each_lvl) can walk the entries in the
    /// lexicographic order of `E`'s level coordinates.
    fn streams<E: Encoding, const LVL: usize>(&self) -> bool;
    /// The entries in `layout`'s level order, as level coordinates (only
    /// called when [`streams`](Self::streams) said so).
    fn each_lvl<const LVL: usize>(
        &self,
        layout: &Layout<DIM, LVL>,
        f: &mut dyn FnMut([usize; LVL], &V),
    );
    /// Every entry as dimension coordinates, in the same order every call.
    fn each(&self, f: &mut dyn FnMut([usize; DIM], &V));
    /// Every entry as `layout`'s level coordinates, in the order of
    /// [`each`](Self::each).
    fn each_mapped<const LVL: usize>(
        &self,
        layout: &Layout<DIM, LVL>,
        f: &mut dyn FnMut([usize; LVL], &V),
    ) {
        self.each(&mut |d, v| f(layout.dim_to_lvl(&d), v));
    }
    /// Whether a coordinate may be stored more than once.
    fn may_repeat(&self) -> bool;
    /// A specialised conversion into `out` (`fast.rs`), if one applies to
    /// this source, that target and `out`'s room; `None` (and `out`
    /// untouched) otherwise. Called once the sizes are checked.
    fn fast<E, B, const LVL: usize>(
        &self,
        _out: &mut SparseTensorOut<V, E, B, DIM, LVL>,
        _merge: Merge<V>,
    ) -> Option<Result<(), ConvertError>>
    where
        V: Clone + Default,
        E: Encoding,
        B: OutputBuffers<E::Pos, E::Crd, V>,
    {
        None
    }
}

/// A sparse tensor whose levels are all ordered, under the map `E` also
/// has, walks in `E`'s order.
pub(super) fn tensor_streams<S: Encoding, E: Encoding, const LS: usize, const LVL: usize>() -> bool
{
    LS == LVL
        && S::MAP == E::MAP
        && (0..LS).all(|l| S::level_type(l).is_some_and(|t| t.is_ordered()))
}

/// A sparse tensor stored in dimension order (its map the identity, every
/// level ordered), walked by `for_each` in the lexicographic order of its
/// dimension coordinates, also walks in the order of a target `E` whose
/// levels split the dimensions in order: each dimension, in turn, as
/// itself, or as `d floordiv b` followed by `d mod b` before the next
/// dimension (the row-major n:m map `(i, j floordiv 4, j mod 4)`, `(i floordiv 2,
/// i mod 2, j)`); then lexicographic order of `(i, j)` is that of the
/// target's level coordinates.
pub(super) fn splits_in_order<
    S: Encoding,
    E: Encoding,
    const DIM: usize,
    const LS: usize,
    const LVL: usize,
>() -> bool {
    let identity = LS == DIM
        && (0..LS).all(|l| {
            S::level_expr(l) == LevelExpr::Dim(l as u8)
                && S::level_type(l).is_some_and(|t| t.is_ordered())
        });
    if !identity {
        return false;
    }
    let exprs: [LevelExpr; LVL] = core::array::from_fn(E::level_expr);
    crate::vocab::splits_dims_in_order(&exprs, DIM)
}

/// Whether a walk of an `S` tensor may meet a coordinate twice: a
/// non-unique level, or a loose one (whose segments may overlap).
pub(crate) fn tensor_may_repeat<S: Encoding, const LS: usize>() -> bool {
    (0..LS).any(|l| {
        S::level_type(l).is_some_and(|t| {
            !t.is_unique() || t.format == crate::vocab::LevelFormat::LooseCompressed
        })
    })
}

/// The level coordinates `src` walks, in the target's rank (equal under
/// [`tensor_streams`]), shifted by `shift` on level 0; entries in the
/// padding of a block map (outside `dims`) are skipped, as `for_each` does.
fn walk_lvl<V, S: Encoding, const DIM: usize, const LS: usize, const LVL: usize>(
    src: &SparseTensor<'_, V, S, DIM, LS>,
    layout: &Layout<DIM, LVL>,
    shift: usize,
    dims: &[usize; DIM],
    f: &mut dyn FnMut([usize; LVL], &V),
) {
    src.for_each_lvl(|lvl, v| {
        let mut t: [usize; LVL] = core::array::from_fn(|i| lvl.get(i).copied().unwrap_or(0));
        if let Some(c) = t.first_mut() {
            *c = c.saturating_add(shift);
        }
        let d = layout.lvl_to_dim(&t);
        if d.iter().zip(dims).all(|(c, n)| c < n) {
            f(t, v);
        }
    });
}

/// One sparse tensor.
pub(crate) struct TensorSource<'s, 't, V, S: Encoding, const DIM: usize, const LS: usize>(
    pub(crate) &'s SparseTensor<'t, V, S, DIM, LS>,
);

impl<V, S: Encoding, const DIM: usize, const LS: usize> Source<V, DIM>
    for TensorSource<'_, '_, V, S, DIM, LS>
{
    fn dims(&self) -> [usize; DIM] {
        self.0.dim_sizes()
    }
    fn streams<E: Encoding, const LVL: usize>(&self) -> bool {
        tensor_streams::<S, E, LS, LVL>() || splits_in_order::<S, E, DIM, LS, LVL>()
    }
    fn each_lvl<const LVL: usize>(
        &self,
        layout: &Layout<DIM, LVL>,
        f: &mut dyn FnMut([usize; LVL], &V),
    ) {
        let same_map = LS == LVL
            && (0..LVL).all(|l| layout.levels.get(l).map(|i| i.expr) == Some(S::level_expr(l)));
        if same_map {
            walk_lvl(self.0, layout, 0, &self.0.dim_sizes(), f);
        } else {
            // `splits_in_order`: dimension order is the target's order.
            self.0.for_each(|d, v| f(layout.dim_to_lvl(&d), v));
        }
    }
    fn each(&self, f: &mut dyn FnMut([usize; DIM], &V)) {
        self.0.for_each(|d, v| f(d, v));
    }
    /// When both maps only permute the dimensions, target level `k` reads
    /// source level `from[k]` directly (no trip through the dimensions,
    /// no padding to skip); otherwise through the dimensions.
    fn each_mapped<const LVL: usize>(
        &self,
        layout: &Layout<DIM, LVL>,
        f: &mut dyn FnMut([usize; LVL], &V),
    ) {
        match permutation::<S, DIM, LS, LVL>(layout) {
            Some(from) if dense_compressed::<S, LS>() => {
                // CSR-like: one loop over the rows, one over each row's
                // positions (what `for_each_lvl` does, minus its generality).
                let level = self.0.level(1);
                let (pos, crd, values) = (level.positions(), level.coordinates(), self.0.values());
                let explicit = self.0.explicit_value();
                let mut at = [0usize; 2];
                for (i, w) in pos.windows(2).enumerate() {
                    let (a, b) = match w {
                        [a, b] => (a.as_usize(), b.as_usize()),
                        _ => continue,
                    };
                    at[0] = i;
                    for p in a..b {
                        let (Some(c), Some(v)) = (crd.get(p), values.get(p).or(explicit.as_ref()))
                        else {
                            continue;
                        };
                        at[1] = c.as_usize();
                        let t: [usize; LVL] = core::array::from_fn(|k| {
                            from.get(k).and_then(|&l| at.get(l)).copied().unwrap_or(0)
                        });
                        f(t, v);
                    }
                }
            }
            Some(from) => self.0.for_each_lvl(|lvl, v| {
                let t: [usize; LVL] = core::array::from_fn(|k| {
                    from.get(k).and_then(|&l| lvl.get(l)).copied().unwrap_or(0)
                });
                f(t, v)
            }),
            None => self.each(&mut |d, v| f(layout.dim_to_lvl(&d), v)),
        }
    }
    fn may_repeat(&self) -> bool {
        tensor_may_repeat::<S, LS>()
    }
    /// CSR <-> CSC and COO -> CSR/CSC: count and scatter (`fast.rs`).
    fn fast<E, B, const LVL: usize>(
        &self,
        out: &mut SparseTensorOut<V, E, B, DIM, LVL>,
        merge: Merge<V>,
    ) -> Option<Result<(), ConvertError>>
    where
        V: Clone + Default,
        E: Encoding,
        B: OutputBuffers<E::Pos, E::Crd, V>,
    {
        fast::two_level(self.0, out, merge)
    }
}

/// Whether `S` is `(dense, compressed)` with the compressed level's own
/// coordinates (CSR and CSC at any width, values stored or not).
fn dense_compressed<S: Encoding, const LS: usize>() -> bool {
    use crate::vocab::LevelFormat;
    LS == 2
        && S::level_type(0).is_some_and(|t| t.format == LevelFormat::Dense)
        && S::level_type(1).is_some_and(|t| t.format == LevelFormat::Compressed)
}

/// For a source `S` and a target `layout` whose level expressions are all
/// plain dimensions (each dimension read by exactly one level, as a valid
/// encoding of such a map guarantees), the source level each target level
/// reads.
fn permutation<S: Encoding, const DIM: usize, const LS: usize, const LVL: usize>(
    layout: &Layout<DIM, LVL>,
) -> Option<[usize; LVL]> {
    if LS != DIM || LVL != DIM {
        return None;
    }
    let mut from = [0usize; LVL];
    for (k, info) in layout.levels.iter().enumerate() {
        let LevelExpr::Dim(d) = info.expr else {
            return None;
        };
        let l = (0..LS).find(|&l| S::level_expr(l) == LevelExpr::Dim(d))?;
        *from.get_mut(k)? = l;
    }
    // Every source level a plain dimension too (no block or counting level
    // hides among them).
    (0..LS)
        .all(|l| matches!(S::level_expr(l), LevelExpr::Dim(_)))
        .then_some(from)
}

/// Tensors of one type side by side along `dim`.
pub(crate) struct Concat<'s, 't, V, S: Encoding, const DIM: usize, const LS: usize> {
    inputs: &'s [SparseTensor<'t, V, S, DIM, LS>],
    dim: usize,
    dims: [usize; DIM],
}

impl<'s, 't, V, S: Encoding, const DIM: usize, const LS: usize> Concat<'s, 't, V, S, DIM, LS> {
    /// Checks the inputs against the output's sizes `out`.
    pub(crate) fn new(
        inputs: &'s [SparseTensor<'t, V, S, DIM, LS>],
        dim: usize,
        out: [usize; DIM],
    ) -> Result<Self, ConvertError> {
        if dim >= DIM {
            return Err(ConvertError::ConcatDimension { dim, rank: DIM });
        }
        let mut total = 0usize;
        for t in inputs {
            for (d, (&have, &want)) in t.dim_sizes().iter().zip(&out).enumerate() {
                if d != dim && have != want {
                    return Err(ConvertError::DimensionMismatch {
                        dim: d,
                        size: want,
                        expected: have,
                    });
                }
            }
            let n = t.dim_size(dim).unwrap_or(0);
            total = total
                .checked_add(n)
                .ok_or(ConvertError::TooLarge { level: 0 })?;
        }
        let size = out.get(dim).copied().unwrap_or(0);
        if total != size {
            return Err(ConvertError::DimensionMismatch {
                dim,
                size,
                expected: total,
            });
        }
        Ok(Concat {
            inputs,
            dim,
            dims: out,
        })
    }
}

impl<V, S: Encoding, const DIM: usize, const LS: usize> Source<V, DIM>
    for Concat<'_, '_, V, S, DIM, LS>
{
    fn dims(&self) -> [usize; DIM] {
        self.dims
    }
    fn streams<E: Encoding, const LVL: usize>(&self) -> bool {
        let outer_is_dim = LVL > 0 && E::level_expr(0) == LevelExpr::Dim(self.dim as u8);
        outer_is_dim && tensor_streams::<S, E, LS, LVL>()
    }
    fn each_lvl<const LVL: usize>(
        &self,
        layout: &Layout<DIM, LVL>,
        f: &mut dyn FnMut([usize; LVL], &V),
    ) {
        let mut offset = 0usize;
        for t in self.inputs {
            walk_lvl(t, layout, offset, &self.dims, f);
            offset = offset.saturating_add(t.dim_size(self.dim).unwrap_or(0));
        }
    }
    fn each(&self, f: &mut dyn FnMut([usize; DIM], &V)) {
        let mut offset = 0usize;
        for t in self.inputs {
            t.for_each(|mut d, v| {
                if let Some(c) = d.get_mut(self.dim) {
                    *c = c.saturating_add(offset);
                }
                f(d, v)
            });
            offset = offset.saturating_add(t.dim_size(self.dim).unwrap_or(0));
        }
    }
    fn may_repeat(&self) -> bool {
        tensor_may_repeat::<S, LS>()
    }
}

/// A row-major dense array; its stored entries are the elements that are
/// not `V::default()`.
pub(crate) struct DenseSource<'s, V, const DIM: usize> {
    data: &'s [V],
    dims: [usize; DIM],
}

impl<'s, V, const DIM: usize> DenseSource<'s, V, DIM> {
    pub(crate) fn new(data: &'s [V], dims: [usize; DIM]) -> Result<Self, ConvertError> {
        let expected = dims.iter().try_fold(1usize, |n, &d| n.checked_mul(d));
        if expected != Some(data.len()) {
            return Err(ConvertError::ViewLength {
                len: data.len(),
                expected,
            });
        }
        Ok(DenseSource { data, dims })
    }

    /// The row-major offset of `d` (in range by construction).
    fn offset(&self, d: &[usize; DIM]) -> Option<usize> {
        let mut at = 0usize;
        for (&c, &n) in d.iter().zip(&self.dims) {
            if c >= n {
                return None;
            }
            at = at.checked_mul(n)?.checked_add(c)?;
        }
        Some(at)
    }
}

impl<V: PartialEq + Default, const DIM: usize> Source<V, DIM> for DenseSource<'_, V, DIM> {
    fn dims(&self) -> [usize; DIM] {
        self.dims
    }
    fn streams<E: Encoding, const LVL: usize>(&self) -> bool {
        true
    }
    /// An odometer over the level coordinates in lexicographic order:
    /// `O(product of the level sizes)`, the dense size up to block padding.
    fn each_lvl<const LVL: usize>(
        &self,
        layout: &Layout<DIM, LVL>,
        f: &mut dyn FnMut([usize; LVL], &V),
    ) {
        let sizes = layout.lvl_sizes(&self.dims);
        if self.data.is_empty() || sizes.contains(&0) {
            return;
        }
        let zero = V::default();
        let mut lvl = [0usize; LVL];
        loop {
            let d = layout.lvl_to_dim(&lvl);
            if let Some(v) = self.offset(&d).and_then(|at| self.data.get(at)) {
                if *v != zero {
                    f(lvl, v);
                }
            }
            // Next tuple: the last level fastest.
            let mut l = LVL;
            loop {
                let Some(k) = l.checked_sub(1) else {
                    return;
                };
                l = k;
                let (Some(c), Some(&n)) = (lvl.get_mut(l), sizes.get(l)) else {
                    return;
                };
                *c += 1;
                if *c < n {
                    break;
                }
                *c = 0;
            }
        }
    }
    fn each(&self, f: &mut dyn FnMut([usize; DIM], &V)) {
        if self.data.is_empty() {
            return;
        }
        let zero = V::default();
        let mut d = [0usize; DIM];
        for v in self.data {
            if *v != zero {
                f(d, v);
            }
            for (c, &n) in d.iter_mut().zip(&self.dims).rev() {
                *c += 1;
                if *c < n {
                    break;
                }
                *c = 0;
            }
        }
    }
    fn may_repeat(&self) -> bool {
        false
    }
}
