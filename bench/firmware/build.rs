//! Puts the memory map of the target's QEMU machine where cortex-m-rt's
//! `link.x` finds it as `memory.x` and links with `link.x`; with the
//! `c-kernel` feature, compiles the C loops for the target's core.
//!
//! Cores (run.sh, `cores`): thumbv6m = Cortex-M0 on `microbit`, thumbv7m =
//! M3 on `mps2-an385`, thumbv7em (the default) = M4F on `mps2-an386`,
//! thumbv8m.main = M33 on `mps2-an505`.

use std::env;
use std::fs;
use std::path::PathBuf;

#[cfg(feature = "int8")]
#[path = "int8/build_c.rs"]
mod int8;

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let target = env::var("TARGET").expect("cargo sets TARGET");
    let map: &[u8] = if target.starts_with("thumbv6m") {
        include_bytes!("memory/microbit.x")
    } else if target.starts_with("thumbv8m") {
        include_bytes!("memory/mps2-an505.x")
    } else {
        include_bytes!("memory/mps2.x")
    };
    fs::write(out.join("memory.x"), map).expect("write memory.x");
    // `small_flash`: the microbit's 256 KiB of flash holds the CSR
    // benchmarks only, not the block-format matrices.
    println!("cargo::rustc-check-cfg=cfg(small_flash)");
    if target.starts_with("thumbv6m") {
        println!("cargo:rustc-cfg=small_flash");
    }
    println!("cargo:rustc-env=BENCH_TARGET={target}");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rerun-if-changed=memory");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rustc-link-arg-bins=-Tlink.x");
    #[cfg(feature = "c-kernel")]
    c_kernel(&target);
    // The int8 benchmark's C columns (CMSIS-NN and the hand-written
    // kernels), present only with a CMSIS-NN checkout (`CMSIS_NN_GIT`).
    println!("cargo::rustc-check-cfg=cfg(cmsis_nn)");
    println!("cargo::rustc-check-cfg=cfg(dsp)");
    if target.starts_with("thumbv7em") || target.starts_with("thumbv8m.main") {
        println!("cargo:rustc-cfg=dsp");
    }
    #[cfg(feature = "int8")]
    int8::c_columns(&out, core_flags_int8(&target));
}

/// gcc's flags for the int8 C code: the core, with the DSP extension where
/// the core has it (CMSIS-NN's SMLAD path; the M0 takes its plain C path).
#[cfg(feature = "int8")]
fn core_flags_int8(target: &str) -> &'static [&'static str] {
    if target.starts_with("thumbv6m") {
        &["-mcpu=cortex-m0", "-mthumb", "-mfloat-abi=soft"]
    } else if target.starts_with("thumbv8m") {
        &[
            "-mcpu=cortex-m33",
            // After cc's own `-march=armv8-m.main`, which drops the DSP
            // extension the M33 of mps2-an505 has.
            "-march=armv8-m.main+dsp+fp",
            "-mthumb",
            "-mfpu=fpv5-sp-d16",
            "-mfloat-abi=hard",
            "-DARM_MATH_DSP",
        ]
    } else {
        &[
            "-mcpu=cortex-m4",
            "-mthumb",
            "-mfpu=fpv4-sp-d16",
            "-mfloat-abi=hard",
            "-DARM_MATH_DSP",
        ]
    }
}

/// gcc's flags for the target's core: soft float on the M0 and M3 (the
/// Rust targets' ABI; both then call compiler_builtins' `__aeabi_f*`).
#[cfg(feature = "c-kernel")]
fn core_flags(target: &str) -> &'static [&'static str] {
    if target.starts_with("thumbv6m") {
        &["-mcpu=cortex-m0", "-mthumb", "-mfloat-abi=soft"]
    } else if target.starts_with("thumbv7m") {
        &["-mcpu=cortex-m3", "-mthumb", "-mfloat-abi=soft"]
    } else if target.starts_with("thumbv8m") {
        &[
            "-mcpu=cortex-m33",
            "-mthumb",
            "-mfpu=fpv5-sp-d16",
            "-mfloat-abi=hard",
        ]
    } else {
        &[
            "-mcpu=cortex-m4",
            "-mthumb",
            "-mfpu=fpv4-sp-d16",
            "-mfloat-abi=hard",
        ]
    }
}

/// The C loop, at gcc -O2 as in the reference figure, twice: with
/// gcc's default floating-point contraction and without it.
#[cfg(feature = "c-kernel")]
fn c_kernel(target: &str) {
    println!("cargo:rerun-if-changed=src/spmv.c");
    for (name, contract) in [("bench_c_f32", "fast"), ("bench_c_nofma_f32", "off")] {
        let mut b = cc::Build::new();
        b.compiler("arm-none-eabi-gcc")
            .file("src/spmv.c")
            .opt_level(2)
            .define("NAME", name)
            .flag(format!("-ffp-contract={contract}"));
        for f in core_flags(target) {
            b.flag(f);
        }
        b.compile(name);
    }
    // The block loops of src/blocks.c, the same two ways.
    println!("cargo:rerun-if-changed=src/blocks.c");
    for (suffix, contract) in [("_f32", "fast"), ("_nofma_f32", "off")] {
        let mut b = cc::Build::new();
        b.compiler("arm-none-eabi-gcc")
            .file("src/blocks.c")
            .opt_level(2)
            .define("SUFFIX", suffix)
            .flag(format!("-ffp-contract={contract}"));
        for f in core_flags(target) {
            b.flag(f);
        }
        b.compile(&format!("bench_blocks{suffix}"));
    }
}
