//! Arbitrary protocol calls on sparse outputs (any order, coordinates out
//! of range, small fixed buffers, workspace calls in between): nothing
//! panics, `finish` either succeeds with a view `assemble` accepts, or
//! fails with the output empty and valid; and when it succeeds after
//! sorted, in-range insertions, the view holds exactly what was inserted.

use proptest::prelude::*;
// The insertion protocol generated kernels drive, called here by hand.
use sparse_core::__private::OutputProtocol;
use sparse_core::{
    Encoding, Fixed, KernelError, OutputBuffers, Owned, SparseTensor, SparseTensorOut, StoresValues,
};
use sparse_tests::reference::{Bsr22, Coo, CooNu, CooSoa, Csf, Csr, Dcsr, Loose};

#[derive(Clone, Debug)]
enum Op<const LVL: usize> {
    Insert([usize; LVL], i32),
    Workspace(usize, usize, i32),
    Compress([usize; LVL]),
    Reset,
    Begin,
}

fn ops<const LVL: usize>(max: usize) -> impl Strategy<Value = Vec<Op<LVL>>> {
    let op = prop_oneof![
        8 => (proptest::array::uniform::<_, LVL>(0..max), -3i32..3)
            .prop_map(|(l, v)| Op::Insert(l, v)),
        1 => (0..max + 2, 0..max + 2, -3i32..3).prop_map(|(n, j, v)| Op::Workspace(n, j, v)),
        1 => proptest::array::uniform::<_, LVL>(0..max).prop_map(Op::Compress),
        1 => Just(Op::Reset),
        1 => Just(Op::Begin),
    ];
    proptest::collection::vec(op, 0..24)
}

/// The view is a tensor `assemble` accepts, equal to itself re-assembled.
fn valid<E: Encoding, B, const DIM: usize, const LVL: usize>(
    c: &SparseTensorOut<i32, E, B, DIM, LVL>,
) -> Result<(), TestCaseError>
where
    B: OutputBuffers<E::Pos, E::Crd, i32>,
{
    let (dims, levels, values) = c.view().disassemble();
    let again = SparseTensor::<i32, E, DIM, LVL>::assemble(dims, levels, values);
    prop_assert!(again.is_ok(), "{:?}", again.err());
    Ok(())
}

fn run<E: Encoding, B, const DIM: usize, const LVL: usize>(
    c: &mut SparseTensorOut<i32, E, B, DIM, LVL>,
    ops: &[Op<LVL>],
) -> Result<(), TestCaseError>
where
    B: OutputBuffers<E::Pos, E::Crd, i32>,
{
    c.begin();
    for op in ops {
        match *op {
            Op::Insert(l, v) => c.insert(l, v),
            Op::Workspace(n, j, v) => {
                if let Ok(mut ws) = c.workspace(n) {
                    if let Some(slot) = ws.entry(j) {
                        *slot += v;
                    }
                }
            }
            Op::Compress(l) => c.compress(l),
            Op::Reset => c.reset_workspace(),
            Op::Begin => c.begin(),
        }
        // Mid-call views are valid too.
        valid(c)?;
    }
    match c.finish("c") {
        Ok(()) => valid(c),
        Err(e) => {
            prop_assert!(
                matches!(
                    e,
                    KernelError::Capacity { .. }
                        | KernelError::InsertOutOfOrder { .. }
                        | KernelError::InsertOutOfRange { .. }
                        | KernelError::PositionOverflow { .. }
                ),
                "{:?}",
                e
            );
            valid(c)?;
            let mut stored = 0usize;
            c.view().for_each_lvl(|_, &v| stored += usize::from(v != 0));
            prop_assert_eq!(stored, 0, "a failed call leaves only zeros");
            Ok(())
        }
    }
}

/// Sorted, in-range, distinct insertions are stored exactly (read back in
/// storage order, dense padding skipped).
fn exact<E: StoresValues, const DIM: usize, const LVL: usize>(
    dims: [usize; DIM],
    ops: &[Op<LVL>],
    lvl_sizes: [usize; LVL],
) -> Result<(), TestCaseError> {
    let mut ins: Vec<([usize; LVL], i32)> = ops
        .iter()
        .filter_map(|op| match *op {
            Op::Insert(l, v) if l.iter().zip(&lvl_sizes).all(|(c, n)| c < n) => Some((l, v.max(1))),
            _ => None,
        })
        .collect();
    ins.sort_by_key(|(l, _)| *l);
    ins.dedup_by_key(|(l, _)| *l);
    let mut c = SparseTensorOut::<i32, E, Owned, DIM, LVL>::with_dims(dims).unwrap();
    c.begin();
    for &(l, v) in &ins {
        c.insert(l, v);
    }
    prop_assert_eq!(c.finish("c"), Ok(()));
    let mut got = Vec::new();
    c.view().for_each_lvl(|l, &v| {
        if v != 0 {
            got.push((l, v));
        }
    });
    prop_assert_eq!(got, ins);
    valid(&c)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn matrices(ops in ops::<2>(5), dims in proptest::array::uniform::<_, 2>(1usize..5)) {
        run(&mut SparseTensorOut::<i32, Csr<u8, u8>, Fixed<8>, 2, 2>::with_dims(dims).unwrap(), &ops)?;
        run(&mut SparseTensorOut::<i32, Dcsr<u8, u8>, Fixed<6>, 2, 2>::with_dims(dims).unwrap(), &ops)?;
        run(&mut SparseTensorOut::<i32, Coo<u8, u8>, Fixed<8>, 2, 2>::with_dims(dims).unwrap(), &ops)?;
        run(&mut SparseTensorOut::<i32, CooSoa<u8, u8>, Fixed<6>, 2, 2>::with_dims(dims).unwrap(), &ops)?;
        run(&mut SparseTensorOut::<i32, CooNu<u8, u8>, Fixed<6>, 2, 2>::with_dims(dims).unwrap(), &ops)?;
        run(&mut SparseTensorOut::<i32, Loose<u8, u8>, Fixed<10>, 2, 2>::with_dims(dims).unwrap(), &ops)?;
        run(&mut SparseTensorOut::<i32, Dcsr<u8, u8>, Owned, 2, 2>::with_dims(dims).unwrap(), &ops)?;
        exact::<Csr<u8, u8>, 2, 2>(dims, &ops, dims)?;
        exact::<Coo<u8, u8>, 2, 2>(dims, &ops, dims)?;
        exact::<Loose<u8, u8>, 2, 2>(dims, &ops, dims)?;
    }

    #[test]
    fn blocks_and_three_levels(
        ops in ops::<4>(4),
        ops3 in ops::<3>(4),
        dims in proptest::array::uniform::<_, 2>(1usize..7),
        dims3 in proptest::array::uniform::<_, 3>(1usize..4),
    ) {
        run(&mut SparseTensorOut::<i32, Bsr22<u8, u8>, Fixed<12>, 2, 4>::with_dims(dims).unwrap(), &ops)?;
        run(&mut SparseTensorOut::<i32, Csf<u8, u8>, Fixed<8>, 3, 3>::with_dims(dims3).unwrap(), &ops3)?;
        let bsr_lvl = [dims[0].div_ceil(2), dims[1].div_ceil(2), 2, 2];
        exact::<Bsr22<u8, u8>, 2, 4>(dims, &ops, bsr_lvl)?;
        exact::<Csf<u8, u8>, 3, 3>(dims3, &ops3, dims3)?;
    }
}
