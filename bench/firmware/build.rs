//! Puts `memory.x` where cortex-m-rt's `link.x` finds it and links with
//! `link.x`; with the `c-kernel` feature, compiles the C loops.

use std::env;
use std::fs;
use std::path::PathBuf;

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::write(out.join("memory.x"), include_bytes!("memory.x")).expect("write memory.x");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rerun-if-changed=memory.x");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rustc-link-arg-bins=-Tlink.x");
    #[cfg(feature = "c-kernel")]
    c_kernel();
}

/// The C loop, at gcc -O2 as in the reference figure, twice: with
/// gcc's default floating-point contraction and without it.
#[cfg(feature = "c-kernel")]
fn c_kernel() {
    println!("cargo:rerun-if-changed=src/spmv.c");
    for (name, contract) in [("bench_c_f32", "fast"), ("bench_c_nofma_f32", "off")] {
        cc::Build::new()
            .compiler("arm-none-eabi-gcc")
            .file("src/spmv.c")
            .opt_level(2)
            .define("NAME", name)
            .flag("-mcpu=cortex-m4")
            .flag("-mfpu=fpv4-sp-d16")
            .flag("-mfloat-abi=hard")
            .flag(format!("-ffp-contract={contract}"))
            .compile(name);
    }
    // The block loops of src/blocks.c, the same two ways.
    println!("cargo:rerun-if-changed=src/blocks.c");
    for (suffix, contract) in [("_f32", "fast"), ("_nofma_f32", "off")] {
        cc::Build::new()
            .compiler("arm-none-eabi-gcc")
            .file("src/blocks.c")
            .opt_level(2)
            .define("SUFFIX", suffix)
            .flag("-mcpu=cortex-m4")
            .flag("-mfpu=fpv4-sp-d16")
            .flag("-mfloat-abi=hard")
            .flag(format!("-ffp-contract={contract}"))
            .compile(&format!("bench_blocks{suffix}"));
    }
}
