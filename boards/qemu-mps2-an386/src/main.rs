//! Firmware tests of sparse-core on QEMU's mps2-an386 (Cortex-M4F).
//!
//! Every tensor is assembled in place from `static` arrays in flash and
//! checked against a dense reference; malformed flash data must be refused
//! with the exact `AssembleError`. Results go out as defmt frames over
//! semihosting (`defmt-semihosting`), one line per check, then
//! `N passed, M failed`; the runner (`qemu-defmt.sh`) decodes them with
//! `defmt-print`, and `scripts/firmware-snapshot.sh` compares the decoded
//! text with `expected/<target>.txt`. The verdict is QEMU's exit status: 0
//! when every check passed, 1 otherwise (also after a panic or a
//! HardFault), so `cargo run --release` in this directory is the test.
#![no_std]
#![no_main]
// Checks return their failure message by value: without an allocator there
// is nothing to box it in, and a failed check is the rare, slow path.
#![allow(clippy::result_large_err)]

mod checks;
mod data;
mod formats;
mod int8;
mod int8_packed;
mod kernels;
mod malformed;
mod report;
mod semiring;
mod shapes;
mod sparse_out;
mod stack;

use core::panic::PanicInfo;

use core::sync::atomic::{AtomicBool, Ordering};

// cortex-m's `critical-section-single-core` implementation, which
// defmt-semihosting's logger takes (nothing else names the crate).
use cortex_m as _;
use cortex_m_rt::{entry, exception, ExceptionFrame};
// The `#[global_logger]`: defmt frames to semihosting stdout. Nothing else
// may write there (no `hprintln!`): it would corrupt the frames.
use defmt_semihosting as _;

#[entry]
fn main() -> ! {
    defmt::info!(
        "sparse-core firmware tests on {=str} (QEMU {=str})",
        env!("FW_TARGET"),
        env!("FW_MACHINE")
    );
    let mut report = report::Report::new();
    checks::run_all(&mut report);
    defmt::info!(
        "{=u32} passed, {=u32} failed",
        report.passed(),
        report.failed()
    );
    exit(report.failed() == 0)
}

fn exit(success: bool) -> ! {
    // SYS_EXIT_EXTENDED: QEMU exits with exactly this status.
    semihosting::process::exit(if success { 0 } else { 1 })
}

/// Set by the first panic: a panic while logging (the logger is taken)
/// must not log again, which would panic inside the panic handler.
/// (Load and store, not `swap`: the M0 has no atomic read-modify-write;
/// one core, no interrupts.)
static PANICKED: AtomicBool = AtomicBool::new(false);

#[panic_handler]
fn panic(info: &PanicInfo) -> ! {
    if !PANICKED.load(Ordering::Relaxed) {
        PANICKED.store(true, Ordering::Relaxed);
        defmt::error!("PANIC: {}", defmt::Display2Format(info));
    }
    exit(false)
}

// `defmt::panic!` and friends (not used here) end the same way.
#[defmt::panic_handler]
fn defmt_panic() -> ! {
    exit(false)
}

#[exception]
unsafe fn HardFault(frame: &ExceptionFrame) -> ! {
    defmt::error!("HARDFAULT: {}", defmt::Debug2Format(frame));
    exit(false)
}
