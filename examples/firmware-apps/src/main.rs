//! Firmware applications of sparse-core, each a `sparse_kernel!` over
//! compile-time constants in flash, checked against desktop references
//! (`data/gen_*.py`): a pruned 2-layer MLP, a sparse Kalman covariance
//! step, PageRank and a pruned int8 MLP with TFLite's arithmetic. One
//! semihosting line per application; QEMU's exit status is the verdict
//! (0 = every application matched, 1 = a mismatch, a panic or a
//! HardFault).
#![no_std]
#![no_main]

mod check;
mod kalman;
mod mlp;
mod mlp_int8;
mod pagerank;

use core::panic::PanicInfo;

use cortex_m_rt::{entry, exception, ExceptionFrame};
use cortex_m_semihosting::debug::{self, EXIT_FAILURE, EXIT_SUCCESS};
use cortex_m_semihosting::hprintln;

#[entry]
fn main() -> ! {
    hprintln!(
        "sparse-core firmware apps on {} (QEMU {})",
        env!("FW_TARGET"),
        env!("FW_MACHINE")
    );
    let results = [mlp::run(), kalman::run(), pagerank::run(), mlp_int8::run()];
    let failed = results.iter().filter(|ok| !**ok).count();
    hprintln!("{} passed, {} failed", results.len() - failed, failed);
    exit(failed == 0)
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
