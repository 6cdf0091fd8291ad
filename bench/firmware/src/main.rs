//! Cortex-M4F benchmark firmware (QEMU mps2-an386) for the CSR SpMV that
//! `sparse_kernel!` generates, against hand-written loops, and for the
//! generated BSR 2x2 / 4x4 and 2:4 SpMVs against CSR on the same weights,
//! C block loops and dense loops (`blocks`, `blockdata`, `blockkernels`).
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

#[cfg(not(small_flash))]
mod blockdata;
#[cfg(not(small_flash))]
mod blockkernels;
mod data;
mod kernels;
mod stack;

use core::hint::black_box;
use core::panic::PanicInfo;

use cortex_m_rt::{entry, exception, ExceptionFrame};
use cortex_m_semihosting::debug::{self, EXIT_FAILURE, EXIT_SUCCESS};
use cortex_m_semihosting::hprintln;
use sparse_core::Level;

#[cfg(not(small_flash))]
use blockdata::BlockMatrix;
#[cfg(not(small_flash))]
use blockkernels::{BSR2, BSR4, NV24, NV24P};
use data::{Matrix, X32, X64};
use kernels::CSR;
#[cfg(not(small_flash))]
use sparse_core::DenseView;

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
    hprintln!(
        "bench-firmware: SpMV on {} under QEMU",
        env!("BENCH_TARGET")
    );
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

    // The block-format matrices (about 240 KiB) do not fit the M0
    // machine's 256 KiB of flash with the rest: CSR only there.
    #[cfg(not(small_flash))]
    blocks(&mut n, &mut failures);

    stack::report(&matrices[2], &matrices[3]);

    hprintln!("{} kernel runs, {} failed", n, failures);
    exit(failures == 0)
}

use kernels::{bench_gen_f32, bench_gen_f64, bench_gen_static_f32};

#[cfg(not(small_flash))]
/// [`measure`] for the block-format matrices: `MEASURE` lines carry the
/// stored values (= nonzeros) as their count.
#[inline(always)]
fn measure_b(n: &mut usize, kernel: &str, m: &BlockMatrix, f: impl FnOnce()) {
    hprintln!("MEASURE {} {} {} {} {}", *n, kernel, m.name, m.rows, m.nnz);
    *n += 1;
    bench_marker();
    f();
    bench_marker();
}

#[cfg(not(small_flash))]
/// Compares `y` with the exact reference of a block-format matrix; bit for
/// bit (every sum is exact, see `blockdata`).
fn check_b(kernel: &str, m: &BlockMatrix, y: &mut [f32], failures: &mut usize) {
    for (i, &v) in y.iter().enumerate() {
        let want = blockdata::reference(m, &X64, i);
        if f64::from(v) != want {
            hprintln!(
                "FAIL {} on {}: y[{}] = {}, reference {}",
                kernel,
                m.name,
                i,
                v,
                want
            );
            *failures += 1;
            y.fill(f32::NAN);
            return;
        }
    }
    hprintln!("ok   {} on {}", kernel, m.name);
    y.fill(f32::NAN);
}

#[cfg(not(small_flash))]
/// Issue 11, item 7: SpMV over BSR 2x2 / 4x4 and 2:4 against CSR on the
/// same weights, a dense loop and C block loops.
fn blocks(n: &mut usize, failures: &mut usize) {
    for m in &blockdata::matrices() {
        let x = black_box(&X32[..m.cols]);
        let mut ybuf = [f32::NAN; MAX_ROWS];
        let y = &mut ybuf[..m.rows];
        let (pos, crd, val) = m.csr;

        // The generated CSR kernel on the same weights.
        let a = match CSR::<f32>::assemble(
            [m.rows, m.cols],
            [Level::dense(), Level::compressed(pos, crd)],
            val,
        ) {
            Ok(a) => a,
            Err(e) => panic!("assemble CSR {}: {}", m.name, e),
        };
        let mut ok = false;
        measure_b(n, "gen_f32", m, || {
            ok = bench_gen_f32(black_box(&a), black_box(x), black_box(&mut *y)).is_ok()
        });
        if !ok {
            panic!("gen_f32 on {}: returned an error", m.name);
        }
        check_b("gen_f32", m, y, failures);

        #[cfg(feature = "c-kernel")]
        for (name, f) in [
            (
                "c_f32",
                kernels::bench_c_f32 as unsafe extern "C" fn(_, _, _, _, _, _),
            ),
            ("c_nofma_f32", kernels::bench_c_nofma_f32),
        ] {
            // SAFETY: `assemble` validated these arrays as CSR of this shape.
            measure_b(n, name, m, || unsafe {
                f(
                    black_box(pos.as_ptr()),
                    black_box(crd.as_ptr()),
                    black_box(val.as_ptr()),
                    black_box(x.as_ptr()),
                    black_box(y.as_mut_ptr()),
                    black_box(m.rows as u32),
                )
            });
            check_b(name, m, y, failures);
        }

        // BSR 2x2 and 4x4: generated, then C.
        #[allow(clippy::type_complexity)]
        let bsr: [(&str, &str, &str, Option<blockdata::Compressed>, usize); 2] = [
            ("bsr2_f32", "c_bsr2_f32", "c_bsr2_nofma_f32", m.bsr2, 2),
            ("bsr4_f32", "c_bsr4_f32", "c_bsr4_nofma_f32", m.bsr4, 4),
        ];
        for (gen, cf, cn, parts, b) in bsr {
            let Some((bpos, bcrd, bval)) = parts else {
                continue;
            };
            let levels = [
                Level::dense(),
                Level::compressed(bpos, bcrd),
                Level::dense(),
                Level::dense(),
            ];
            let mut ok = false;
            if b == 2 {
                let a = match BSR2::<f32>::assemble([m.rows, m.cols], levels, bval) {
                    Ok(a) => a,
                    Err(e) => panic!("assemble BSR2 {}: {}", m.name, e),
                };
                measure_b(n, gen, m, || {
                    ok = blockkernels::bench_bsr2_f32(black_box(&a), x, black_box(&mut *y)).is_ok()
                });
            } else {
                let a = match BSR4::<f32>::assemble([m.rows, m.cols], levels, bval) {
                    Ok(a) => a,
                    Err(e) => panic!("assemble BSR4 {}: {}", m.name, e),
                };
                measure_b(n, gen, m, || {
                    ok = blockkernels::bench_bsr4_f32(black_box(&a), x, black_box(&mut *y)).is_ok()
                });
            }
            if !ok {
                panic!("{} on {}: returned an error", gen, m.name);
            }
            check_b(gen, m, y, failures);

            // The proposed loop shape, by hand (RESULTS.md).
            let (prop, f): (&str, blockkernels::BsrSlices) = if b == 2 {
                ("bsr2_prop_f32", blockkernels::bench_bsr2_prop_f32)
            } else {
                ("bsr4_prop_f32", blockkernels::bench_bsr4_prop_f32)
            };
            // SAFETY: `assemble` validated these arrays as BSR of this shape,
            // `x` and `y` have its sizes.
            measure_b(n, prop, m, || unsafe {
                f(
                    black_box(bpos),
                    black_box(bcrd),
                    black_box(bval),
                    x,
                    black_box(&mut *y),
                )
            });
            check_b(prop, m, y, failures);

            #[cfg(feature = "c-kernel")]
            {
                let fs: [unsafe extern "C" fn(_, _, _, _, _, _); 2] = if b == 2 {
                    [
                        blockkernels::bench_c_bsr2_f32,
                        blockkernels::bench_c_bsr2_nofma_f32,
                    ]
                } else {
                    [
                        blockkernels::bench_c_bsr4_f32,
                        blockkernels::bench_c_bsr4_nofma_f32,
                    ]
                };
                for (name, f) in [cf, cn].into_iter().zip(fs) {
                    // SAFETY: `assemble` validated these arrays as BSR of
                    // this shape; `y` has `m.rows` elements.
                    measure_b(n, name, m, || unsafe {
                        f(
                            black_box(bpos.as_ptr()),
                            black_box(bcrd.as_ptr()),
                            black_box(bval.as_ptr()),
                            black_box(x.as_ptr()),
                            black_box(y.as_mut_ptr()),
                            black_box((m.rows / b) as u32),
                        )
                    });
                    check_b(name, m, y, failures);
                }
            }
            #[cfg(not(feature = "c-kernel"))]
            let _ = (cf, cn);
        }

        // 2:4: generated, then C.
        if let Some((ncrd, nval)) = m.nv24 {
            let a = match NV24::<f32>::assemble(
                [m.rows, m.cols],
                [Level::dense(), Level::dense(), Level::structured(ncrd)],
                nval,
            ) {
                Ok(a) => a,
                Err(e) => panic!("assemble NV24 {}: {}", m.name, e),
            };
            let mut ok = false;
            measure_b(n, "nv24_f32", m, || {
                ok = blockkernels::bench_nv24_f32(black_box(&a), x, black_box(&mut *y)).is_ok()
            });
            if !ok {
                panic!("nv24_f32 on {}: returned an error", m.name);
            }
            check_b("nv24_f32", m, y, failures);

            // The same weights with 2-bit coordinates, four per byte.
            let mut packed = [sparse_core::Packed2::default(); 1024];
            let Some(bytes) = sparse_core::Packed2::pack(ncrd, &mut packed) else {
                panic!("pack NV24 {}: more than 4096 coordinates", m.name);
            };
            let a = match NV24P::<f32>::assemble(
                [m.rows, m.cols],
                [
                    Level::dense(),
                    Level::dense(),
                    Level::structured(&packed[..bytes]),
                ],
                nval,
            ) {
                Ok(a) => a,
                Err(e) => panic!("assemble NV24P {}: {}", m.name, e),
            };
            let mut ok = false;
            measure_b(n, "nv24p_f32", m, || {
                ok = blockkernels::bench_nv24p_f32(black_box(&a), x, black_box(&mut *y)).is_ok()
            });
            if !ok {
                panic!("nv24p_f32 on {}: returned an error", m.name);
            }
            check_b("nv24p_f32", m, y, failures);

            // SAFETY: `assemble` validated these arrays as 2:4 of this shape,
            // `x` and `y` have its sizes.
            measure_b(n, "nv24_prop_f32", m, || unsafe {
                blockkernels::bench_nv24_prop_f32(
                    black_box(ncrd),
                    black_box(nval),
                    x,
                    black_box(&mut *y),
                )
            });
            check_b("nv24_prop_f32", m, y, failures);

            #[cfg(feature = "c-kernel")]
            for (name, f) in [
                (
                    "c_nv24_f32",
                    blockkernels::bench_c_nv24_f32 as unsafe extern "C" fn(_, _, _, _, _, _),
                ),
                ("c_nv24_nofma_f32", blockkernels::bench_c_nv24_nofma_f32),
            ] {
                // SAFETY: `assemble` validated these arrays as 2:4 of this
                // shape; `y` has `m.rows` elements.
                measure_b(n, name, m, || unsafe {
                    f(
                        black_box(ncrd.as_ptr()),
                        black_box(nval.as_ptr()),
                        black_box(x.as_ptr()),
                        black_box(y.as_mut_ptr()),
                        black_box(m.rows as u32),
                        black_box((m.cols / 4) as u32),
                    )
                });
                check_b(name, m, y, failures);
            }
        }

        // Dense: hand-written Rust, generated, C.
        measure_b(n, "dense_f32", m, || {
            blockkernels::bench_dense_f32(black_box(m.dense), x, black_box(&mut *y))
        });
        check_b("dense_f32", m, y, failures);

        let ad = match DenseView::new(m.dense, [m.rows, m.cols]) {
            Ok(a) => a,
            Err(e) => panic!("dense view {}: {}", m.name, e),
        };
        let mut ok = false;
        measure_b(n, "gen_dense_f32", m, || {
            ok = blockkernels::bench_gen_dense_f32(black_box(ad), x, black_box(&mut *y)).is_ok()
        });
        if !ok {
            panic!("gen_dense_f32 on {}: returned an error", m.name);
        }
        check_b("gen_dense_f32", m, y, failures);

        #[cfg(feature = "c-kernel")]
        for (name, f) in [
            (
                "c_dense_f32",
                blockkernels::bench_c_dense_f32 as unsafe extern "C" fn(_, _, _, _, _),
            ),
            ("c_dense_nofma_f32", blockkernels::bench_c_dense_nofma_f32),
        ] {
            // SAFETY: `m.dense` holds `m.rows * m.cols` values, `x` `m.cols`,
            // `y` `m.rows`.
            measure_b(n, name, m, || unsafe {
                f(
                    black_box(m.dense.as_ptr()),
                    black_box(x.as_ptr()),
                    black_box(y.as_mut_ptr()),
                    black_box(m.rows as u32),
                    black_box(m.cols as u32),
                )
            });
            check_b(name, m, y, failures);
        }
    }
}

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
