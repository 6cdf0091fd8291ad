//! Kernels with sparse outputs (issue 4) on the flash tensors: the output
//! lives in `Fixed<N>` (heapless) storage or in `Slices` over stack arrays,
//! is compared with a dense reference and with the exact set of entries it
//! must store (the union of the operands' entries for `+`), and a buffer
//! that is too small gives the typed capacity error, never a panic.

use core::hint::black_box;

use sparse_core::output::{Fixed, SliceBuffer, Slices};
use sparse_core::{Buffer, KernelError, Level};

use crate::checks::csr64;
use crate::data::{CSR_DENSE, N, NNZ};
use crate::report::{expect_eq, fail, CheckResult, Msg, Report};

sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed),
        posWidth = 16,
        crdWidth = 8
    }>

    /// c = a + b, stored where a or b stores an entry.
    pub fn add(a: &tensor<64x64xf32, #CSR>, b: &tensor<64x64xf32, #CSR>, c: &mut tensor<64x64xf32, #CSR>) {
        c[i, j] = a[i, j] + b[i, j];
    }

    /// c = 2 a, stored where a stores an entry.
    pub fn scale(a: &tensor<?x?xf32, #CSR>, c: &mut tensor<?x?xf32, #CSR>) {
        c[i, j] = a[i, j] * 2.0;
    }
}

/// The anti-diagonal `(i, N - 1 - i)`, with values in quarters from -3/4
/// to 3/4, zeros included (stored explicitly): a second 64x64 operand in
/// flash that overlaps the generated matrix in some entries only.
const fn anti_parts() -> ([u16; N + 1], [u8; N], [f32; N]) {
    let mut pos = [0u16; N + 1];
    let mut crd = [0u8; N];
    let mut val = [0.0f32; N];
    let mut i = 0;
    while i < N {
        pos[i + 1] = (i + 1) as u16;
        crd[i] = (N - 1 - i) as u8;
        val[i] = ((i % 7) as i32 - 3) as f32 / 4.0;
        i += 1;
    }
    (pos, crd, val)
}

const ANTI: ([u16; N + 1], [u8; N], [f32; N]) = anti_parts();
static ANTI_POS: [u16; N + 1] = ANTI.0;
static ANTI_CRD: [u8; N] = ANTI.1;
static ANTI_VAL: [f32; N] = ANTI.2;

/// Whether `a + anti` stores `(i, j)`: the generated matrix stores exactly
/// its nonzeros.
fn in_union(i: usize, j: usize) -> bool {
    CSR_DENSE[i][j] != 0.0 || j == N - 1 - i
}

/// The entries `a + anti` stores.
fn union_count() -> usize {
    let mut n = 0;
    for i in 0..N {
        for j in 0..N {
            n += usize::from(in_union(i, j));
        }
    }
    n
}

/// Room for the sum: every entry of both operands, and the positions.
pub const CAP: usize = NNZ + N + 1;

pub fn anti() -> Result<CSR<'static, f32>, Msg> {
    match CSR::assemble(
        [N, N],
        [Level::dense(), Level::compressed(&ANTI_POS, &ANTI_CRD)],
        &ANTI_VAL,
    ) {
        Ok(t) => Ok(t),
        Err(e) => fail!("assemble failed: {}", e),
    }
}

/// `c` (a view of the output) against the dense `want`: each stored entry
/// once and in range, stored exactly where `stores` says, equal to `want`
/// everywhere (zero where nothing is stored), and the storage assembles
/// again through the validating constructor.
fn same_as(
    c: &CSR<'_, f32>,
    stores: impl Fn(usize, usize) -> bool,
    want: impl Fn(usize, usize) -> f32,
) -> CheckResult {
    // Values are compared as they come: the only array on the stack is the
    // stored mask (4 KiB; the M0's machine has 16 KiB of RAM).
    let mut seen = [[false; N]; N];
    let mut problem: Option<([usize; 2], Option<f32>)> = None;
    c.for_each(|[i, j]: [usize; 2], v: &f32| {
        if problem.is_some() {
            return;
        }
        match seen.get_mut(i).and_then(|row| row.get_mut(j)) {
            Some(s) if !*s => {
                *s = true;
                if *v != want(i, j) {
                    problem = Some(([i, j], Some(*v)));
                }
            }
            _ => problem = Some(([i, j], None)),
        }
    });
    match problem {
        Some(([i, j], Some(v))) => fail!("({}, {}) = {}, dense gives {}", i, j, v, want(i, j)),
        Some((at, None)) if at[0] < N && at[1] < N => fail!("{:?} stored twice", at),
        Some((at, None)) => fail!("{:?} outside {}x{}", at, N, N),
        None => {}
    }
    for (i, row) in seen.iter().enumerate() {
        for (j, &stored) in row.iter().enumerate() {
            if stored != stores(i, j) {
                fail!(
                    "({}, {}): stored {}, expected {}",
                    i,
                    j,
                    stored,
                    stores(i, j)
                );
            }
        }
    }
    let (dims, levels, values) = c.disassemble();
    if let Err(e) = CSR::<f32>::assemble(dims, levels, values) {
        fail!("the output's storage does not assemble: {}", e);
    }
    Ok(())
}

#[cfg_attr(small_ram, allow(dead_code))]
fn sum_at(i: usize, j: usize) -> f32 {
    let anti = if j == N - 1 - i { ANTI_VAL[i] } else { 0.0 };
    CSR_DENSE[i][j] + anti
}

fn empty(c: &CSR<'_, f32>) -> CheckResult {
    expect_eq!("entries after the error", c.number_of_entries(), 0);
    same_as(c, |_, _| false, |_, _| 0.0)
}

/// Runs the sparse-output checks.
pub fn run_all(r: &mut Report) {
    // A `Fixed<575>` CSR output holds about 6 KiB and is moved by value
    // while it is made: on the M0's 16 KiB machine these two run on the
    // other cores only (the smaller outputs below run everywhere).
    #[cfg(small_ram)]
    for name in [
        "sparse out: add csr64 + anti-diagonal -> CSR in Fixed<N> == dense, union stored",
        "sparse out: a second call replaces the first result",
    ] {
        r.skip(
            name,
            "its Fixed<575> output does not fit this machine's 16 KiB of RAM",
        );
    }
    #[cfg(not(small_ram))]
    r.run(
        "sparse out: add csr64 + anti-diagonal -> CSR in Fixed<N> == dense, union stored",
        || {
            let (a, b) = (csr64()?, anti()?);
            let mut c = match CSROut::<f32, Fixed<CAP>>::with_dims([N, N]) {
                Ok(c) => c,
                Err(e) => fail!("with_dims: {}", e),
            };
            if let Err(e) = add(black_box(&a), black_box(&b), &mut c) {
                fail!("kernel error: {}", e);
            }
            expect_eq!("entries", c.number_of_entries(), union_count());
            same_as(&c.view(), in_union, sum_at)
        },
    );
    #[cfg(not(small_ram))]
    r.run(
        "sparse out: a second call replaces the first result",
        || {
            let (a, b) = (csr64()?, anti()?);
            let mut c = match CSROut::<f32, Fixed<CAP>>::with_dims([N, N]) {
                Ok(c) => c,
                Err(e) => fail!("with_dims: {}", e),
            };
            if let Err(e) = add(black_box(&a), black_box(&b), &mut c) {
                fail!("kernel error: {}", e);
            }
            if let Err(e) = scale(black_box(&a), &mut c) {
                fail!("kernel error: {}", e);
            }
            expect_eq!("entries", c.number_of_entries(), NNZ);
            same_as(
                &c.view(),
                |i, j| CSR_DENSE[i][j] != 0.0,
                |i, j| 2.0 * CSR_DENSE[i][j],
            )
        },
    );
    r.run(
        "sparse out: Fixed<65> too small -> KernelError::Capacity, output empty",
        || {
            let (a, b) = (csr64()?, anti()?);
            let mut c = match CSROut::<f32, Fixed<{ N + 1 }>>::with_dims([N, N]) {
                Ok(c) => c,
                Err(e) => fail!("with_dims: {}", e),
            };
            let got = add(black_box(&a), black_box(&b), &mut c);
            // Exactly the 65 positions of 64 rows; the coordinates fill
            // up (before the values: a coordinate is pushed first).
            expect_eq!(
                "result",
                got,
                Err(KernelError::Capacity {
                    tensor: "c",
                    level: 1,
                    buffer: Buffer::Coordinates,
                    needed: union_count(),
                    capacity: N + 1,
                })
            );
            empty(&c.view())
        },
    );
    r.run(
        "sparse out: Slices with short coordinates -> KernelError::Capacity, then reused",
        slices_capacity,
    );
}

/// An output over stack arrays whose coordinates hold 100 entries: the
/// exact error, an empty output, then a result that fits in the same one.
fn slices_capacity() -> CheckResult {
    let (a, b) = (csr64()?, anti()?);
    let mut pos = [0u16; N + 1];
    let mut crd = [0u8; 100];
    let mut val = [0.0f32; CAP];
    let c = CSROut::<f32, Slices<'_>>::new(
        [N, N],
        [SliceBuffer::default(), SliceBuffer::new(&mut pos)],
        [SliceBuffer::default(), SliceBuffer::new(&mut crd)],
        SliceBuffer::new(&mut val),
        SliceBuffer::default(),
        SliceBuffer::default(),
        SliceBuffer::default(),
    );
    let mut c = match c {
        Ok(c) => c,
        Err(e) => fail!("new: {}", e),
    };
    let got = add(black_box(&a), black_box(&b), &mut c);
    expect_eq!(
        "result",
        got,
        Err(KernelError::Capacity {
            tensor: "c",
            level: 1,
            buffer: Buffer::Coordinates,
            needed: union_count(),
            capacity: 100,
        })
    );
    empty(&c.view())?;
    // The anti-diagonal alone (64 entries) fits.
    if let Err(e) = scale(black_box(&b), &mut c) {
        fail!("kernel error after the capacity error: {}", e);
    }
    same_as(
        &c.view(),
        |i, j| j == N - 1 - i,
        |i, j| {
            if j == N - 1 - i {
                2.0 * ANTI_VAL[i]
            } else {
                0.0
            }
        },
    )
}
