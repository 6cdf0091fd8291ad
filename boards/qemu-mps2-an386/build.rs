//! Puts the memory map of the QEMU machine that runs the target (see
//! `.cargo/config.toml`) where cortex-m-rt's `link.x` finds it as
//! `memory.x`, links with `link.x`, and records the target name for the
//! firmware's banner.

use std::env;
use std::fs;
use std::path::PathBuf;

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let target = env::var("TARGET").expect("cargo sets TARGET");
    // One QEMU machine per core: microbit (M0), mps2-an385 (M3),
    // mps2-an386 (M4F, the same map), mps2-an505 (M33).
    let (map, machine): (&[u8], &str) = if target.starts_with("thumbv6m") {
        (include_bytes!("memory/microbit.x"), "microbit, Cortex-M0")
    } else if target.starts_with("thumbv8m") {
        (
            include_bytes!("memory/mps2-an505.x"),
            "mps2-an505, Cortex-M33",
        )
    } else if target.starts_with("thumbv7m") {
        (include_bytes!("memory/mps2.x"), "mps2-an385, Cortex-M3")
    } else {
        (include_bytes!("memory/mps2.x"), "mps2-an386, Cortex-M4F")
    };
    println!("cargo:rustc-env=FW_MACHINE={machine}");
    fs::write(out.join("memory.x"), map).expect("write memory.x");
    // `small_ram`: the M0's machine has 16 KiB of RAM, too little for the
    // checks with a 64x64 dense output.
    println!("cargo::rustc-check-cfg=cfg(small_ram)");
    if target.starts_with("thumbv6m") {
        println!("cargo:rustc-cfg=small_ram");
    }
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rerun-if-changed=memory");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rustc-link-arg-bins=-Tlink.x");
    // defmt's string table (the interned format strings defmt-print reads).
    println!("cargo:rustc-link-arg-bins=-Tdefmt.x");
    println!("cargo:rustc-env=FW_TARGET={target}");
}
