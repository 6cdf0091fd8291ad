//! Compiles the hand-written C reference loops with -O3.
fn main() {
    println!("cargo:rerun-if-changed=c/kernels.c");
    cc::Build::new()
        .file("c/kernels.c")
        .opt_level(3)
        .warnings(true)
        .compile("bench_c");
}
