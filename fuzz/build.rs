//! Embeds `corpus/expand_tokens/*.kernel` (the test suite's `sparse_kernel!`
//! bodies, see `seed-corpus.sh`; libFuzzer's own files there have no
//! extension and are left out) as `SEEDS`, in a stable (sorted) order so that a
//! crash input replays the same splice after the seeds are regenerated
//! with the same content.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/expand_tokens");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| {
            d.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "kernel"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let mut out = String::from("&[\n");
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
        let text = std::fs::read_to_string(f).expect("a seed is UTF-8 text");
        writeln!(out, "    {text:?},").expect("writing to a String");
    }
    out.push(']');
    let dest = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("seeds.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}
