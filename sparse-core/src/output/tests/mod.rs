//! Unit tests of sparse outputs: hand-checked layouts (seed 001's CSR and
//! BSR, seed 000's COO) in `layouts`, errors and the workspace in
//! `errors`; every view is re-assembled through the checked constructor.
//! Miri runs these (`cargo +nightly miri test -p sparse-core
//! --lib output`).

extern crate std;

use crate::levels::{
    compressed, d0, d1, dense, floordiv, loose_compressed, modulo, nonunique, singleton, soa,
};
use std::vec::Vec;

use super::*;
use crate::encoding::Enc;
use crate::error::{AssembleError, KernelError};
use crate::index::Index;

type Csr = Enc<u8, u8, (dense, compressed), (d0, d1)>;
type Dcsr = Enc<u16, u16, (compressed, compressed), (d0, d1)>;
type Coo = Enc<usize, u8, (compressed<nonunique>, singleton), (d0, d1)>;
type CooSoa = Enc<u32, u32, (compressed<nonunique>, singleton<soa>), (d0, d1)>;
type Loose = Enc<u8, u8, (dense, loose_compressed), (d0, d1)>;
type Bsr = Enc<
    u8,
    u8,
    (dense, compressed, dense, dense),
    (
        floordiv<d0, 2>,
        floordiv<d1, 2>,
        modulo<d0, 2>,
        modulo<d1, 2>,
    ),
>;
type Dense2 = Enc<u8, u8, (dense, dense), (d0, d1)>;
type Wide = Enc<u8, u8, (dense, compressed), (d0, d1)>;

/// Buffers of `n` elements each, owned by the test.
struct Mem<P, C, V, const LVL: usize> {
    pos: [Vec<P>; LVL],
    crd: [Vec<C>; LVL],
    val: Vec<V>,
    wsv: Vec<V>,
    wsf: Vec<bool>,
    wsa: Vec<usize>,
}

impl<P: Index, C: Index, V: Default + Clone, const LVL: usize> Mem<P, C, V, LVL> {
    fn new(pos: usize, crd: usize, val: usize, ws: usize) -> Self {
        let z = |_| P::from_usize(0).unwrap();
        let zc = |_| C::from_usize(0).unwrap();
        Mem {
            pos: core::array::from_fn(|_| (0..pos).map(z).collect()),
            crd: core::array::from_fn(|_| (0..crd).map(zc).collect()),
            val: std::vec![V::default(); val],
            wsv: std::vec![V::default(); ws],
            wsf: std::vec![false; ws],
            wsa: std::vec![0; ws],
        }
    }
}

type Out<'a, V, E, const DIM: usize, const LVL: usize> =
    SparseTensorOut<V, E, Slices<'a>, DIM, LVL>;

fn out<'a, V: Default, E: crate::StoresValues, const DIM: usize, const LVL: usize>(
    dims: [usize; DIM],
    m: &'a mut Mem<E::Pos, E::Crd, V, LVL>,
) -> Result<Out<'a, V, E, DIM, LVL>, AssembleError> {
    let mut pos = m.pos.iter_mut();
    let mut crd = m.crd.iter_mut();
    SparseTensorOut::new(
        dims,
        core::array::from_fn(|_| SliceBuffer::new(pos.next().unwrap())),
        core::array::from_fn(|_| SliceBuffer::new(crd.next().unwrap())),
        SliceBuffer::new(&mut m.val),
        SliceBuffer::new(&mut m.wsv),
        SliceBuffer::new(&mut m.wsf),
        SliceBuffer::new(&mut m.wsa),
    )
}

/// Disassembles the view and assembles it again through the checked
/// constructor: it must be accepted and equal.
fn reassembles<
    V: PartialEq + core::fmt::Debug,
    E: Encoding,
    B,
    const DIM: usize,
    const LVL: usize,
>(
    c: &SparseTensorOut<V, E, B, DIM, LVL>,
) where
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    let v = c.view();
    let (dims, levels, values) = v.disassemble();
    let again = SparseTensor::<V, E, DIM, LVL>::assemble(dims, levels, values)
        .expect("the view is a valid tensor");
    assert_eq!(again.disassemble(), (dims, levels, values));
}

/// Runs the 5-entry CSR example into `c`.
fn csr_example<B: OutputBuffers<u8, u8, f64>>(
    c: &mut SparseTensorOut<f64, Csr, B, 2, 2>,
) -> Result<(), KernelError> {
    c.begin();
    for (i, j, v) in [
        (0, 0, 1.0),
        (0, 2, 2.0),
        (2, 1, 3.0),
        (3, 2, 4.0),
        (3, 7, 5.0),
    ] {
        c.insert([i, j], v);
    }
    c.finish("c")
}

fn is_empty_and_valid<
    V: PartialEq + core::fmt::Debug,
    E: Encoding,
    B,
    const DIM: usize,
    const LVL: usize,
>(
    c: &SparseTensorOut<V, E, B, DIM, LVL>,
) where
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    assert_eq!(c.number_of_entries(), 0);
    reassembles(c);
}

#[cfg(feature = "alloc")]
mod chunk;
mod errors;
mod layouts;
mod row;
mod run;
mod segment;
mod structured;
mod workspace;

/// A buffer with only the required methods: the provided bulk fills.
struct Plain<const N: usize>([u8; N], usize);

impl<const N: usize> Buffer<u8> for Plain<N> {
    fn as_slice(&self) -> &[u8] {
        &self.0[..self.1]
    }
    fn as_mut_slice(&mut self) -> &mut [u8] {
        &mut self.0[..self.1]
    }
    fn len(&self) -> usize {
        self.1
    }
    fn capacity(&self) -> usize {
        N
    }
    fn clear(&mut self) {
        self.1 = 0;
    }
    fn truncate(&mut self, len: usize) {
        self.1 = self.1.min(len);
    }
    fn push(&mut self, value: u8) -> Result<(), u8> {
        match self.0.get_mut(self.1) {
            Some(slot) => {
                *slot = value;
                self.1 += 1;
                Ok(())
            }
            None => Err(value),
        }
    }
}

#[test]
fn bulk_fills_are_all_or_nothing() {
    // SliceBuffer: fill writes, unspecified reuses what the memory holds.
    let mut mem = [9u8; 5];
    let mut s = SliceBuffer::new(&mut mem);
    assert!(s.extend_fill(2, 1));
    assert!(!s.extend_fill(4, 2), "6 > 5: nothing appended");
    assert_eq!(s.as_slice(), &[1, 1]);
    assert!(s.extend_unspecified(3, 0));
    assert_eq!(s.as_slice(), &[1, 1, 9, 9, 9]);
    assert!(!s.extend_unspecified(1, 0));
    assert!(!s.extend_fill(usize::MAX, 0));
    assert!(!s.extend_unspecified(usize::MAX, 0));
    assert_eq!(s.len(), 5);
    assert!(s.make_room(0) && !s.make_room(1));

    // The provided versions, for a buffer that only pushes.
    let mut p = Plain([7u8; 4], 0);
    assert!(p.extend_unspecified(3, 4));
    assert!(!p.extend_fill(2, 5));
    assert_eq!(p.as_slice(), &[4, 4, 4]);
    assert!(p.extend_fill(1, 5));
    assert_eq!(p.as_slice(), &[4, 4, 4, 5]);

    #[cfg(feature = "heapless")]
    {
        let mut h = heapless::Vec::<u8, 4>::new();
        assert!(Buffer::extend_fill(&mut h, 3, 1));
        assert!(!Buffer::extend_unspecified(&mut h, 2, 2));
        assert!(Buffer::extend_unspecified(&mut h, 1, 2));
        assert_eq!(h.as_slice(), &[1, 1, 1, 2]);
    }
    #[cfg(feature = "alloc")]
    {
        let mut v: Vec<u8> = Vec::new();
        assert!(Buffer::extend_fill(&mut v, 2, 3));
        assert!(Buffer::extend_unspecified(&mut v, 2, 4));
        assert_eq!(v, [3, 3, 4, 4]);
        assert!(!Buffer::extend_fill(&mut v, usize::MAX, 0));
        // Room is asked for at once: a block no allocation can hold is
        // refused without growing, one that can is reserved.
        assert!(!Buffer::make_room(&mut v, usize::MAX));
        // A block no allocation can hold: refused, not an abort.
        assert!(!Buffer::extend_unspecified_default(&mut v, usize::MAX / 2));
        assert!(Buffer::make_room(&mut v, 100));
        assert!(v.capacity() >= 104);
        assert_eq!(v, [3, 3, 4, 4]);
    }
}
