//! Firmware tests of sparse-core on QEMU's mps2-an386 (Cortex-M4F).
//!
//! Every tensor is assembled in place from `static` arrays in flash and
//! checked against a dense reference; malformed flash data must be refused
//! with the exact `AssembleError`. Results go out through semihosting, one
//! line per check, then `N passed, M failed`. The verdict is QEMU's exit
//! status: 0 when every check passed, 1 otherwise (also after a panic or a
//! HardFault), so `cargo run --release` in this directory is the test.
#![no_std]
#![no_main]
// Checks return their failure message by value: without an allocator there
// is nothing to box it in, and a failed check is the rare, slow path.
#![allow(clippy::result_large_err)]

mod checks;
mod data;
mod formats;
mod kernels;
mod malformed;
mod report;
mod semiring;
mod sparse_out;

use core::panic::PanicInfo;

use cortex_m_rt::{entry, exception, ExceptionFrame};
use cortex_m_semihosting::debug::{self, EXIT_FAILURE, EXIT_SUCCESS};
use cortex_m_semihosting::hprintln;

#[entry]
fn main() -> ! {
    hprintln!(
        "sparse-core firmware tests on {} (QEMU {})",
        env!("FW_TARGET"),
        env!("FW_MACHINE")
    );
    let mut report = report::Report::new();
    checks::run_all(&mut report);
    hprintln!("{} passed, {} failed", report.passed(), report.failed());
    exit(report.failed() == 0)
}

fn exit(success: bool) -> ! {
    debug::exit(if success { EXIT_SUCCESS } else { EXIT_FAILURE });
    // Only reached without a semihosting host (a real board, no debugger).
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
