//! The runtime's workspace (MLIR's `expand`/`compress`) driven by hand:
//! Gustavson's SpGEMM `C = A * B` over CSR, row by row through
//! `workspace`/`entry`/`compress`, against a dense product; and a
//! workspace too small for the rows.

use proptest::prelude::*;
// The insertion protocol generated kernels drive, called here by hand.
use sparse_core::__private::OutputProtocol;
use sparse_core::vocab::LevelExpr;
use sparse_core::{
    Buffer, KernelError, OutputBuffers, Owned, SliceBuffer, Slices, SparseTensor, SparseTensorOut,
};
use sparse_tests::gen::{self, Entries};
use sparse_tests::reference::{build, lvl, Csr, Kind, RefLevel};

type E = Csr<u16, u16>;
const CSR: [RefLevel; 2] = [
    lvl(Kind::Dense, LevelExpr::Dim(0)),
    lvl(Kind::Compressed { unique: true }, LevelExpr::Dim(1)),
];

/// Gustavson: for each row `i` of `a`, accumulate `a[i, k] * b[k, :]` in
/// the workspace, then compress it into row `i` of `c`.
fn spgemm<B: OutputBuffers<u16, u16, i32>>(
    a: &SparseTensor<'_, i32, E, 2, 2>,
    b: &SparseTensor<'_, i32, E, 2, 2>,
    c: &mut SparseTensorOut<i32, E, B, 2, 2>,
) -> Result<(), KernelError> {
    let n = b.dim_sizes()[1];
    c.begin();
    if c.workspace(n).is_err() {
        return c.finish("c");
    }
    let (ap, ac, av) = (a.level(1).positions(), a.level(1).coordinates(), a.values());
    let (bp, bc, bv) = (b.level(1).positions(), b.level(1).coordinates(), b.values());
    for i in 0..a.dim_sizes()[0] {
        {
            let Ok(mut ws) = c.workspace(n) else {
                return c.finish("c");
            };
            for p in ap[i] as usize..ap[i + 1] as usize {
                let k = ac[p] as usize;
                for q in bp[k] as usize..bp[k + 1] as usize {
                    *ws.entry(bc[q] as usize).expect("column below n") += av[p] * bv[q];
                }
            }
        }
        c.compress([i, 0]);
    }
    c.finish("c")
}

/// The dense product's structural nonzeros: every `(i, j)` some `k` joins,
/// with the sum (explicit zeros kept, as the workspace keeps them).
fn product(m: usize, n: usize, a: &Entries<i32>, b: &Entries<i32>) -> Entries<i32> {
    let mut dense: Vec<Option<i32>> = vec![None; m * n];
    for (da, x) in a {
        for (db, y) in b {
            if da[1] == db[0] {
                let slot = &mut dense[da[0] * n + db[1]];
                *slot = Some(slot.unwrap_or(0) + x * y);
            }
        }
    }
    (0..m * n)
        .filter_map(|at| dense[at].map(|v| (vec![at / n, at % n], v)))
        .collect()
}

fn assembled<'a>(
    dims: [usize; 2],
    typed: &'a sparse_tests::reference::Typed<u16, u16, i32>,
) -> SparseTensor<'a, i32, E, 2, 2> {
    SparseTensor::assemble(dims, typed.levels(), &typed.values).unwrap()
}

fn matrices() -> impl Strategy<Value = ([usize; 3], Entries<i32>, Entries<i32>)> {
    gen::dims::<3>(6).prop_flat_map(|[m, k, n]| {
        (
            Just([m, k, n]),
            gen::entries::<i32>(&[m, k]),
            gen::entries::<i32>(&[k, n]),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn gustavson_through_the_workspace_matches_the_dense_product((dims, ea, eb) in matrices()) {
        let [m, k, n] = dims;
        let ta = build(&CSR, &[m, k], &ea, 0, 0).typed::<u16, u16>();
        let tb = build(&CSR, &[k, n], &eb, 0, 0).typed::<u16, u16>();
        let (a, b) = (assembled([m, k], &ta), assembled([k, n], &tb));
        let want = build(&CSR, &[m, n], &product(m, n, &ea, &eb), 0, 0);

        let mut c = SparseTensorOut::<i32, E, Owned, 2, 2>::with_dims([m, n]).unwrap();
        prop_assert_eq!(spgemm(&a, &b, &mut c), Ok(()));
        let (d, levels, values) = c.view().disassemble();
        let pos: Vec<usize> = levels[1].positions.iter().map(|&p| p as usize).collect();
        let crd: Vec<usize> = levels[1].coordinates.iter().map(|&x| x as usize).collect();
        prop_assert_eq!(&pos, &want.pos[1]);
        prop_assert_eq!(&crd, &want.crd[1]);
        prop_assert_eq!(values, &want.values[..]);
        prop_assert!(SparseTensor::<i32, E, 2, 2>::assemble(d, levels, values).is_ok());

        // A workspace one short of the row length: the capacity error and an
        // empty valid output.
        if n == 0 {
            return Ok(());
        }
        let mut pos_mem = vec![0u16; m + 1];
        let mut crd_mem = vec![0u16; want.crd[1].len()];
        let mut val_mem = vec![0i32; want.values.len()];
        let (mut wv, mut wf, mut wa) = (vec![0i32; n], vec![false; n], vec![0usize; n - 1]);
        let mut small = SparseTensorOut::<i32, E, Slices<'_>, 2, 2>::new(
            [m, n],
            [SliceBuffer::default(), SliceBuffer::new(&mut pos_mem)],
            [SliceBuffer::default(), SliceBuffer::new(&mut crd_mem)],
            SliceBuffer::new(&mut val_mem),
            SliceBuffer::new(&mut wv),
            SliceBuffer::new(&mut wf),
            SliceBuffer::new(&mut wa),
        )
        .unwrap();
        let err = KernelError::Capacity {
            tensor: "c",
            level: 1,
            buffer: Buffer::Workspace,
            needed: n,
            capacity: n - 1,
        };
        prop_assert_eq!(spgemm(&a, &b, &mut small), Err(err));
        prop_assert_eq!(small.number_of_entries(), 0);
        let (d, levels, values) = small.view().disassemble();
        prop_assert!(SparseTensor::<i32, E, 2, 2>::assemble(d, levels, values).is_ok());
    }
}
