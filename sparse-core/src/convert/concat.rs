//! MLIR's `sparse_tensor.concatenate` over operands of different kinds in
//! one call: sparse tensors of any encodings, slices of them and dense
//! arrays, into a sparse output of any encoding or into a dense array.
//!
//! The operands are trait objects ([`ConcatInput`]), so one slice holds a
//! DCSR, a CSC with other widths and a dense view side by side. What is
//! written is the *value* of the concatenation, as MLIR's: the nonzero
//! elements of each operand (a dense operand's zeros, a sparse operand's
//! explicit zeros and the zero padding of its dense levels are not
//! stored; MLIR's `concatenate_dim_1` test stores 18 entries for inputs
//! holding 23 values, the zeros of a `(compressed, dense)` operand
//! dropped).
//!
//! Into a sparse output it streams when the output's levels are the
//! plain dimensions in some order starting with the concatenated one and
//! every operand can be walked in that order (a sparse operand stored in
//! it, a dense one always): `O(nse)` plus a dense operand's size.
//! Otherwise it stages, as every conversion (see the [module docs](super)).

use core::ops::Add;

use crate::dense::{DenseView, DenseViewMut};
use crate::encoding::Encoding;
use crate::layout::Layout;
use crate::output::{OutputBuffers, SparseTensorOut};
use crate::slice::SliceView;
use crate::tensor::SparseTensor;
use crate::vocab::LevelExpr;

use super::merge::{checked_add, Unmerged};
use super::source::{tensor_may_repeat, Source};
use super::{engine, ConvertError, Merge};

/// One operand of [`concatenate_mixed`]: something with dimension sizes
/// whose stored elements can be listed by dimension coordinates.
///
/// Implemented for [`SparseTensor`] (any encoding), [`SliceView`] and
/// [`DenseView`] (its elements that are not `V::default()`). An
/// implementation for another type must list each stored element once
/// (repeats are summed or refused like a `nonunique` tensor's) and, where
/// [`walks_in`](Self::walks_in) says so, in that order; a false claim is
/// reported as a conversion error, never a wrong tensor.
pub trait ConcatInput<V, const DIM: usize> {
    /// The dimension sizes.
    fn dims(&self) -> [usize; DIM];
    /// Calls `f` with the dimension coordinates and value of every stored
    /// element.
    fn each(&self, f: &mut dyn FnMut([usize; DIM], &V));
    /// Whether [`each_in`](Self::each_in) with this `order` lists the
    /// elements in lexicographic order of `(d[order[0]], d[order[1]],
    /// ...)`.
    fn walks_in(&self, order: &[usize; DIM]) -> bool;
    /// [`each`](Self::each), in `order` where [`walks_in`](Self::walks_in)
    /// says it can be.
    fn each_in(&self, order: &[usize; DIM], f: &mut dyn FnMut([usize; DIM], &V)) {
        let _ = order;
        self.each(f);
    }
    /// Whether an element may be listed more than once.
    fn may_repeat(&self) -> bool;
}

/// Whether `S` stores its levels as the plain dimensions `order`, each
/// ordered: then its storage order is that lexicographic order.
fn stored_in<S: Encoding, const DIM: usize, const LS: usize>(order: &[usize; DIM]) -> bool {
    LS == DIM
        && order.iter().enumerate().all(|(l, &d)| {
            u8::try_from(d).is_ok_and(|d| S::level_expr(l) == LevelExpr::Dim(d))
                && S::level_type(l).is_some_and(|t| t.is_ordered())
        })
}

impl<V, S: Encoding, const DIM: usize, const LS: usize> ConcatInput<V, DIM>
    for SparseTensor<'_, V, S, DIM, LS>
{
    fn dims(&self) -> [usize; DIM] {
        self.dim_sizes()
    }
    fn each(&self, f: &mut dyn FnMut([usize; DIM], &V)) {
        self.for_each(|d, v| f(d, v));
    }
    fn walks_in(&self, order: &[usize; DIM]) -> bool {
        stored_in::<S, DIM, LS>(order)
    }
    fn may_repeat(&self) -> bool {
        tensor_may_repeat::<S, LS>()
    }
}

impl<V, S: Encoding, const DIM: usize, const LS: usize> ConcatInput<V, DIM>
    for SliceView<'_, V, S, DIM, LS>
{
    fn dims(&self) -> [usize; DIM] {
        self.dim_sizes()
    }
    fn each(&self, f: &mut dyn FnMut([usize; DIM], &V)) {
        self.for_each(|d, v| f(d, v));
    }
    /// A slice keeps the order of each dimension.
    fn walks_in(&self, order: &[usize; DIM]) -> bool {
        stored_in::<S, DIM, LS>(order)
    }
    fn may_repeat(&self) -> bool {
        tensor_may_repeat::<S, LS>()
    }
}

impl<V: Default + PartialEq, const DIM: usize> ConcatInput<V, DIM> for DenseView<'_, V, DIM> {
    fn dims(&self) -> [usize; DIM] {
        DenseView::dims(self)
    }
    fn each(&self, f: &mut dyn FnMut([usize; DIM], &V)) {
        let order: [usize; DIM] = core::array::from_fn(|d| d);
        self.each_in(&order, f);
    }
    fn walks_in(&self, _order: &[usize; DIM]) -> bool {
        true
    }
    /// An odometer over the dimensions, `order[0]` slowest: the dense size.
    fn each_in(&self, order: &[usize; DIM], f: &mut dyn FnMut([usize; DIM], &V)) {
        let dims = DenseView::dims(self);
        if self.as_slice().is_empty() || dims.contains(&0) {
            return;
        }
        let zero = V::default();
        let mut d = [0usize; DIM];
        loop {
            if let Some(v) = self.get(d) {
                if *v != zero {
                    f(d, v);
                }
            }
            // Next coordinate: the last dimension of `order` fastest.
            let mut k = DIM;
            loop {
                let Some(j) = k.checked_sub(1) else {
                    return;
                };
                k = j;
                let Some(&dim) = order.get(k) else {
                    return;
                };
                let (Some(c), Some(&n)) = (d.get_mut(dim), dims.get(dim)) else {
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
    fn may_repeat(&self) -> bool {
        false
    }
}

/// The operands side by side along `dim`, zeros dropped.
struct Mixed<'s, 'i, V, const DIM: usize> {
    inputs: &'s [&'i dyn ConcatInput<V, DIM>],
    dim: usize,
    dims: [usize; DIM],
}

impl<'s, 'i, V, const DIM: usize> Mixed<'s, 'i, V, DIM> {
    /// Checks the operands against the result's sizes `out`.
    fn new(
        inputs: &'s [&'i dyn ConcatInput<V, DIM>],
        dim: usize,
        out: [usize; DIM],
    ) -> Result<Self, ConvertError> {
        if dim >= DIM {
            return Err(ConvertError::ConcatDimension { dim, rank: DIM });
        }
        let mut total = 0usize;
        for t in inputs {
            let have = t.dims();
            for (d, (&size, &want)) in have.iter().zip(&out).enumerate() {
                if d != dim && size != want {
                    return Err(ConvertError::DimensionMismatch {
                        dim: d,
                        size: want,
                        expected: size,
                    });
                }
            }
            let n = have.get(dim).copied().unwrap_or(0);
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
        Ok(Mixed {
            inputs,
            dim,
            dims: out,
        })
    }

    /// Every nonzero element of every operand, in the result's dimension
    /// coordinates; each operand walked in `order` if given.
    fn visit(&self, order: Option<&[usize; DIM]>, f: &mut dyn FnMut([usize; DIM], &V))
    where
        V: Default + PartialEq,
    {
        let zero = V::default();
        let mut offset = 0usize;
        for t in self.inputs {
            let mut shifted = |mut d: [usize; DIM], v: &V| {
                if *v == zero {
                    return;
                }
                if let Some(c) = d.get_mut(self.dim) {
                    *c = c.saturating_add(offset);
                }
                f(d, v);
            };
            match order {
                Some(order) => t.each_in(order, &mut shifted),
                None => t.each(&mut shifted),
            }
            offset = offset.saturating_add(t.dims().get(self.dim).copied().unwrap_or(0));
        }
    }
}

/// The dimension each level of `E` reads, if every level is a plain
/// dimension (a permutation, as a valid encoding of such a map is).
fn plain_order<E: Encoding, const DIM: usize, const LVL: usize>() -> Option<[usize; DIM]> {
    if LVL != DIM {
        return None;
    }
    let mut order = [0usize; DIM];
    for (l, slot) in order.iter_mut().enumerate() {
        let LevelExpr::Dim(d) = E::level_expr(l) else {
            return None;
        };
        *slot = usize::from(d);
    }
    Some(order)
}

impl<V: Default + PartialEq, const DIM: usize> Source<V, DIM> for Mixed<'_, '_, V, DIM> {
    fn dims(&self) -> [usize; DIM] {
        self.dims
    }
    fn streams<E: Encoding, const LVL: usize>(&self) -> bool {
        match plain_order::<E, DIM, LVL>() {
            Some(order) => {
                order.first() == Some(&self.dim) && self.inputs.iter().all(|t| t.walks_in(&order))
            }
            None => false,
        }
    }
    fn each_lvl<const LVL: usize>(
        &self,
        layout: &Layout<DIM, LVL>,
        f: &mut dyn FnMut([usize; LVL], &V),
    ) {
        let order: [usize; DIM] =
            core::array::from_fn(|l| layout.levels.get(l).map_or(l, |info| info.expr.dim()));
        self.visit(Some(&order), &mut |d, v| f(layout.dim_to_lvl(&d), v));
    }
    fn each(&self, f: &mut dyn FnMut([usize; DIM], &V)) {
        self.visit(None, f);
    }
    fn may_repeat(&self) -> bool {
        self.inputs.iter().any(|t| t.may_repeat())
    }
}

/// MLIR's `sparse_tensor.concatenate` with operands of any kinds: the
/// operands, in order, joined along dimension `dim` into `out`, which
/// stores the nonzero elements of the result, as MLIR's does: a dense
/// operand's zeros, the explicit zeros of a sparse one and the zero
/// padding of its dense levels are not copied. It streams when `out`'s
/// levels are the plain dimensions, the first being `dim`, and every
/// operand can be walked in that order; otherwise it stages (see the
/// [module docs](super)). Every
/// operand has `out`'s sizes except along `dim`, where `out`'s size is the
/// sum of theirs ([`ConvertError::DimensionMismatch`]; `dim >= DIM` is
/// [`ConvertError::ConcatDimension`]). An element an operand lists twice
/// (a `nonunique` tensor) is [`ConvertError::Duplicate`] unless the target
/// keeps repeats; [`concatenate_mixed_sum`] adds them.
///
/// ```
/// use sparse_core::convert::{concatenate_mixed, ConcatInput};
/// use sparse_core::levels::{compressed, d0, d1, dense};
/// use sparse_core::{DenseView, Enc, Level, Slices, SparseTensor, SparseTensorOut};
///
/// type Dcsr = Enc<u8, u8, (compressed, compressed), (d0, d1)>;
/// type Csc = Enc<u32, u16, (dense, compressed), (d1, d0)>;
/// type Csr = Enc<usize, usize, (dense, compressed), (d0, d1)>;
///
/// // [1 0]    [0 0 5]    [0 0]
/// // [0 2] ++ [0 0 0] ++ [3 0]   (side by side: a 2x7 matrix)
/// let a = SparseTensor::<f64, Dcsr, 2, 2>::assemble(
///     [2, 2],
///     [Level::compressed(&[0, 2], &[0, 1]), Level::compressed(&[0, 1, 2], &[0, 1])],
///     &[1.0, 2.0],
/// )?;
/// let b = SparseTensor::<f64, Csc, 2, 2>::assemble(
///     [2, 3],
///     [Level::dense(), Level::compressed(&[0, 0, 0, 1], &[0])],
///     &[5.0],
/// )?;
/// let c = DenseView::new(&[0.0, 0.0, 3.0, 0.0], [2, 2])?;
/// let (mut pos, mut crd, mut val) = ([0usize; 3], [0usize; 4], [0.0f64; 4]);
/// let mut out = SparseTensorOut::<f64, Csr, Slices<'_>, 2, 2>::builder([2, 7])
///     .positions(1, &mut pos)
///     .coordinates(1, &mut crd)
///     .values(&mut val)
///     .build()?;
/// let inputs: [&dyn ConcatInput<f64, 2>; 3] = [&a, &b, &c];
/// concatenate_mixed(&inputs, 1, &mut out)?;
/// assert_eq!(out.view().level(1).positions(), &[0, 2, 4]);
/// assert_eq!(out.view().level(1).coordinates(), &[0, 4, 1, 5]);
/// assert_eq!(out.view().values(), &[1.0, 5.0, 2.0, 3.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn concatenate_mixed<V, E, B, const DIM: usize, const LVL: usize>(
    inputs: &[&dyn ConcatInput<V, DIM>],
    dim: usize,
    out: &mut SparseTensorOut<V, E, B, DIM, LVL>,
) -> Result<(), ConvertError>
where
    V: Clone + Default + PartialEq,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    mixed_with(inputs, dim, out, Merge::Refuse)
}

/// [`concatenate_mixed`], with elements an operand lists twice summed.
pub fn concatenate_mixed_sum<V, E, B, const DIM: usize, const LVL: usize>(
    inputs: &[&dyn ConcatInput<V, DIM>],
    dim: usize,
    out: &mut SparseTensorOut<V, E, B, DIM, LVL>,
) -> Result<(), ConvertError>
where
    V: Clone + Default + PartialEq + Add<Output = V> + 'static,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    mixed_with(inputs, dim, out, Merge::sum())
}

fn mixed_with<V, E, B, const DIM: usize, const LVL: usize>(
    inputs: &[&dyn ConcatInput<V, DIM>],
    dim: usize,
    out: &mut SparseTensorOut<V, E, B, DIM, LVL>,
    merge: Merge<V>,
) -> Result<(), ConvertError>
where
    V: Clone + Default + PartialEq,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    match Mixed::new(inputs, dim, out.dim_sizes()) {
        Ok(source) => engine::run(&source, out, merge),
        Err(e) => {
            out.clear();
            Err(e)
        }
    }
}

/// MLIR's `sparse_tensor.concatenate` into a dense tensor: `out` (its
/// dimensions the result's) is set to `V::default()`, then every stored
/// element of each operand is added at its place, so elements an operand
/// lists twice are summed. Errors as [`concatenate_mixed`]; on such an
/// error `out` is untouched. An integer sum that overflows the element
/// type is [`ConvertError::SumOverflow`] naming the element (the rule of
/// [`convert_sum`](super::convert_sum) and [`to_dense`](super::to_dense),
/// in debug and release builds alike); `out` is then all `V::default()`.
/// `O(dense size + nse)`, no allocation.
pub fn concatenate_mixed_dense<V, const DIM: usize>(
    inputs: &[&dyn ConcatInput<V, DIM>],
    dim: usize,
    out: &mut DenseViewMut<'_, V, DIM>,
) -> Result<(), ConvertError>
where
    V: Clone + Default + PartialEq + Add<Output = V> + 'static,
{
    let dims = out.dims();
    let source = Mixed::new(inputs, dim, dims)?;
    let data = out.as_mut_slice();
    for slot in data.iter_mut() {
        *slot = V::default();
    }
    let mut fault = None;
    source.each(&mut |d, v| {
        if fault.is_some() {
            return;
        }
        let mut at = 0usize;
        for (&c, &n) in d.iter().zip(&dims) {
            // Coordinates are below the checked sizes, whose product is
            // the view's length: no overflow.
            at = at.wrapping_mul(n).wrapping_add(c);
        }
        if let Some(slot) = data.get_mut(at) {
            match checked_add(core::mem::take(slot), v.clone()) {
                Some(sum) => *slot = sum,
                None => fault = Some(Unmerged::Overflow.error(&d)),
            }
        }
    });
    match fault {
        None => Ok(()),
        Some(e) => {
            for slot in data.iter_mut() {
                *slot = V::default();
            }
            Err(e)
        }
    }
}
