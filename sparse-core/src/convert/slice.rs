//! A slice view as a conversion source: the entries of the tensor inside
//! the slice, at the slice's coordinates.

use core::ops::Add;

use crate::encoding::Encoding;
use crate::layout::Layout;
use crate::output::{OutputBuffers, SparseTensorOut};
use crate::slice::SliceView;
use crate::vocab::LevelExpr;

use super::source::{splits_in_order, tensor_may_repeat, tensor_streams, Source};
use super::{engine, ConvertError, Merge};

/// The entries of a slice, renumbered.
struct SliceSource<'s, 't, V, S: Encoding, const DIM: usize, const LS: usize>(
    &'s SliceView<'t, V, S, DIM, LS>,
);

impl<V, S: Encoding, const DIM: usize, const LS: usize> Source<V, DIM>
    for SliceSource<'_, '_, V, S, DIM, LS>
{
    fn dims(&self) -> [usize; DIM] {
        self.0.dim_sizes()
    }
    /// The slice keeps the order of every dimension (coordinate `c` is the
    /// tensor's `offset + c * stride`), so when the tensor's levels are
    /// plain dimensions its walk is in the order it would be in unsliced.
    /// Block and counting maps are staged.
    fn streams<E: Encoding, const LVL: usize>(&self) -> bool {
        let plain = (0..LS).all(|l| matches!(S::level_expr(l), LevelExpr::Dim(_)));
        plain && (tensor_streams::<S, E, LS, LVL>() || splits_in_order::<S, E, DIM, LS, LVL>())
    }
    fn each_lvl<const LVL: usize>(
        &self,
        layout: &Layout<DIM, LVL>,
        f: &mut dyn FnMut([usize; LVL], &V),
    ) {
        self.0.for_each(|d, v| f(layout.dim_to_lvl(&d), v));
    }
    fn each(&self, f: &mut dyn FnMut([usize; DIM], &V)) {
        self.0.for_each(|d, v| f(d, v));
    }
    fn may_repeat(&self) -> bool {
        tensor_may_repeat::<S, LS>()
    }
}

/// MLIR's `sparse_tensor.convert` of a slice (the result of
/// `tensor.extract_slice`): every stored entry of the tensor inside the
/// slice, at the slice's coordinates, into `out`, whose dimension sizes
/// must be the slice's. Otherwise [`convert`](super::convert): any target
/// encoding, repeats kept or refused ([`convert_slice_sum`] adds them),
/// streamed when the tensor's levels are plain dimensions in the target's
/// order, staged otherwise.
///
/// ```
/// use sparse_core::convert::convert_slice;
/// use sparse_core::levels::{compressed, d0, d1, dense};
/// use sparse_core::{Enc, Level, SliceBuffer, Slices, SparseTensor, SparseTensorOut};
///
/// type Csr = Enc<u8, u8, (dense, compressed), (d0, d1)>;
///
/// // | 1 . 2 . |
/// // | . 3 . 4 |
/// let a = SparseTensor::<f32, Csr, 2, 2>::assemble(
///     [2, 4],
///     [Level::dense(), Level::compressed(&[0, 2, 4], &[0, 2, 1, 3])],
///     &[1.0, 2.0, 3.0, 4.0],
/// )?;
/// // Both rows, columns 1 and 3: | . . |, | 3 4 |.
/// let s = a.extract_slice([0, 1], [2, 2], [1, 2])?;
/// let (mut pos, mut crd, mut val) = ([0u8; 3], [0u8; 2], [0.0f32; 2]);
/// let mut b = SparseTensorOut::<f32, Csr, Slices<'_>, 2, 2>::new(
///     [2, 2],
///     [SliceBuffer::default(), SliceBuffer::new(&mut pos)],
///     [SliceBuffer::default(), SliceBuffer::new(&mut crd)],
///     SliceBuffer::new(&mut val),
///     SliceBuffer::default(),
///     SliceBuffer::default(),
///     SliceBuffer::default(),
/// )?;
/// convert_slice(&s, &mut b)?;
/// assert_eq!(b.view().level(1).positions(), &[0, 0, 2]);
/// assert_eq!(b.view().level(1).coordinates(), &[0, 1]);
/// assert_eq!(b.view().values(), &[3.0, 4.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn convert_slice<V, S, E, B, const DIM: usize, const LS: usize, const LVL: usize>(
    src: &SliceView<'_, V, S, DIM, LS>,
    out: &mut SparseTensorOut<V, E, B, DIM, LVL>,
) -> Result<(), ConvertError>
where
    V: Clone + Default,
    S: Encoding,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    engine::run(&SliceSource(src), out, Merge::Refuse)
}

/// [`convert_slice`], with repeated coordinates summed wherever the target
/// cannot keep them (MLIR's meaning of `nonunique` storage).
pub fn convert_slice_sum<V, S, E, B, const DIM: usize, const LS: usize, const LVL: usize>(
    src: &SliceView<'_, V, S, DIM, LS>,
    out: &mut SparseTensorOut<V, E, B, DIM, LVL>,
) -> Result<(), ConvertError>
where
    V: Clone + Default + Add<Output = V> + 'static,
    S: Encoding,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    engine::run(&SliceSource(src), out, Merge::sum())
}

/// A slice seen in another dimension order: dimension `k` of the view is
/// dimension `perm[k]` of the slice. Always staged.
struct Permuted<'s, 't, V, S: Encoding, const DIM: usize, const LS: usize> {
    slice: &'s SliceView<'t, V, S, DIM, LS>,
    perm: [usize; DIM],
}

impl<V, S: Encoding, const DIM: usize, const LS: usize> Permuted<'_, '_, V, S, DIM, LS> {
    fn apply(&self, d: [usize; DIM]) -> [usize; DIM] {
        core::array::from_fn(|k| {
            self.perm
                .get(k)
                .and_then(|&p| d.get(p))
                .copied()
                .unwrap_or(0)
        })
    }
}

impl<V, S: Encoding, const DIM: usize, const LS: usize> Source<V, DIM>
    for Permuted<'_, '_, V, S, DIM, LS>
{
    fn dims(&self) -> [usize; DIM] {
        self.apply(self.slice.dim_sizes())
    }
    fn streams<E: Encoding, const LVL: usize>(&self) -> bool {
        false
    }
    fn each_lvl<const LVL: usize>(
        &self,
        layout: &Layout<DIM, LVL>,
        f: &mut dyn FnMut([usize; LVL], &V),
    ) {
        self.slice
            .for_each(|d, v| f(layout.dim_to_lvl(&self.apply(d)), v));
    }
    fn each(&self, f: &mut dyn FnMut([usize; DIM], &V)) {
        self.slice.for_each(|d, v| f(self.apply(d), v));
    }
    fn may_repeat(&self) -> bool {
        tensor_may_repeat::<S, LS>()
    }
}

/// The conversions kernels make of a sliced operand: the slice in
/// dimension order (`perm` `None`, streamed where it can be) or seen in
/// another dimension order (`perm[k]`: the slice dimension that is
/// dimension `k` of `out`; a permutation of `0..DIM`, else
/// [`ConvertError::MapMismatch`]), repeats merged by `merge`.
pub(crate) fn convert_slice_merged<
    V,
    S,
    E,
    B,
    const DIM: usize,
    const LS: usize,
    const LVL: usize,
>(
    src: &SliceView<'_, V, S, DIM, LS>,
    perm: Option<[usize; DIM]>,
    out: &mut SparseTensorOut<V, E, B, DIM, LVL>,
    merge: super::Merge<V>,
) -> Result<(), ConvertError>
where
    V: Clone + Default,
    S: Encoding,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    match perm {
        None => engine::run(&SliceSource(src), out, merge),
        Some(perm) => {
            let mut seen = [false; DIM];
            for &p in &perm {
                match seen.get_mut(p) {
                    Some(s) if !*s => *s = true,
                    _ => {
                        out.clear();
                        return Err(ConvertError::MapMismatch);
                    }
                }
            }
            engine::run(&Permuted { slice: src, perm }, out, merge)
        }
    }
}
