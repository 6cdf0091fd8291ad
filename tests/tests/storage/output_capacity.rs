//! Capacity of sparse outputs over caller slices, through the runtime's
//! insertion protocol alone: one buffer made too small must be named with
//! the exact length the reference builder gives it, the output must be
//! left empty and valid, and it must work again afterwards.

use proptest::prelude::*;
// The insertion protocol generated kernels drive, called here by hand.
use sparse_core::__private::OutputProtocol;
use sparse_core::{
    AssembleError, Buffer, Encoding, Index, KernelError, SliceBuffer, Slices, SparseTensor,
    SparseTensorOut, StoresValues,
};
use sparse_tests::gen::{self, Entries};
use sparse_tests::reference::{
    bsr_map, build, fused, lvl, storage_order, to_lvl, Bsr23, Built, Coo, CooSoa, Csr, Dcsr, Kind,
    RefLevel,
};

const D0: sparse_core::vocab::LevelExpr = sparse_core::vocab::LevelExpr::Dim(0);
const D1: sparse_core::vocab::LevelExpr = sparse_core::vocab::LevelExpr::Dim(1);
const CMP: Kind = Kind::Compressed { unique: true };

/// Which buffer of an output: `(level, kind)`.
type Slot = (usize, Buffer);

/// Owned memory for one output, one length per buffer.
struct Mem<P, C> {
    pos: Vec<Vec<P>>,
    crd: Vec<Vec<C>>,
    val: Vec<i32>,
}

impl<P: Index, C: Index> Mem<P, C> {
    fn new(lens: &Built<i32>, slot: Slot, cap: usize) -> Self {
        let len = |s: Slot, n: usize| if s == slot { cap } else { n };
        let zp = P::from_usize(0).unwrap();
        let zc = C::from_usize(0).unwrap();
        Mem {
            pos: (0..lens.pos.len())
                .map(|l| vec![zp; len((l, Buffer::Positions), lens.pos[l].len())])
                .collect(),
            crd: (0..lens.crd.len())
                .map(|l| vec![zc; len((l, Buffer::Coordinates), lens.crd[l].len())])
                .collect(),
            val: vec![0; len((lens.pos.len() - 1, Buffer::Values), lens.values.len())],
        }
    }

    fn out<E: StoresValues<Pos = P, Crd = C>, const DIM: usize, const LVL: usize>(
        &mut self,
        dims: [usize; DIM],
    ) -> Result<SparseTensorOut<i32, E, Slices<'_>, DIM, LVL>, AssembleError> {
        let mut pos = self.pos.iter_mut();
        let mut crd = self.crd.iter_mut();
        SparseTensorOut::new(
            dims,
            core::array::from_fn(|_| SliceBuffer::new(pos.next().unwrap())),
            core::array::from_fn(|_| SliceBuffer::new(crd.next().unwrap())),
            SliceBuffer::new(&mut self.val),
            SliceBuffer::default(),
            SliceBuffer::default(),
            SliceBuffer::default(),
        )
    }
}

fn fill<E: Encoding, const DIM: usize, const LVL: usize>(
    c: &mut SparseTensorOut<i32, E, Slices<'_>, DIM, LVL>,
    layout: &[RefLevel],
    entries: &Entries<i32>,
) -> Result<(), KernelError> {
    c.begin();
    for (d, v) in storage_order(layout, entries) {
        c.insert(to_lvl(layout, &d).try_into().unwrap(), v);
    }
    c.finish("out")
}

fn same_as<E: Encoding, const DIM: usize, const LVL: usize>(
    view: SparseTensor<'_, i32, E, DIM, LVL>,
    want: &Built<i32>,
) -> Result<(), TestCaseError> {
    let (dims, levels, values) = view.disassemble();
    for (l, level) in levels.iter().enumerate() {
        let pos: Vec<usize> = level.positions.iter().map(|p| p.as_usize()).collect();
        let crd: Vec<usize> = level.coordinates.iter().map(|c| c.as_usize()).collect();
        prop_assert_eq!(&pos, &want.pos[l]);
        prop_assert_eq!(&crd, &want.crd[l]);
    }
    prop_assert_eq!(values, &want.values[..]);
    prop_assert!(SparseTensor::<i32, E, DIM, LVL>::assemble(dims, levels, values).is_ok());
    Ok(())
}

/// The buffers that hold anything for this result.
fn slots(lens: &Built<i32>) -> Vec<(Slot, usize)> {
    let last = lens.pos.len() - 1;
    let mut s = Vec::new();
    for l in 0..lens.pos.len() {
        s.push(((l, Buffer::Positions), lens.pos[l].len()));
        s.push(((l, Buffer::Coordinates), lens.crd[l].len()));
    }
    s.push(((last, Buffer::Values), lens.values.len()));
    s.retain(|&(_, n)| n > 0);
    s
}

fn length(lens: &Built<i32>, (l, b): Slot) -> usize {
    match b {
        Buffer::Positions => lens.pos[l].len(),
        Buffer::Coordinates => lens.crd[l].len(),
        _ => lens.values.len(),
    }
}

/// Shrinks the `pick`-th non-empty buffer to `cap` (`cut` of its need)
/// and checks the errors, the emptied output, its reuse, and that exactly
/// the reported need suffices.
fn check<E: StoresValues, const DIM: usize, const LVL: usize>(
    layout: &[RefLevel],
    dims: [usize; DIM],
    entries: &Entries<i32>,
    pick: usize,
    cut: usize,
) -> Result<(), TestCaseError> {
    let full = build(layout, &dims, entries, 0, 0);
    let empty = build(layout, &dims, &[], 0, 0);
    let candidates = slots(&full);
    prop_assume!(!candidates.is_empty());
    let (slot, needed) = candidates[pick % candidates.len()];
    let cap = cut % needed;
    let mut mem = Mem::<E::Pos, E::Crd>::new(&full, slot, cap);
    let empty_needs = length(&empty, slot);
    let mut c = match mem.out::<E, DIM, LVL>(dims) {
        Err(e) => {
            prop_assert!(cap < empty_needs);
            let want = AssembleError::Capacity {
                level: slot.0,
                buffer: slot.1,
                needed: empty_needs,
                capacity: cap,
            };
            prop_assert_eq!(e, want);
            return Ok(());
        }
        Ok(c) => c,
    };
    prop_assert!(cap >= empty_needs);
    let want = KernelError::Capacity {
        tensor: "out",
        level: slot.0,
        buffer: slot.1,
        needed,
        capacity: cap,
    };
    prop_assert_eq!(fill(&mut c, layout, entries), Err(want));
    same_as(c.view(), &empty)?;
    // Reusable: the empty result and a twice-failing call.
    prop_assert_eq!(fill(&mut c, layout, &Vec::new()), Ok(()));
    same_as(c.view(), &empty)?;
    prop_assert_eq!(fill(&mut c, layout, entries), Err(want));
    same_as(c.view(), &empty)?;
    // Exactly the reported need works.
    let mut mem = Mem::<E::Pos, E::Crd>::new(&full, slot, needed);
    let mut c = mem.out::<E, DIM, LVL>(dims).unwrap();
    prop_assert_eq!(fill(&mut c, layout, entries), Ok(()));
    same_as(c.view(), &full)
}

fn bsr23() -> [RefLevel; 4] {
    let m = bsr_map(2, 3);
    [
        lvl(Kind::Dense, m[0]),
        lvl(CMP, m[1]),
        lvl(Kind::Dense, m[2]),
        lvl(Kind::Dense, m[3]),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn one_short_buffer_is_named_exactly(
        (dims, entries) in gen::sparse::<i32, 2>(6),
        pick in 0usize..16,
        cut in 0usize..64,
    ) {
        check::<Csr<u8, u8>, 2, 2>(&[lvl(Kind::Dense, D0), lvl(CMP, D1)], dims, &entries, pick, cut)?;
        check::<Dcsr<u16, u8>, 2, 2>(&[lvl(CMP, D0), lvl(CMP, D1)], dims, &entries, pick, cut)?;
        check::<Coo<u8, u8>, 2, 2>(
            &[lvl(Kind::Compressed { unique: false }, D0), fused(D1)], dims, &entries, pick, cut)?;
        check::<CooSoa<u8, u8>, 2, 2>(
            &[lvl(Kind::Compressed { unique: false }, D0), lvl(Kind::Singleton, D1)],
            dims, &entries, pick, cut)?;
        check::<Bsr23<u8, u8>, 2, 4>(&bsr23(), dims, &entries, pick, cut)?;
    }
}
