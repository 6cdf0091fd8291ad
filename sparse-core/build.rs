//! Probes what `asm!` may use on this Arm target, compiling and assembling
//! a one-instruction function with the build's compiler, target and flags:
//!
//! - `cfg(sk_asm_vfma)`: FPU registers, so that `#[fma]` kernels can use
//!   one `vfma.f32` (`src/kernel/fma.rs`). Rust 1.95 rejects the `sreg`
//!   class on the `eabihf` Cortex-M targets (their single-precision FPU is
//!   not the `vfp2` feature it asks for), later releases accept it
//!   (rust-lang/rust#159988); a VFPv3 FPU without `vfma` fails too.
//! - `cfg(sk_dsp)`: the DSP extension (`SMLAD`), for the int8 dot
//!   products of `src/kernel/dual_mac.rs` and `dual_mac_2_4.rs`. Armv7E-M
//!   (Cortex-M4/M7, `thumbv7em`) always has it; on Armv8-M Mainline
//!   (Cortex-M33/M35P/M55, `thumbv8m.main`) it is optional and the target
//!   leaves it off, so it is on when the flags turn it on (`-C
//!   target-cpu=cortex-m33`, or `-C target-feature=+dsp`, which stable
//!   rustc accepts with a warning but does not report to
//!   `cfg(target_feature)` or `CARGO_CFG_TARGET_FEATURE`: hence a probe).
//!
//! And on x86-64, whether the compiler builds AVX-512 code:
//!
//! - `cfg(sk_avx512)`: `#[target_feature(enable = "avx512f")]` and its
//!   intrinsics are stable (Rust 1.89), so the kernels get an AVX-512 copy
//!   (`src/kernel/isa.rs`); older compilers, down to the crate's
//!   `rust-version`, build the AVX2 and portable copies only.

use std::env;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn main() {
    println!("cargo::rustc-check-cfg=cfg(sk_asm_vfma)");
    println!("cargo::rustc-check-cfg=cfg(sk_dsp)");
    println!("cargo::rustc-check-cfg=cfg(sk_avx512)");
    println!("cargo::rerun-if-changed=build.rs");
    let target = env::var("TARGET").unwrap_or_default();
    let arch = env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let abi = env::var("CARGO_CFG_TARGET_ABI").unwrap_or_default();
    if arch == "x86_64" {
        let avx512 = "#[no_mangle]\n#[target_feature(enable = \"avx512f,avx512vl,avx512bw,avx512dq,avx512cd\")]\n\
            pub unsafe extern \"C\" fn sk_probe(p: *const f64, m: u8) -> f64 {\n\
            use core::arch::x86_64::*;\n\
            unsafe { _mm512_reduce_add_pd(_mm512_maskz_loadu_pd(m, p)) }\n\
        }\n";
        if probe("avx512", avx512) {
            println!("cargo::rustc-cfg=sk_avx512");
        }
        return;
    }
    if arch != "arm" {
        return;
    }
    // `#[no_mangle]`: an exported symbol is always compiled; a small `pub fn`
    // at opt-level `s` is inlinable across crates, so never compiled here,
    // and a probe of an instruction the target lacks would pass.
    let dsp = "#[no_mangle]\npub extern \"C\" fn sk_probe(a: u32, b: u32, c: i32) -> i32 {\n\
            let o: i32;\n\
            unsafe { core::arch::asm!(\"smlad {0}, {1}, {2}, {3}\", out(reg) o, in(reg) a, in(reg) b, in(reg) c) };\n\
            o\n\
        }\n";
    if target.starts_with("thumbv7em") || probe("dsp", dsp) {
        println!("cargo::rustc-cfg=sk_dsp");
    }
    let vfma = "#[no_mangle]\npub extern \"C\" fn sk_probe(a: f32, b: f32, mut c: f32) -> f32 {\n\
            unsafe { core::arch::asm!(\"vfma.f32 {0}, {1}, {2}\", inout(sreg) c, in(sreg) a, in(sreg) b) };\n\
            c\n\
        }\n";
    if abi == "eabihf" && probe("vfma", vfma) {
        println!("cargo::rustc-cfg=sk_asm_vfma");
    }
}

/// Whether the `no_std` library `source` compiles to an object file with
/// the build's compiler, target and flags.
fn probe(name: &str, source: &str) -> bool {
    let (Ok(rustc), Ok(target), Ok(out)) =
        (env::var("RUSTC"), env::var("TARGET"), env::var("OUT_DIR"))
    else {
        return false;
    };
    let out = PathBuf::from(out);
    let file = out.join(format!("{name}_probe.rs"));
    if std::fs::write(&file, format!("#![no_std]\n{source}")).is_err() {
        return false;
    }
    let mut cmd = Command::new(rustc);
    cmd.args([
        "--edition",
        "2021",
        "--crate-type",
        "lib",
        "--emit",
        "obj",
        "--target",
    ])
    .arg(&target)
    .arg("-o")
    .arg(out.join(format!("{name}_probe.o")))
    .arg(&file)
    .stdout(Stdio::null())
    .stderr(Stdio::null());
    if let Ok(flags) = env::var("CARGO_ENCODED_RUSTFLAGS") {
        cmd.args(flags.split('\x1f').filter(|f| !f.is_empty()));
    }
    cmd.status().is_ok_and(|s| s.success())
}
