//! The checks: tensors assembled in place from flash, compared with dense
//! references, and malformed flash data rejected with the exact error.

use core::fmt::Debug;

use core::ptr;

use sparse_core::{Encoding, Level, SparseTensor};

use crate::data::*;
use crate::formats::{Csr64, BSR, COO, CSR, CSR64, CSR8, FULL_COO};
use crate::report::{expect_eq, fail, CheckResult, Msg, Report, Text};

/// What MLIR's `sparse_tensor.print` shows for seed 000's COO example.
const COO_PRINTED: &str = "---- Sparse Tensor ----
nse = 3
dim = ( 3, 4 )
lvl = ( 3, 4 )
pos[0] : ( 0, 3 )
crd[0] : ( 0, 0, 1, 2, 1, 3 )
values : ( 1.1, 2.2, 3.3 )
----";

/// Seed 001's BSR storage, as the seed prints it (TACO-flavoured, `{:#}`).
const BSR_PRINTED: &str = "positions[1]   : 0 2 3
coordinates[1] : 0 2 1
values         : 1.000000 2.000000 0.000000 3.000000
                 4.000000 0.000000 0.000000 5.000000
                 6.000000 7.000000 8.000000 0.000000";

/// Runs every check of the firmware.
pub fn run_all(r: &mut Report) {
    defmt::info!(
        "csr64: {=usize}x{=usize}, {=usize} stored entries, a compile-time constant in flash",
        N,
        N,
        NNZ
    );
    let (pos, crd, val) = (
        core::mem::size_of_val(CSR64.level(1).positions()),
        core::mem::size_of_val(CSR64.level(1).coordinates()),
        core::mem::size_of_val(CSR64.values()),
    );
    defmt::info!(
        "csr64 flash: positions {=usize} B, coordinates {=usize} B, values {=usize} B = {=usize} B (dense: {=usize} B)",
        pos,
        crd,
        val,
        pos + crd + val,
        core::mem::size_of_val(&CSR_DENSE)
    );
    r.run(
        "csr64 constant: its buffers re-checked by assemble (u16 pos, u8 crd, f32)",
        csr64_assemble,
    );
    r.run("csr64 constant: buffers in flash, not RAM", csr64_in_flash);
    r.run(
        "full_coo constant (byte-string buffers, 32-bit usize tuples)",
        full_coo,
    );
    r.run("csr64 number_of_entries", || {
        expect_eq!("nse", csr64()?.number_of_entries(), NNZ);
        Ok(())
    });
    r.run("csr64 for_each == dense reference", || {
        matches_dense(&csr64()?, &CSR_DENSE)
    });
    r.run("csr64 for_each visits in row-major order", || {
        row_major_order(&csr64()?)
    });
    r.run("csr64 spmv through for_each == dense matvec", csr64_spmv);

    r.run("coo (seed 000) assemble, nse 3", || {
        let t = coo()?;
        expect_eq!("nse", t.number_of_entries(), 3);
        expect_eq!("dim sizes", t.dim_sizes(), [3, 4]);
        Ok(())
    });
    r.run("coo (seed 000) for_each == seed matrix", || {
        matches_dense(&coo()?, &COO_DENSE)
    });
    r.run(
        "coo (seed 000) disassemble returns the flash slices",
        coo_disassemble,
    );
    r.run("coo (seed 000) Display == sparse_tensor.print", || {
        same_text(Text::<512>::new(format_args!("{}", coo()?)), COO_PRINTED)
    });

    // sparse-core's `defmt::Format` (the `defmt` feature), decoded on the
    // host: the snapshot (expected/<target>.txt) holds what it must print.
    match coo() {
        Ok(t) => defmt::info!("coo (seed 000) through defmt::Format:\n{}", t),
        Err(_) => r.run("coo (seed 000) through defmt::Format", || {
            fail!("assemble failed")
        }),
    }
    defmt::info!(
        "KernelError through defmt::Format: {}",
        sparse_core::KernelError::DimensionMismatch {
            tensor: "x",
            dim: 0,
            size: 63,
            index: "j",
            expected: 64,
            bound_by: "a",
            bound_dim: 1,
        }
    );

    r.run("csr 3x4 for_each == seed 000 matrix", || {
        matches_dense(&small_csr()?, &COO_DENSE)
    });

    r.run("bsr 2x2 (seed 001) assemble, nse 12, lvl sizes", || {
        let t = bsr()?;
        expect_eq!("nse", t.number_of_entries(), 12);
        expect_eq!("lvl sizes", t.lvl_sizes(), [2, 3, 2, 2]);
        Ok(())
    });
    r.run("bsr 2x2 (seed 001) for_each == seed matrix", || {
        matches_dense(&bsr()?, &BSR_DENSE)
    });
    r.run("bsr 2x2 (seed 001) {:#} == seed layout", || {
        same_text(Text::<512>::new(format_args!("{:#}", bsr()?)), BSR_PRINTED)
    });

    crate::kernels::run_all(r);
    crate::int8::run_all(r);
    crate::int8_packed::run_all(r);
    crate::semiring::run_all(r);
    crate::sparse_out::run_all(r);
    crate::shapes::run_all(r);
    crate::malformed::run_all(r);
    crate::stack::run_all(r);
}

/// The 64x64 matrix: the constant itself, no `assemble`.
pub fn csr64() -> Result<Csr64<'static>, Msg> {
    Ok(CSR64)
}

pub fn coo() -> Result<COO<'static, f64>, Msg> {
    match COO::assemble(
        [3, 4],
        [Level::compressed(&COO_POS, &COO_CRD), Level::fused()],
        &COO_VAL,
    ) {
        Ok(t) => Ok(t),
        Err(e) => fail!("assemble failed: {}", e),
    }
}

fn small_csr() -> Result<CSR8<'static, f64>, Msg> {
    match CSR8::assemble(
        [3, 4],
        [Level::dense(), Level::compressed(&SMALL_POS, &SMALL_CRD)],
        &SMALL_VAL,
    ) {
        Ok(t) => Ok(t),
        Err(e) => fail!("assemble failed: {}", e),
    }
}

pub fn bsr() -> Result<BSR<'static, f32>, Msg> {
    match BSR::assemble(
        [4, 6],
        [
            Level::dense(),
            Level::compressed(&BSR_POS, &BSR_CRD),
            Level::dense(),
            Level::dense(),
        ],
        &BSR_VAL,
    ) {
        Ok(t) => Ok(t),
        Err(e) => fail!("assemble failed: {}", e),
    }
}

/// Compares printed text line by line and names the first difference.
fn same_text<const M: usize>(got: Text<M>, want: &str) -> CheckResult {
    if got.is_truncated() {
        fail!("output longer than {} bytes", M);
    }
    let mut got_lines = got.as_str().split('\n');
    for (n, want_line) in want.split('\n').enumerate() {
        match got_lines.next() {
            Some(g) if g == want_line => {}
            Some(g) => fail!("line {}: got {:?}, expected {:?}", n + 1, g, want_line),
            None => fail!("missing line {}: {:?}", n + 1, want_line),
        }
    }
    if let Some(extra) = got_lines.next() {
        fail!("extra line {:?}", extra);
    }
    Ok(())
}

/// The validating `assemble`, run on the target, accepts the buffers the
/// macro laid out, and gives the same tensor.
fn csr64_assemble() -> CheckResult {
    let t = csr64()?;
    expect_eq!("dim sizes", t.dim_sizes(), [N, N]);
    expect_eq!("lvl sizes", t.lvl_sizes(), [N, N]);
    let (dims, levels, values) = t.disassemble();
    let again = match CSR::<f32>::assemble(dims, levels, values) {
        Ok(again) => again,
        Err(e) => fail!("assemble refused the constant's buffers: {}", e),
    };
    expect_eq!("nse", again.number_of_entries(), t.number_of_entries());
    if !ptr::eq(again.level(1).coordinates(), t.level(1).coordinates()) {
        fail!("assemble did not borrow the constant's flash buffers");
    }
    Ok(())
}

/// `for_each` must visit every stored entry once, at its dimension
/// coordinates, and together they must rebuild `dense` exactly (a stored
/// explicit zero rebuilds a zero).
fn matches_dense<V, E, const LVL: usize, const R: usize, const C: usize>(
    t: &SparseTensor<'_, V, E, 2, LVL>,
    dense: &[[V; C]; R],
) -> CheckResult
where
    V: Copy + Default + PartialEq + Debug,
    E: Encoding,
{
    // Each visited entry is compared with the reference as it comes, so the
    // only array on the stack is the visited mask (4 KiB for 64x64: the
    // Cortex-M0 machine has 16 KiB of RAM).
    let mut seen = [[false; C]; R];
    let mut visits = 0usize;
    let mut problem: Option<([usize; 2], Option<V>)> = None;
    t.for_each(|[i, j]: [usize; 2], v: &V| {
        visits += 1;
        if problem.is_some() {
            return;
        }
        match seen.get_mut(i).and_then(|row| row.get_mut(j)) {
            Some(slot) if *slot => problem = Some(([i, j], None)),
            Some(slot) => {
                *slot = true;
                if *v != dense[i][j] {
                    problem = Some(([i, j], Some(*v)));
                }
            }
            None => problem = Some(([i, j], None)),
        }
    });
    match problem {
        Some(([i, j], Some(v))) => fail!(
            "({}, {}): for_each gives {:?}, reference {:?}",
            i,
            j,
            v,
            dense[i][j]
        ),
        Some((c, None)) if c[0] < R && c[1] < C => fail!("entry {:?} visited twice", c),
        Some((c, None)) => fail!("coordinates {:?} outside {}x{}", c, R, C),
        None => {}
    }
    expect_eq!("visits", visits, t.number_of_entries());
    for i in 0..R {
        for j in 0..C {
            if !seen[i][j] && dense[i][j] != V::default() {
                fail!(
                    "({}, {}): for_each gives no entry, reference {:?}",
                    i,
                    j,
                    dense[i][j]
                );
            }
        }
    }
    Ok(())
}

/// On a CSR matrix, storage order is row-major order, strictly increasing.
fn row_major_order<V, E: Encoding>(t: &SparseTensor<'_, V, E, 2, 2>) -> CheckResult {
    let mut last: Option<[usize; 2]> = None;
    let mut bad: Option<([usize; 2], [usize; 2])> = None;
    t.for_each(|c: [usize; 2], _: &V| {
        if let Some(prev) = last {
            if bad.is_none() && prev >= c {
                bad = Some((prev, c));
            }
        }
        last = Some(c);
    });
    if let Some((prev, c)) = bad {
        fail!("{:?} visited after {:?}", c, prev);
    }
    Ok(())
}

/// y = A x, accumulated entry by entry through `for_each`, against the
/// dense product. Values are multiples of 1/64 and x of 1/8, so both sums
/// are exact in f32 and must agree bit for bit.
fn csr64_spmv() -> CheckResult {
    let t = csr64()?;
    let mut x = [0.0f32; N];
    for (j, xj) in x.iter_mut().enumerate() {
        *xj = (j as f32 - 32.0) / 8.0;
    }
    let mut y = [0.0f32; N];
    t.for_each(|[i, j]: [usize; 2], v: &f32| {
        if let (Some(yi), Some(xj)) = (y.get_mut(i), x.get(j)) {
            *yi += v * xj;
        }
    });
    for (i, row) in CSR_DENSE.iter().enumerate() {
        let want: f32 = row.iter().zip(&x).map(|(a, b)| a * b).sum();
        if y[i] != want {
            fail!("y[{}] = {}, dense gives {}", i, y[i], want);
        }
    }
    Ok(())
}

/// A 72x64 COO constant with every element stored: its AoS tuples are
/// `(i, j)` in row-major order, decoded from the byte strings the macro
/// emits for large buffers, in the target's `usize`.
fn full_coo() -> CheckResult {
    expect_eq!("nse", FULL_COO.number_of_entries(), 72 * 64);
    expect_eq!("pos[0]", FULL_COO.level(0).positions(), &[0, 72 * 64][..]);
    for (p, t) in FULL_COO.level(0).coordinates().chunks(2).enumerate() {
        if t != [p / 64, p % 64] {
            fail!("tuple {} is {:?}", p, t);
        }
    }
    if FULL_COO.values().iter().any(|&v| v != 0.5) {
        fail!("a value is not 0.5");
    }
    Ok(())
}

/// The constant's buffers are in `.rodata`, which cortex-m-rt's `link.x`
/// places in FLASH (whatever address memory.x gives it on this machine:
/// 0x0000_0000 on the mps2-an385/386 and microbit, 0x1000_0000 on the
/// mps2-an505), not copied to RAM.
fn csr64_in_flash() -> CheckResult {
    extern "C" {
        static __srodata: u8;
        static __erodata: u8;
    }
    // Only the addresses of the linker's section bounds are taken, never
    // their contents (which needs no `unsafe`).
    let (start, end) = (
        core::ptr::addr_of!(__srodata) as usize,
        core::ptr::addr_of!(__erodata) as usize,
    );
    let level = CSR64.level(1);
    let addresses = [
        level.positions().as_ptr() as usize,
        level.coordinates().as_ptr() as usize,
        CSR64.values().as_ptr() as usize,
        core::ptr::addr_of!(CSR64) as usize,
    ];
    for (what, a) in ["pos[1]", "crd[1]", "values", "the tensor"]
        .iter()
        .zip(addresses)
    {
        if !(start..end).contains(&a) {
            fail!(
                "{} is at {:#010x}, outside .rodata ({:#010x}..{:#010x}) in flash",
                what,
                a,
                start,
                end
            );
        }
    }
    expect_eq!("pos[1] length", level.positions().len(), N + 1);
    expect_eq!("crd[1] length", level.coordinates().len(), NNZ);
    Ok(())
}

fn coo_disassemble() -> CheckResult {
    let t = coo()?;
    let (dims, levels, values) = t.disassemble();
    expect_eq!("dim sizes", dims, [3, 4]);
    if !ptr::eq(levels[0].positions, &COO_POS[..])
        || !ptr::eq(levels[0].coordinates, &COO_CRD[..])
        || !ptr::eq(values, &COO_VAL[..])
    {
        fail!("level 0 or values are not the flash arrays");
    }
    expect_eq!("fused level 1", levels[1], Level::fused());
    Ok(())
}
