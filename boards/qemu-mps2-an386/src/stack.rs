//! Stack use of every generated kernel shape the firmware runs, measured by
//! painting (as bench/firmware does for the SpMV): the free stack below
//! the stack pointer is filled with a pattern, the kernel is called through
//! a function pointer (so it runs as its own, not inlined, function), and
//! the lowest word that no longer holds the pattern marks its deepest use.
//! The use is the stack pointer right before the call minus that address:
//! the kernel's frame and everything it calls (soft-float helpers, `memcpy`,
//! the workspace's sort), not its operands, which the caller holds.
//! Nothing else runs meanwhile (no interrupt is enabled).
//!
//! Each kernel is a check against a budget (`stack of K: <= B B`), so a
//! kernel whose stack grows past it fails the run. The exact bytes are
//! logged at debug level (`STACK <kernel> <bytes>`), compiled in only with
//! `DEFMT_LOG=info,qemu_mps2_an386::stack=debug`, which
//! `bench/firmware/run.sh` sets to fill the table of this crate's README.

use core::hint::black_box;
use core::ptr;

use sparse_core::output::{Fixed, SliceBuffer, Slices};
use sparse_core::KernelError;

use crate::checks::{bsr, coo, csr64};
use crate::data::N;
use crate::report::{fail, CheckResult, Msg, Report, Text};
use crate::{kernels, semiring, shapes, sparse_out};

const PATTERN: u32 = 0xC0DE_5AC4;
/// Bytes painted below the stack pointer: far more than any budget.
const PAINT: usize = 2048;

type KResult = Result<(), KernelError>;

/// The stack pointer now (in a closure: right before the call that
/// follows; outgoing stack arguments are part of the caller's frame).
#[inline(always)]
fn sp() -> usize {
    cortex_m::register::msp::read() as usize
}

/// The bytes below the stack pointer that `call` returns (read right
/// before its kernel call) which the call touched. `call` also returns the
/// kernel's result, which must be `Ok`.
#[inline(never)]
fn depth(call: &mut dyn FnMut() -> (usize, KResult)) -> Result<usize, Msg> {
    extern "C" {
        // cortex-m-rt: the end of the static data, where the stack must stop.
        static __sheap: u8;
    }
    let top = sp();
    let limit = ptr::addr_of!(__sheap) as usize;
    if top < limit + PAINT {
        fail!(
            "{} B of free stack below the stack pointer, {} B needed to paint",
            top.saturating_sub(limit),
            PAINT
        );
    }
    let bottom = top - PAINT;
    let mut a = bottom;
    while a < top {
        // SAFETY: [bottom, top) is free stack: below the stack pointer,
        // above the static data (checked above), and no interrupt handler
        // can run and use it.
        unsafe { ptr::write_volatile(a as *mut u32, PATTERN) };
        a += 4;
    }
    let (entry, result) = call();
    let mut a = bottom;
    // SAFETY: as above; the words are only read.
    while a < top && unsafe { ptr::read_volatile(a as *const u32) } == PATTERN {
        a += 4;
    }
    if let Err(e) = result {
        fail!("kernel error: {}", e);
    }
    if a == bottom {
        fail!("the whole painted area ({} B) was used", PAINT);
    }
    Ok(entry.saturating_sub(a))
}

/// Runs `call` under [`depth`] as the check `stack of <kernel>: <= <budget> B`.
fn measure(
    r: &mut Report,
    kernel: &str,
    budget: usize,
    mut call: impl FnMut() -> (usize, KResult),
) {
    let name = Text::<120>::new(format_args!("stack of {}: <= {} B", kernel, budget));
    r.run(name.as_str(), || -> CheckResult {
        let bytes = depth(&mut call)?;
        defmt::debug!("STACK {=str} {=usize}", kernel, bytes);
        if bytes > budget {
            fail!("{} B", bytes);
        }
        Ok(())
    });
}

/// Calls the kernel `$f` (a function pointer of type `$ty`, through
/// `black_box` so it is not inlined) with `$args`; returns the stack
/// pointer before the call and the result.
macro_rules! call {
    ($f:expr, $ty:ty, $($arg:expr),* $(,)?) => {{
        let f: $ty = $f;
        call!(f; $($arg),*)
    }};
    // `$f` already a function pointer.
    ($f:expr; $($arg:expr),* $(,)?) => {{
        let f = black_box($f);
        let sp = sp();
        let r = f($($arg),*);
        (sp, r)
    }};
}

/// The budgets are the largest use measured over the four cores (README),
/// rounded up with some room: a kernel whose frame grows by a buffer or
/// an unexpected callee fails, a spilled register does not.
///
/// Not inlined (nor are the functions it calls with outputs on the stack):
/// their locals must not join the caller's frame, which stays on the stack
/// while every other check runs (the M0's machine has 16 KiB of RAM).
#[inline(never)]
pub fn run_all(r: &mut Report) {
    let Ok(a) = csr64() else {
        return missing(r, "csr64");
    };
    let x = kernels::x64();
    let mut y = [0.0f32; N];

    measure(r, "spmv64 (CSR SpMV, static sizes)", 256, || {
        call!(
            kernels::spmv64,
            fn(&kernels::CSR<'_, f32>, &[f32; N], &mut [f32; N]) -> KResult,
            &a,
            &x,
            &mut y
        )
    });
    measure(r, "spmv_dyn (CSR SpMV, runtime sizes)", 256, || {
        call!(
            kernels::spmv_dyn,
            fn(&kernels::CSR<'_, f32>, &[f32], &mut [f32]) -> KResult,
            &a,
            &x[..],
            &mut y[..]
        )
    });
    let (Ok(c), Ok(b)) = (coo(), bsr()) else {
        return missing(r, "coo, bsr");
    };
    let (xc, mut yc) = ([1.0f64, -2.0, 0.5, 4.0], [0.0f64; 3]);
    measure(r, "spmv_coo (COO SpMV, f64)", 320, || {
        call!(
            kernels::spmv_coo,
            fn(&kernels::COO<'_, f64>, &[f64; 4], &mut [f64; 3]) -> KResult,
            &c,
            &xc,
            &mut yc
        )
    });
    let (xb, mut yb) = ([1.0f32, -2.0, 0.5, 4.0, 0.25, -1.0], [0.0f32; 4]);
    measure(r, "spmv_bsr (BSR 2x2 SpMV)", 256, || {
        call!(
            kernels::spmv_bsr,
            fn(&kernels::BSR<'_, f32>, &[f32; 6], &mut [f32; 4]) -> KResult,
            &b,
            &xb,
            &mut yb
        )
    });
    let (x8, mut y4) = ([1.0f32, -2.0, 0.5, 4.0, 0.25, -1.0, 2.0, -0.5], [0.0f32; 4]);
    measure(r, "spmv24 (2:4 SpMV)", 256, || {
        call!(
            shapes::spmv24,
            fn(&shapes::NV24<'_, f32>, &[f32; 8], &mut [f32; 4]) -> KResult,
            &shapes::W24,
            &x8,
            &mut y4
        )
    });
    let mut s = 0.0f32;
    measure(r, "total (sum into a scalar)", 256, || {
        call!(
            kernels::total,
            fn(&kernels::CSR<'_, f32>, &mut f32) -> KResult,
            &a,
            &mut s
        )
    });
    let Ok(g) = semiring::graph(&semiring::OUT_POS, &semiring::OUT_CRD) else {
        return missing(r, "the graph");
    };
    let (xg, mut yg) = ([3i32, -1, 4, 1, -5, 9, 2, -6], [0i32; 8]);
    measure(r, "pattern_spmv (pattern matrix, i32)", 256, || {
        call!(
            semiring::pattern_spmv,
            fn(&semiring::ADJ<'_, i32>, &[i32; 8], &mut [i32; 8]) -> KResult,
            &g,
            &xg,
            &mut yg
        )
    });
    measure(r, "row_max (custom reduce over unary)", 256, || {
        call!(
            semiring::row_max,
            fn(&semiring::CSR<'_, f32>, &mut [f32; N]) -> KResult,
            &a,
            &mut y
        )
    });
    lower(r, &a);
    sparse_outputs(r, &a);
    workspace_and_conversion(r);
}

type Out8 = shapes::CSR8Out<f32, Fixed<{ shapes::CAP8 }>>;

/// SpGEMM (workspace) and the transpose (conversion) into a `Fixed` output.
#[inline(never)]
fn workspace_and_conversion(r: &mut Report) {
    let (w, mut c) = match (shapes::w(), Out8::with_dims([8, 8])) {
        (Ok(w), Ok(c)) => (w, c),
        _ => return missing(r, "the 8x8 operand and output"),
    };
    measure(
        r,
        "spgemm (CSR x CSR -> CSR, workspace, Fixed)",
        640,
        || {
            call!(
                shapes::spgemm,
                fn(&shapes::CSR8<'_, f32>, &shapes::CSR8<'_, f32>, &mut Out8) -> KResult,
                &w,
                &w,
                &mut c
            )
        },
    );
    measure(r, "transpose (CSR -> CSR conversion, Fixed)", 1024, || {
        call!(
            shapes::transpose,
            fn(&shapes::CSR8<'_, f32>, &mut Out8) -> KResult,
            &w,
            &mut c
        )
    });
}

/// A failed check for operands that could not be made (never expected:
/// the other modules' checks make the same ones).
fn missing(r: &mut Report, what: &str) {
    r.run("stack: the operands of the measurements", || {
        fail!("{} could not be made", what)
    });
}

/// The dense 64x64 output is 16 KiB: not on the M0's machine.
#[cfg(small_ram)]
fn lower(r: &mut Report, _: &kernels::CSR<'_, f32>) {
    r.skip(
        "stack of lower (select into a dense 64x64 output)",
        "its 16 KiB dense output does not fit this machine's 16 KiB of RAM",
    );
}

#[cfg(not(small_ram))]
#[inline(never)]
fn lower(r: &mut Report, a: &kernels::CSR<'_, f32>) {
    let mut c = [[0.0f32; N]; N];
    measure(r, "lower (select into a dense 64x64 output)", 256, || {
        call!(
            semiring::lower,
            fn(&semiring::CSR<'_, f32>, &mut [[f32; N]; N]) -> KResult,
            a,
            &mut c
        )
    });
}

/// Sparse outputs: `add` (union) and `scale` into caller slices on every
/// core; `add` into `Fixed<575>` (6 KiB) on the cores with the RAM for it.
#[inline(never)]
fn sparse_outputs(r: &mut Report, a: &kernels::CSR<'_, f32>) {
    let Ok(b) = sparse_out::anti() else {
        return missing(r, "the anti-diagonal");
    };
    let mut pos = [0u16; N + 1];
    let mut crd = [0u8; sparse_out::CAP];
    let mut val = [0.0f32; sparse_out::CAP];
    let c = sparse_out::CSROut::<f32, Slices<'_>>::new(
        [N, N],
        [SliceBuffer::default(), SliceBuffer::new(&mut pos)],
        [SliceBuffer::default(), SliceBuffer::new(&mut crd)],
        SliceBuffer::new(&mut val),
        SliceBuffer::default(),
        SliceBuffer::default(),
        SliceBuffer::default(),
    );
    let Ok(mut c) = c else {
        return missing(r, "the Slices output");
    };
    // `&mut _`: the output type with the buffers' own lifetime.
    let add: fn(&sparse_out::CSR<'_, f32>, &sparse_out::CSR<'_, f32>, &mut _) -> KResult =
        sparse_out::add;
    measure(
        r,
        "add (CSR + CSR -> CSR, union, Slices)",
        // Rows written into reserved slots keep the row's state in
        // registers, which spill on the M0 and M3: 504-524 B measured.
        576,
        || call!(add; a, &b, &mut c),
    );
    let scale: fn(&sparse_out::CSR<'_, f32>, &mut _) -> KResult = sparse_out::scale;
    measure(
        r,
        "scale (CSR -> CSR, same pattern, Slices)",
        512,
        || call!(scale; a, &mut c),
    );
    add_fixed(r, a, &b);
}

#[cfg(small_ram)]
fn add_fixed(r: &mut Report, _: &kernels::CSR<'_, f32>, _: &kernels::CSR<'_, f32>) {
    r.skip(
        "stack of add (CSR + CSR -> CSR, union, Fixed)",
        "its Fixed<575> output does not fit this machine's 16 KiB of RAM",
    );
}

#[cfg(not(small_ram))]
#[inline(never)]
fn add_fixed(r: &mut Report, a: &kernels::CSR<'_, f32>, b: &kernels::CSR<'_, f32>) {
    type FixedOut = sparse_out::CSROut<f32, Fixed<{ sparse_out::CAP }>>;
    let Ok(mut c) = FixedOut::with_dims([N, N]) else {
        return missing(r, "the Fixed output");
    };
    measure(r, "add (CSR + CSR -> CSR, union, Fixed)", 576, || {
        call!(
            sparse_out::add,
            fn(&sparse_out::CSR<'_, f32>, &sparse_out::CSR<'_, f32>, &mut FixedOut) -> KResult,
            a,
            b,
            &mut c
        )
    });
}
