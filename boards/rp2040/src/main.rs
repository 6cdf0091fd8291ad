//! A `sparse_kernel!` CSR SpMV on an RP2040 (Raspberry Pi Pico), timed in
//! core clock cycles with the Cortex-M0+'s SysTick and in microseconds with
//! the RP2040's 1 MHz TIMER, and reported over defmt/RTT.
//!
//! The weights are a compile-time constant: the macro reads the 64x64 Matrix
//! Market file at build time and emits its CSR buffers (`u16` positions,
//! `u8` coordinates, `f32` values) as `static` arrays in flash. The firmware
//! multiplies it with a vector, times the call, computes the same product
//! with a dense loop over the dense form of the matrix (also in flash) and
//! requires the two to agree bit for bit (every value is a multiple of 1/64
//! and every `x[j]` of 1/8, so all sums are exact in `f32`). The M0+ has no
//! FPU: `f32` arithmetic calls `__aeabi_fmul`/`__aeabi_fadd`, which
//! rp2040-hal routes to the boot ROM's float routines. A mismatch panics
//! (`probe-rs run` then exits with an error); on success the LED (GPIO25)
//! blinks.
#![no_std]
#![no_main]

use core::hint::black_box;

use cortex_m::peripheral::syst::SystClkSource;
use cortex_m::peripheral::SYST;
use defmt_rtt as _;
use embedded_hal::delay::DelayNs;
use embedded_hal::digital::OutputPin;
use panic_probe as _;
use rp2040_hal::clocks::{init_clocks_and_plls, Clock};
use rp2040_hal::{entry, gpio, pac, Sio, Timer, Watchdog};

/// The second-stage boot loader for the Pico's W25Q16JV flash, placed at
/// the start of flash by `memory.x`.
#[link_section = ".boot2"]
#[used]
pub static BOOT2_FIRMWARE: [u8; 256] = rp2040_boot2::BOOT_LOADER_W25Q080;

/// The Pico's crystal.
const XTAL_FREQ_HZ: u32 = 12_000_000;

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
/// SysTick is a 24-bit down-counter.
const SYST_MASK: u32 = 0x00FF_FFFF;

/// The reference: a dense matrix-vector product, row by row.
#[inline(never)]
fn dense_matvec(a: &[[f32; N]; N], x: &[f32; N], y: &mut [f32; N]) {
    for (yi, row) in y.iter_mut().zip(a) {
        *yi = row.iter().zip(x).fold(0.0, |s, (a, b)| s + a * b);
    }
}

/// A measurement: core clock cycles (SysTick) and microseconds (TIMER).
#[derive(Clone, Copy)]
struct Elapsed {
    cycles: u32,
    micros: u32,
}

/// Times `f`. SysTick counts core cycles down from 2^24 - 1 and wraps
/// after 134 ms at 125 MHz; the 1 MHz TIMER cross-checks it (and would
/// show a wrap as a disagreement).
#[inline(always)]
fn measure(timer: &Timer, f: impl FnOnce()) -> Elapsed {
    let t0 = timer.get_counter_low();
    let c0 = SYST::get_current();
    f();
    let c1 = SYST::get_current();
    let t1 = timer.get_counter_low();
    Elapsed {
        cycles: c0.wrapping_sub(c1) & SYST_MASK,
        micros: t1.wrapping_sub(t0),
    }
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
    let (Some(mut dp), Some(mut cp)) = (pac::Peripherals::take(), pac::CorePeripherals::take())
    else {
        defmt::panic!("peripherals taken twice");
    };
    let mut watchdog = Watchdog::new(dp.WATCHDOG);
    // 12 MHz crystal -> PLL: the system clock at 125 MHz.
    let Ok(clocks) = init_clocks_and_plls(
        XTAL_FREQ_HZ,
        dp.XOSC,
        dp.CLOCKS,
        dp.PLL_SYS,
        dp.PLL_USB,
        &mut dp.RESETS,
        &mut watchdog,
    ) else {
        defmt::panic!("clock setup failed");
    };
    let timer = Timer::new(dp.TIMER, &mut dp.RESETS, &clocks);
    cp.SYST.set_clock_source(SystClkSource::Core);
    cp.SYST.set_reload(SYST_MASK);
    cp.SYST.clear_current();
    cp.SYST.enable_counter();

    let mut x = [0.0f32; N];
    for (j, xj) in x.iter_mut().enumerate() {
        *xj = (j as f32 - 32.0) / 8.0;
    }

    // The empty measurement: what reading SysTick twice costs.
    let overhead = measure(&timer, || {}).cycles;
    let mut y = [f32::NAN; N];
    let mut result = Ok(());
    // black_box: LTO must not specialise the kernel on the constant data.
    let first = measure(&timer, || {
        result = spmv(black_box(&W), black_box(&x), black_box(&mut y))
    });
    let mut best = first;
    for _ in 0..RUNS {
        let e = measure(&timer, || {
            result = spmv(black_box(&W), black_box(&x), black_box(&mut y))
        });
        if e.cycles < best.cycles {
            best = e;
        }
    }
    if let Err(e) = result {
        defmt::panic!("spmv refused its operands: {}", e);
    }
    let mut want = [f32::NAN; N];
    let dense = measure(&timer, || {
        dense_matvec(black_box(&W_DENSE), black_box(&x), black_box(&mut want))
    });

    let nnz = W.number_of_entries();
    let (spmv_cycles, dense_cycles) = (
        best.cycles.saturating_sub(overhead),
        dense.cycles.saturating_sub(overhead),
    );
    defmt::info!(
        "sparse_kernel! CSR SpMV on RP2040 (Cortex-M0+) at {=u32} MHz: 64x64, {=usize} nnz in flash",
        clocks.system_clock.freq().to_MHz(),
        nnz
    );
    defmt::info!(
        "spmv: {=u32} cycles, {=u32} us ({=f32} cycles per nnz; first call {=u32} cycles); dense reference loop: {=u32} cycles, {=u32} us",
        spmv_cycles,
        best.micros,
        spmv_cycles as f32 / nnz as f32,
        first.cycles.saturating_sub(overhead),
        dense_cycles,
        dense.micros
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

    let sio = Sio::new(dp.SIO);
    let pins = gpio::Pins::new(dp.IO_BANK0, dp.PADS_BANK0, sio.gpio_bank0, &mut dp.RESETS);
    let mut led = pins.gpio25.into_push_pull_output();
    let mut delay = timer;
    blink(&mut led, &mut delay)
}
