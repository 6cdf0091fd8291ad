//! Probes whether `asm!` accepts FPU registers on this Arm target, so that
//! `#[fma]` kernels can use one `vfma.f32` (`src/kernel/fma.rs`): Rust 1.95
//! rejects the `sreg` class on the `eabihf` Cortex-M targets (their
//! single-precision FPU is not the `vfp2` feature it asks for), later
//! releases accept it (rust-lang/rust#159988). The probe compiles and
//! assembles a one-instruction function with the build's compiler, target
//! and flags; `cfg(sk_asm_vfma)` is set only if that succeeds (so a VFPv3
//! FPU without `vfma` does not get it either).

use std::env;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn main() {
    println!("cargo::rustc-check-cfg=cfg(sk_asm_vfma)");
    println!("cargo::rustc-check-cfg=cfg(sk_dsp)");
    println!("cargo::rerun-if-changed=build.rs");
    // Armv7E-M (Cortex-M4/M7) always has the DSP extension: the int8 dot
    // products of `src/kernel/dual_mac.rs` use its SMLAD. (Armv8-M
    // Mainline has it only as an option, which no stable cfg reports.)
    if env::var("TARGET").is_ok_and(|t| t.starts_with("thumbv7em")) {
        println!("cargo::rustc-cfg=sk_dsp");
    }
    let arch = env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let abi = env::var("CARGO_CFG_TARGET_ABI").unwrap_or_default();
    if arch != "arm" || abi != "eabihf" {
        return;
    }
    let (Ok(rustc), Ok(target), Ok(out)) =
        (env::var("RUSTC"), env::var("TARGET"), env::var("OUT_DIR"))
    else {
        return;
    };
    let out = PathBuf::from(out);
    let probe = out.join("vfma_probe.rs");
    let source = "#![no_std]\n\
        pub fn f(a: f32, b: f32, mut c: f32) -> f32 {\n\
            unsafe { core::arch::asm!(\"vfma.f32 {0}, {1}, {2}\", inout(sreg) c, in(sreg) a, in(sreg) b) };\n\
            c\n\
        }\n";
    if std::fs::write(&probe, source).is_err() {
        return;
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
    .arg(out.join("vfma_probe.o"))
    .arg(&probe)
    .stdout(Stdio::null())
    .stderr(Stdio::null());
    if let Ok(flags) = env::var("CARGO_ENCODED_RUSTFLAGS") {
        cmd.args(flags.split('\x1f').filter(|f| !f.is_empty()));
    }
    if cmd.status().is_ok_and(|s| s.success()) {
        println!("cargo::rustc-cfg=sk_asm_vfma");
    }
}
