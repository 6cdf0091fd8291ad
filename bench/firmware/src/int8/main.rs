//! The int8 fully connected benchmark firmware (`run.sh int8`): CMSIS-NN's
//! `arm_fully_connected_s8`, hand-written sparse C kernels and the
//! `sparse_kernel!` layers over CSR, 2:4 and BSR 4x4, on the same weights
//! (`int8/gen.py`), two layers, under QEMU.
//!
//! For every variant of [`variants::VARIANTS`] it runs the measured pass
//! (the layer's real quantization) between two calls of [`bench_marker`],
//! announced by `MEASURE <n> <variant> <layer> <rows> <nnz>` (QEMU's
//! counting plugin reports `pair <n> <instructions>`; pair 0 is an empty
//! bracket, the markers' own cost), then the exact pass (scale 1.0, not
//! measured), and compares both outputs with `gen.py`'s expected ones bit
//! for bit. `DATA <variant> <layer> <bytes>` lines give the weight bytes
//! each variant reads. Exits 0 only if every output matched (1 on any
//! mismatch, a kernel error, a panic or a HardFault).
#![no_std]
#![no_main]

mod hand;
mod kernels;
mod layers;
mod variants;

use core::panic::PanicInfo;

use cortex_m_rt::{entry, exception, ExceptionFrame};
use cortex_m_semihosting::debug::{self, EXIT_FAILURE, EXIT_SUCCESS};
use cortex_m_semihosting::hprintln;

use hand::HandData;

/// One layer: its shape, input, dense weights (CMSIS-NN's), offsets, the
/// two passes and the hand-written kernels' formats.
pub struct Layer {
    pub name: &'static str,
    pub rows: usize,
    pub cols: usize,
    pub x: &'static [i8],
    pub dense: &'static [i8],
    pub nnz: usize,
    pub in_off: i32,
    pub out_off: i32,
    pub measured: Quant,
    pub exact: Quant,
    pub hand: &'static HandData,
}

/// The quantization of one pass and its expected output.
pub struct Quant {
    pub bias: &'static [i32],
    /// `bias` with the input offset folded in (the hand-written kernels').
    pub bias_folded: &'static [i32],
    pub mult: i32,
    pub shift: i32,
    pub expected: &'static [i8],
}

/// A measured kernel on one layer.
pub struct Variant {
    pub name: &'static str,
    pub layer: &'static Layer,
    pub run: fn(&Layer, &Quant, &mut [i32], &mut [i8]) -> bool,
}

/// The largest row count.
const MAX_ROWS: usize = 128;

/// Brackets a measured call; the plugin records its executions.
#[no_mangle]
#[inline(never)]
pub extern "C" fn bench_marker() {
    cortex_m::asm::nop();
}

/// The pass's expected output; with `inject-failure`, one value off, so
/// the check must fail.
fn expected(q: &Quant, rows: usize) -> [i8; MAX_ROWS] {
    let mut e = [0; MAX_ROWS];
    e[..rows].copy_from_slice(&q.expected[..rows]);
    #[cfg(feature = "inject-failure")]
    {
        e[rows / 2] = e[rows / 2].wrapping_add(1);
    }
    e
}

/// Runs `v` on one pass; compares with the expected output.
fn run(v: &Variant, exact: bool, n: &mut usize) -> bool {
    let l = v.layer;
    let q = if exact { &l.exact } else { &l.measured };
    let mut acc = [0x5a5a_5a5a_i32; MAX_ROWS];
    let mut y = [0x5a_i8; MAX_ROWS];
    let (acc, y) = (&mut acc[..l.rows], &mut y[..l.rows]);
    let ok = if exact {
        (v.run)(l, q, acc, y)
    } else {
        hprintln!("MEASURE {} {} {} {} {}", *n, v.name, l.name, l.rows, l.nnz);
        *n += 1;
        bench_marker();
        let ok = (v.run)(l, q, acc, y);
        bench_marker();
        ok
    };
    let pass = if exact { "exact" } else { "measured" };
    if !ok {
        hprintln!(
            "FAIL {} on {} ({} pass): the kernel reported an error",
            v.name,
            l.name,
            pass
        );
        return false;
    }
    let want = expected(q, l.rows);
    let expected = &want[..l.rows];
    let bad = y.iter().zip(expected).filter(|(a, b)| a != b).count();
    if bad != 0 {
        let i = y
            .iter()
            .zip(expected)
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        hprintln!(
            "FAIL {} on {} ({} pass): {} outputs differ, first y[{}] = {}, expected {}",
            v.name,
            l.name,
            pass,
            bad,
            i,
            y[i],
            expected[i]
        );
        return false;
    }
    hprintln!("ok {} on {} ({} pass)", v.name, l.name, pass);
    true
}

/// The bytes of weight data a variant reads: the constant's buffers for
/// the generated kernels, the packed arrays for the hand-written ones,
/// the dense matrix for CMSIS-NN; biases excluded (the same in all).
fn data_bytes(v: &Variant) -> usize {
    let l = v.layer;
    let h = l.hand;
    match v.name {
        "cmsis_nn" => l.dense.len(),
        "c_csr" | "c_csr_unroll4" | "c_csr_smlad" => {
            2 * h.csr_seg.len() + h.csr_col.len() + h.csr_val.len()
        }
        "c_24" => h.m24.len() + h.v24.len(),
        _ => layers::generated_bytes(v.name, l.rows),
    }
}

#[entry]
fn main() -> ! {
    hprintln!("int8 fully connected layers, {}", env!("BENCH_TARGET"));
    // Pair 0: an empty bracket, the markers' own cost.
    bench_marker();
    bench_marker();
    let mut n = 1;
    let mut ok = true;
    for v in variants::VARIANTS {
        hprintln!("DATA {} {} {}", v.name, v.layer.name, data_bytes(v));
        ok &= run(v, false, &mut n);
        ok &= run(v, true, &mut n);
    }
    if ok {
        hprintln!(
            "all {} variants match the expected outputs",
            variants::VARIANTS.len()
        );
    }
    exit(ok)
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
    hprintln!("FAIL panic: {}", info);
    exit(false)
}

#[exception]
unsafe fn HardFault(frame: &ExceptionFrame) -> ! {
    hprintln!("FAIL HardFault at {:#x}", frame.pc());
    exit(false)
}
