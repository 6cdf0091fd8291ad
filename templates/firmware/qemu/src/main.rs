//! The model under QEMU: one inference on the model's test input, checked
//! against its expected output, and the weights' pattern as a spy plot.
//! QEMU's exit status is the verdict, so CI needs no board. A binary for
//! real hardware is the same `main` with the board's HAL in place of
//! semihosting (see the template's README).
#![no_std]
#![no_main]

use core::panic::PanicInfo;

use cortex_m_rt::{entry, exception, ExceptionFrame};
use cortex_m_semihosting::debug::{self, EXIT_FAILURE, EXIT_SUCCESS};
use cortex_m_semihosting::{hprint, hprintln};

#[entry]
fn main() -> ! {
    hprintln!("model on {}", env!("FW_TARGET"));
    // The weights' pattern, in braille (2x4 entries per character); the
    // plot ends its own lines.
    hprint!("{}", model::W1.spy(8, 2));
    let mut y = [0.0f32; 8];
    // Errors are values: report them instead of unwrapping, which keeps
    // the panic machinery out of the image.
    let ok = match model::infer(&model::TEST_INPUT, &mut y) {
        Ok(()) => y == model::TEST_OUTPUT,
        Err(e) => {
            hprintln!("error: {}", e);
            false
        }
    };
    hprintln!("y = {:?}", y);
    hprintln!("{}", if ok { "ok" } else { "FAIL" });
    exit(ok)
}

fn exit(success: bool) -> ! {
    debug::exit(if success { EXIT_SUCCESS } else { EXIT_FAILURE });
    // Only reached without a semihosting host (a board without a debugger).
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
