//! Compiles the hand-written C reference loops with -O3, and the library
//! peers that are installed: SuiteSparse:GraphBLAS (`GraphBLAS.h`), Intel
//! MKL (`mkl_spblas.h` and `libmkl_rt`, from `MKLROOT` or the `mkl` and
//! `mkl-include` wheels under python3's prefix) and Eigen 3 (headers).
//! Each one found sets `cfg(peer_graphblas)`, `cfg(peer_mkl)` or
//! `cfg(peer_eigen)`; the bench skips the others and says so.
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=c");
    println!("cargo:rerun-if-env-changed=MKLROOT");
    println!("cargo:rerun-if-env-changed=BENCH_NO_PEERS");
    for p in ["peer_graphblas", "peer_mkl", "peer_eigen"] {
        println!("cargo::rustc-check-cfg=cfg({p})");
    }
    cc::Build::new()
        .file("c/kernels.c")
        .opt_level(3)
        .warnings(true)
        .compile("bench_c");
    if std::env::var_os("BENCH_NO_PEERS").is_some() {
        return;
    }
    let include = ["/usr/include", "/usr/local/include"];
    if let Some(dir) = include
        .iter()
        .find(|d| Path::new(d).join("GraphBLAS.h").exists())
    {
        cc::Build::new()
            .file("c/peer_graphblas.c")
            .include(dir)
            .opt_level(3)
            .compile("peer_graphblas");
        println!("cargo:rustc-link-lib=graphblas");
        println!("cargo:rustc-cfg=peer_graphblas");
    }
    if let Some(root) = mkl_root() {
        let lib = root.join("lib");
        let so = std::fs::read_dir(&lib).ok().and_then(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|f| f.starts_with("libmkl_rt.so"))
                .min_by_key(|f| f.len())
        });
        if let Some(so) = so {
            cc::Build::new()
                .file("c/peer_mkl.c")
                .include(root.join("include"))
                .opt_level(3)
                .compile("peer_mkl");
            // The wheel ships `libmkl_rt.so.N` without the unversioned link.
            println!("cargo:rustc-link-search=native={}", lib.display());
            println!("cargo:rustc-link-arg=-Wl,-rpath,{}", lib.display());
            println!("cargo:rustc-link-arg=-l:{so}");
            println!("cargo:rustc-cfg=peer_mkl");
        }
    }
    if let Some(dir) = ["/usr/include/eigen3", "/usr/local/include/eigen3"]
        .iter()
        .find(|d| Path::new(d).join("Eigen/SparseCore").exists())
    {
        cc::Build::new()
            .cpp(true)
            .file("c/peer_eigen.cpp")
            .include(dir)
            .flag("-DNDEBUG")
            .opt_level(3)
            .compile("peer_eigen");
        println!("cargo:rustc-cfg=peer_eigen");
    }
}

/// `MKLROOT`, else python3's prefix when it holds the MKL wheels.
fn mkl_root() -> Option<PathBuf> {
    let has = |p: &Path| p.join("include/mkl_spblas.h").exists();
    if let Some(r) = std::env::var_os("MKLROOT").map(PathBuf::from) {
        return has(&r).then_some(r);
    }
    let out = Command::new("python3")
        .args(["-c", "import sys; print(sys.prefix)"])
        .output()
        .ok()?;
    let r = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    has(&r).then_some(r)
}
