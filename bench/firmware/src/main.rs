//! Cortex-M4F benchmark firmware (QEMU mps2-an386) for the CSR SpMV that
//! `sparse_kernel!` generates, against hand-written loops.
//!
//! Each measured call is bracketed by two calls of [`bench_marker`]; QEMU's
//! TCG plugin (`bench/qemu-insn`) counts the instructions executed between
//! them, exactly. Before each measured call the firmware prints
//! `MEASURE <n> <kernel> <matrix> <rows> <nnz>`, so run.sh can match the
//! plugin's `pair <n>` lines to kernels. Then it measures stack use by
//! painting (`STACK` lines), checks every output against an exact reference
//! and exits 0 only if all agree bit for bit (1 otherwise, also on a panic
//! or HardFault).
#![no_std]
#![no_main]

mod data;
mod kernels;
mod stack;

use core::hint::black_box;
use core::panic::PanicInfo;

use cortex_m_rt::{entry, exception, ExceptionFrame};
use cortex_m_semihosting::debug::{self, EXIT_FAILURE, EXIT_SUCCESS};
use cortex_m_semihosting::hprintln;
use sparse_core::Level;

use data::{Matrix, X32, X64};
use kernels::CSR;

/// The largest row count of the matrices.
const MAX_ROWS: usize = 128;

/// Brackets a measured call; the plugin records its executions.
#[no_mangle]
#[inline(never)]
pub extern "C" fn bench_marker() {
    cortex_m::asm::nop();
}

/// Runs `f` between two markers, after announcing it.
#[inline(always)]
fn measure(n: &mut usize, kernel: &str, m: &Matrix, f: impl FnOnce()) {
    hprintln!(
        "MEASURE {} {} {} {} {}",
        *n,
        kernel,
        m.name,
        m.rows,
        m.pos[m.rows]
    );
    *n += 1;
    bench_marker();
    f();
    bench_marker();
}

/// Compares `y` with the exact reference; prints the first difference.
fn check<T: Copy + Into<f64>>(kernel: &str, m: &Matrix, y: &[T], failures: &mut usize) {
    for (i, &v) in y.iter().enumerate() {
        let want = data::reference(m, i);
        if v.into() != want {
            hprintln!(
                "FAIL {} on {}: y[{}] = {}, reference {}",
                kernel,
                m.name,
                i,
                v.into(),
                want
            );
            *failures += 1;
            return;
        }
    }
    hprintln!("ok   {} on {}", kernel, m.name);
}

/// The generated kernel and the proposed shapes must fail alike on `x`, `y`.
fn same_errors(a: &CSR<'_, f32>, x: &[f32], y: &mut [f32], failures: &mut usize) {
    let want = bench_gen_f32(black_box(a), x, y);
    let got = [
        kernels::bench_outlined_f32(black_box(a), x, y),
        kernels::bench_proposed_f32(black_box(a), x, y),
    ];
    if want.is_ok() || got.iter().any(|g| *g != want) {
        hprintln!(
            "FAIL errors of the proposed shapes {:?}, generated {:?}",
            got,
            want
        );
        *failures += 1;
    }
}

fn assemble32(m: &Matrix) -> CSR<'static, f32> {
    match CSR::<f32>::assemble(
        [m.rows, m.cols],
        [Level::dense(), Level::compressed(m.pos, m.crd)],
        m.val32,
    ) {
        Ok(a) => a,
        Err(e) => panic!("assemble {}: {}", m.name, e),
    }
}

fn assemble64(m: &Matrix) -> CSR<'static, f64> {
    match CSR::<f64>::assemble(
        [m.rows, m.cols],
        [Level::dense(), Level::compressed(m.pos, m.crd)],
        m.val64,
    ) {
        Ok(a) => a,
        Err(e) => panic!("assemble {}: {}", m.name, e),
    }
}

#[entry]
fn main() -> ! {
    hprintln!("bench-firmware: CSR SpMV on QEMU mps2-an386 (Cortex-M4F)");
    let mut failures = 0;
    let mut n = 0;
    let matrices = data::matrices();
    for m in &matrices {
        let (a32, a64) = (assemble32(m), assemble64(m));
        let (x32, x64) = (&X32[..m.cols], &X64[..m.cols]);
        let mut y32 = [f32::NAN; MAX_ROWS];
        let mut y64 = [f64::NAN; MAX_ROWS];
        let (y32, y64) = (&mut y32[..m.rows], &mut y64[..m.rows]);
        // black_box: LTO must not specialise a kernel on its call's constants.
        let (pos, crd) = (m.pos, m.crd);

        // Only a bool leaves the measured span: moving the whole `Result`
        // out would add a memcpy of `KernelError` to the count.
        let mut ok = false;
        measure(&mut n, "gen_f32", m, || {
            ok = bench_gen_f32(black_box(&a32), black_box(x32), black_box(&mut *y32)).is_ok()
        });
        if !ok {
            panic!("gen_f32 on {}: returned an error", m.name);
        }
        check("gen_f32", m, y32, &mut failures);

        y32.fill(f32::NAN);
        let mut ok = false;
        measure(&mut n, "outlined_f32", m, || {
            ok = kernels::bench_outlined_f32(black_box(&a32), black_box(x32), black_box(&mut *y32))
                .is_ok()
        });
        if !ok {
            panic!("outlined_f32 on {}: returned an error", m.name);
        }
        check("outlined_f32", m, y32, &mut failures);

        y32.fill(f32::NAN);
        let mut ok = false;
        measure(&mut n, "proposed_f32", m, || {
            ok = kernels::bench_proposed_f32(black_box(&a32), black_box(x32), black_box(&mut *y32))
                .is_ok()
        });
        if !ok {
            panic!("proposed_f32 on {}: returned an error", m.name);
        }
        check("proposed_f32", m, y32, &mut failures);

        // The proposed shapes must report the same errors as the macro's:
        // a short `x`, then a long `y`.
        let mut long_y = [0f32; MAX_ROWS + 1];
        same_errors(&a32, &x32[..m.cols - 1], y32, &mut failures);
        same_errors(&a32, x32, &mut long_y[..m.rows + 1], &mut failures);

        y32.fill(f32::NAN);
        // SAFETY: `assemble32` validated these arrays as CSR of this shape.
        measure(&mut n, "unchecked_f32", m, || unsafe {
            kernels::bench_unchecked_f32(
                black_box(pos),
                black_box(crd),
                black_box(m.val32),
                black_box(x32),
                black_box(&mut *y32),
            )
        });
        check("unchecked_f32", m, y32, &mut failures);

        y32.fill(f32::NAN);
        measure(&mut n, "safe_f32", m, || {
            kernels::bench_safe_f32(
                black_box(pos),
                black_box(crd),
                black_box(m.val32),
                black_box(x32),
                black_box(&mut *y32),
            )
        });
        check("safe_f32", m, y32, &mut failures);

        #[cfg(feature = "c-kernel")]
        for (name, f) in [
            (
                "c_f32",
                kernels::bench_c_f32 as unsafe extern "C" fn(_, _, _, _, _, _),
            ),
            ("c_nofma_f32", kernels::bench_c_nofma_f32),
        ] {
            y32.fill(f32::NAN);
            // SAFETY: `assemble32` validated these arrays as CSR of this
            // shape; `y32` has `m.rows` elements.
            measure(&mut n, name, m, || unsafe {
                f(
                    black_box(pos.as_ptr()),
                    black_box(crd.as_ptr()),
                    black_box(m.val32.as_ptr()),
                    black_box(x32.as_ptr()),
                    black_box(y32.as_mut_ptr()),
                    black_box(m.rows as u32),
                )
            });
            check(name, m, y32, &mut failures);
        }

        // Candidate loop shapes for the generated code (RESULTS.md).
        for (name, f) in [
            (
                "zip_f32",
                kernels::bench_zip_f32 as unsafe fn(&[u16], &[u8], &[f32], &[f32], &mut [f32]),
            ),
            ("ptr_f32", kernels::bench_ptr_f32),
            ("ptr2_f32", kernels::bench_ptr2_f32),
            ("iter_f32", kernels::bench_iter_f32),
        ] {
            y32.fill(f32::NAN);
            // SAFETY: `assemble32` validated these arrays as CSR of this shape.
            measure(&mut n, name, m, || unsafe {
                f(
                    black_box(pos),
                    black_box(crd),
                    black_box(m.val32),
                    black_box(x32),
                    black_box(&mut *y32),
                )
            });
            check(name, m, y32, &mut failures);
        }

        if m.rows == 64 && m.cols == 64 {
            y32.fill(f32::NAN);
            let (xs, ys): (&[f32; 64], &mut [f32; 64]) =
                match (x32.try_into(), (&mut *y32).try_into()) {
                    (Ok(xs), Ok(ys)) => (xs, ys),
                    _ => panic!("64x64 sizes"),
                };
            // Only a bool leaves the measured span: moving the whole `Result`
            // out would add a memcpy of `KernelError` to the count.
            let mut ok = false;
            measure(&mut n, "gen_static_f32", m, || {
                ok = bench_gen_static_f32(black_box(&a32), black_box(xs), black_box(ys)).is_ok()
            });
            if !ok {
                panic!("gen_static_f32 on {}: returned an error", m.name);
            }
            check("gen_static_f32", m, y32, &mut failures);
        }

        // Only a bool leaves the measured span: moving the whole `Result`
        // out would add a memcpy of `KernelError` to the count.
        let mut ok = false;
        measure(&mut n, "gen_f64", m, || {
            ok = bench_gen_f64(black_box(&a64), black_box(x64), black_box(&mut *y64)).is_ok()
        });
        if !ok {
            panic!("gen_f64 on {}: returned an error", m.name);
        }
        check("gen_f64", m, y64, &mut failures);

        y64.fill(f64::NAN);
        // SAFETY: `assemble64` validated these arrays as CSR of this shape.
        measure(&mut n, "unchecked_f64", m, || unsafe {
            kernels::bench_unchecked_f64(
                black_box(pos),
                black_box(crd),
                black_box(m.val64),
                black_box(x64),
                black_box(&mut *y64),
            )
        });
        check("unchecked_f64", m, y64, &mut failures);

        y64.fill(f64::NAN);
        measure(&mut n, "safe_f64", m, || {
            kernels::bench_safe_f64(
                black_box(pos),
                black_box(crd),
                black_box(m.val64),
                black_box(x64),
                black_box(&mut *y64),
            )
        });
        check("safe_f64", m, y64, &mut failures);
    }

    stack::report(&matrices[2], &matrices[3]);

    hprintln!("{} kernel runs, {} failed", n, failures);
    exit(failures == 0)
}

use kernels::{bench_gen_f32, bench_gen_f64, bench_gen_static_f32};

fn exit(success: bool) -> ! {
    debug::exit(if success { EXIT_SUCCESS } else { EXIT_FAILURE });
    // Only reached without a semihosting host.
    loop {
        cortex_m::asm::wfi();
    }
}

#[panic_handler]
fn panic(info: &PanicInfo) -> ! {
    hprintln!("PANIC: {}", info);
    exit(false)
}

#[exception]
unsafe fn HardFault(frame: &ExceptionFrame) -> ! {
    hprintln!("HARDFAULT: {:?}", frame);
    exit(false)
}
