//! Stack use by painting: fill the free stack below the current stack
//! pointer with a pattern, run the call, and find the lowest word that no
//! longer holds the pattern. Nothing else runs (no interrupts are enabled),
//! so that is exactly what the call touched. The closure that makes the call
//! reads the stack pointer right before it (outgoing stack arguments are
//! part of the caller's frame on Arm, so this is the stack pointer at the
//! kernel's entry); the kernel's use is that value minus the lowest touched
//! address, callees (soft-float helpers) included. `STACK <kernel> <bytes>`
//! lines report it.

use core::hint::black_box;
use core::ptr;

use cortex_m_semihosting::hprintln;
use sparse_core::Level;

use crate::data::{Matrix, X32, X64};
use crate::kernels::{self, CSR};

const PATTERN: u32 = 0xC0DE_5AC4;
/// Bytes painted below the stack pointer: far more than any kernel needs.
const PAINT: usize = 4096;

/// The bytes of stack below the stack pointer `f` returns (read right
/// before its call) that `f` touched.
#[inline(never)]
fn depth(f: &mut dyn FnMut() -> usize) -> usize {
    let sp = cortex_m::register::msp::read() as usize;
    let bottom = sp - PAINT;
    let mut a = bottom;
    while a < sp {
        // SAFETY: [bottom, sp) is free stack (below the stack pointer, no
        // interrupts enabled) inside the 4 MB RAM region; nothing lives there.
        unsafe { ptr::write_volatile(a as *mut u32, PATTERN) };
        a += 4;
    }
    let entry = f();
    let mut a = bottom;
    // SAFETY: as above; the words are only read.
    while a < sp && unsafe { ptr::read_volatile(a as *const u32) } == PATTERN {
        a += 4;
    }
    entry.saturating_sub(a)
}

/// The stack pointer now (in a closure: at the call that follows).
#[inline(always)]
fn sp() -> usize {
    cortex_m::register::msp::read() as usize
}

fn line(kernel: &str, bytes: usize) {
    hprintln!("STACK {} {}", kernel, bytes);
}

/// Prints `STACK <kernel> <bytes> <baseline>` for every kernel on `m`
/// (and the static-size kernel on `rand`).
pub fn report(m: &Matrix, rand: &Matrix) {
    let a32 = match CSR::<f32>::assemble(
        [m.rows, m.cols],
        [Level::dense(), Level::compressed(m.pos, m.crd)],
        m.val32,
    ) {
        Ok(a) => a,
        Err(e) => panic!("assemble: {}", e),
    };
    let a64 = match CSR::<f64>::assemble(
        [m.rows, m.cols],
        [Level::dense(), Level::compressed(m.pos, m.crd)],
        m.val64,
    ) {
        Ok(a) => a,
        Err(e) => panic!("assemble: {}", e),
    };
    let mut y32 = [0f32; 128];
    let mut y64 = [0f64; 128];
    let (x32, x64) = (&X32[..m.cols], &X64[..m.cols]);
    let (y32, y64) = (&mut y32[..m.rows], &mut y64[..m.rows]);
    let (pos, crd) = (m.pos, m.crd);

    let d = depth(&mut || {
        let sp = sp();
        let _ = black_box(kernels::bench_gen_f32(
            black_box(&a32),
            black_box(x32),
            black_box(&mut *y32),
        ));
        sp
    });
    line("gen_f32", d);
    let d = depth(&mut || {
        let sp = sp();
        let _ = black_box(kernels::bench_gen_f64(
            black_box(&a64),
            black_box(x64),
            black_box(&mut *y64),
        ));
        sp
    });
    line("gen_f64", d);
    // SAFETY (both unchecked calls): the arrays were validated by `assemble`.
    let d = depth(&mut || unsafe {
        let sp = sp();
        kernels::bench_unchecked_f32(
            black_box(pos),
            black_box(crd),
            black_box(m.val32),
            black_box(x32),
            black_box(&mut *y32),
        );
        sp
    });
    line("unchecked_f32", d);
    let d = depth(&mut || unsafe {
        let sp = sp();
        kernels::bench_unchecked_f64(
            black_box(pos),
            black_box(crd),
            black_box(m.val64),
            black_box(x64),
            black_box(&mut *y64),
        );
        sp
    });
    line("unchecked_f64", d);
    let d = depth(&mut || {
        let sp = sp();
        kernels::bench_safe_f32(
            black_box(pos),
            black_box(crd),
            black_box(m.val32),
            black_box(x32),
            black_box(&mut *y32),
        );
        sp
    });
    line("safe_f32", d);
    let d = depth(&mut || {
        let sp = sp();
        kernels::bench_safe_f64(
            black_box(pos),
            black_box(crd),
            black_box(m.val64),
            black_box(x64),
            black_box(&mut *y64),
        );
        sp
    });
    line("safe_f64", d);
    // The C loop (gcc -O2 for this core), on the same matrix.
    #[cfg(feature = "c-kernel")]
    {
        let d = depth(&mut || unsafe {
            let sp = sp();
            // SAFETY: `assemble` validated these arrays as CSR of this
            // shape; `y32` has `m.rows` elements.
            kernels::bench_c_f32(
                black_box(pos.as_ptr()),
                black_box(crd.as_ptr()),
                black_box(m.val32.as_ptr()),
                black_box(x32.as_ptr()),
                black_box(y32.as_mut_ptr()),
                black_box(m.rows as u32),
            );
            sp
        });
        line("c_f32", d);
    }

    let ar = match CSR::<f32>::assemble(
        [rand.rows, rand.cols],
        [Level::dense(), Level::compressed(rand.pos, rand.crd)],
        rand.val32,
    ) {
        Ok(a) => a,
        Err(e) => panic!("assemble: {}", e),
    };
    let xs: &[f32; 64] = match X32[..64].try_into() {
        Ok(x) => x,
        Err(_) => panic!("64 columns"),
    };
    let mut ys = [0f32; 64];
    let d = depth(&mut || {
        let sp = sp();
        let _ = black_box(kernels::bench_gen_static_f32(
            black_box(&ar),
            black_box(xs),
            black_box(&mut ys),
        ));
        sp
    });
    line("gen_static_f32", d);
}
