//! Gives cortex-m-rt's `link.x` the memory map of the QEMU machine that
//! runs the target (`.cargo/config.toml`) as `memory.x`.

use std::env;
use std::fs;
use std::path::PathBuf;

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let target = env::var("TARGET").expect("cargo sets TARGET");
    // microbit (Cortex-M0, 16 KiB RAM) for thumbv6m, mps2-an386 (M4F) else.
    let map: &[u8] = if target.starts_with("thumbv6m") {
        include_bytes!("memory/microbit.x")
    } else {
        include_bytes!("memory/mps2.x")
    };
    fs::write(out.join("memory.x"), map).expect("write memory.x");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rerun-if-changed=memory");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rustc-link-arg-bins=-Tlink.x");
    println!("cargo:rustc-env=FW_TARGET={target}");
}
