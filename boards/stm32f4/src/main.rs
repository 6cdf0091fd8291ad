//! A `sparse_kernel!` CSR SpMV on an STM32F411 (Nucleo-F411RE), timed with
//! the Cortex-M4's cycle counter (DWT `CYCCNT`) and reported over defmt/RTT.
//!
//! The weights are a compile-time constant: the macro reads the 64x64 Matrix
//! Market file at build time and emits its CSR buffers (`u16` positions,
//! `u8` coordinates, `f32` values) as `static` arrays in flash. The firmware
//! multiplies it with a vector, times the call, computes the same product
//! with a dense loop over the dense form of the matrix (also in flash) and
//! requires the two to agree bit for bit (every value is a multiple of 1/64
//! and every `x[j]` of 1/8, so all sums are exact in `f32`). A mismatch
//! panics (`probe-rs run` then exits with an error); on success the user
//! LED (PA5) blinks.
#![no_std]
#![no_main]

use core::hint::black_box;

use cortex_m::peripheral::DWT;
use cortex_m_rt::entry;
use defmt_rtt as _;
use embedded_hal::delay::DelayNs;
use embedded_hal::digital::OutputPin;
use panic_probe as _;
use stm32f4xx_hal::{pac, prelude::*, rcc::Config};

sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed),
        posWidth = 16,
        crdWidth = 8
    }>

    /// The weights: CSR buffers laid out and checked at compile time, in
    /// flash. The file is the QEMU firmware's test matrix (510 entries).
    static W: tensor<64x64xf32, #CSR> = file("../qemu-mps2-an386/data/csr64.mtx");

    /// The same file as a plain `[[f32; 64]; 64]` (16 KiB of flash): the
    /// operand of the dense reference loop.
    static W_DENSE: tensor<64x64xf32> = file("../qemu-mps2-an386/data/csr64.mtx");

    /// y = W x
    fn spmv(a: &tensor<64x64xf32, #CSR>, x: &tensor<64xf32>, y: &mut tensor<64xf32>) {
        y[i] = a[i, j] * x[j];
    }
}

const N: usize = 64;
/// Timed calls after the first (cold) one; the best is reported.
const RUNS: usize = 8;
const SYSCLK_MHZ: u32 = 84;

/// The reference: a dense matrix-vector product, row by row.
#[inline(never)]
fn dense_matvec(a: &[[f32; N]; N], x: &[f32; N], y: &mut [f32; N]) {
    for (yi, row) in y.iter_mut().zip(a) {
        *yi = row.iter().zip(x).fold(0.0, |s, (a, b)| s + a * b);
    }
}

/// Core clock cycles `f` takes, from DWT `CYCCNT` (32 bits: 51 s at
/// 84 MHz before it wraps).
#[inline(always)]
fn cycles(f: impl FnOnce()) -> u32 {
    let start = DWT::cycle_count();
    f();
    DWT::cycle_count().wrapping_sub(start)
}

/// Blinks forever: the verdict for a board without a debugger attached.
fn blink(led: &mut impl OutputPin, delay: &mut impl DelayNs) -> ! {
    loop {
        led.set_high().ok();
        delay.delay_ms(500);
        led.set_low().ok();
        delay.delay_ms(500);
    }
}

#[entry]
fn main() -> ! {
    let (Some(dp), Some(mut cp)) = (pac::Peripherals::take(), cortex_m::Peripherals::take()) else {
        defmt::panic!("peripherals taken twice");
    };
    // HSI + PLL: no dependence on the board's HSE (the Nucleo's comes from
    // the ST-LINK's 8 MHz, a BlackPill has a 25 MHz crystal). 84 MHz is also
    // the F401's top speed.
    let mut rcc = dp.RCC.freeze(Config::hsi().sysclk(SYSCLK_MHZ.MHz()));
    cp.DCB.enable_trace();
    cp.DWT.enable_cycle_counter();

    let mut x = [0.0f32; N];
    for (j, xj) in x.iter_mut().enumerate() {
        *xj = (j as f32 - 32.0) / 8.0;
    }

    // The empty measurement: what reading CYCCNT twice costs.
    let overhead = cycles(|| {});
    let mut y = [f32::NAN; N];
    let mut result = Ok(());
    // black_box: LTO must not specialise the kernel on the constant data.
    let first = cycles(|| result = spmv(black_box(&W), black_box(&x), black_box(&mut y)));
    let mut best = first;
    for _ in 0..RUNS {
        let c = cycles(|| result = spmv(black_box(&W), black_box(&x), black_box(&mut y)));
        best = best.min(c);
    }
    if let Err(e) = result {
        defmt::panic!("spmv refused its operands: {}", e);
    }
    let mut want = [f32::NAN; N];
    let dense = cycles(|| dense_matvec(black_box(&W_DENSE), black_box(&x), black_box(&mut want)));

    let nnz = W.number_of_entries();
    let (spmv_cycles, dense_cycles) = (
        best.saturating_sub(overhead),
        dense.saturating_sub(overhead),
    );
    defmt::info!(
        "sparse_kernel! CSR SpMV on STM32F411 (Cortex-M4F) at {=u32} MHz: 64x64, {=usize} nnz in flash",
        rcc.clocks.sysclk().to_MHz(),
        nnz
    );
    defmt::info!(
        "spmv: {=u32} cycles ({=f32} per nnz; first call {=u32}); dense reference loop: {=u32} cycles",
        spmv_cycles,
        spmv_cycles as f32 / nnz as f32,
        first.saturating_sub(overhead),
        dense_cycles
    );
    for (i, (g, w)) in y.iter().zip(&want).enumerate() {
        if g.to_bits() != w.to_bits() {
            defmt::panic!(
                "y[{=usize}] = {=f32}, the dense reference gives {=f32}",
                i,
                g,
                w
            );
        }
    }
    defmt::info!(
        "PASS: y == dense reference, bit for bit; y[0..8] = {}",
        &y[..8]
    );

    let gpioa = dp.GPIOA.split(&mut rcc);
    let mut led = gpioa.pa5.into_push_pull_output();
    let mut delay = cp.SYST.delay(&rcc.clocks);
    blink(&mut led, &mut delay)
}
