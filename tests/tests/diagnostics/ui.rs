//! Compile-fail tests: one per diagnostic class of `sparse_kernel!`, with the
//! expected message and span in the `.stderr` next to each `.rs`. The
//! `.stderr` files are pinned to Rust 1.95.0 (see `tests/README.md`);
//! regenerate them with `TRYBUILD=overwrite cargo test -p sparse-tests --test diagnostics diagnostics::ui`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::{env, fs};

#[test]
#[cfg_attr(
    feature = "rayon",
    ignore = "pinned to the default features: `#[parallel]` without `rayon` is one of the errors"
)]
fn ui() {
    copy_file_constants_data();
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/**/*.rs");
}

/// The `file("data/ui/...")` constants of `ui/constants/` read malformed
/// files from `tests/data/ui/`. A `file` path is relative to the Cargo.toml
/// of the crate being compiled, and trybuild compiles the tests as a crate
/// in `<target>/tests/trybuild/sparse-tests/`, so the files are copied
/// there first (trybuild finds the target directory the same way, through
/// `cargo metadata`).
fn copy_file_constants_data() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let from = manifest.join("data/ui");
    let to = target_directory(manifest)
        .join("tests/trybuild")
        .join(env!("CARGO_PKG_NAME"))
        .join("data/ui");
    fs::create_dir_all(&to).expect("the trybuild project directory is writable");
    for entry in fs::read_dir(&from).expect("tests/data/ui exists") {
        let path = entry.expect("readable entry").path();
        let name = path.file_name().expect("a file name");
        fs::copy(&path, to.join(name)).expect("the data file is copied");
    }
}

/// The workspace's target directory, from `cargo metadata`.
fn target_directory(manifest: &Path) -> PathBuf {
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .current_dir(manifest)
        .output()
        .expect("cargo metadata runs");
    assert!(output.status.success(), "cargo metadata failed");
    let text = String::from_utf8(output.stdout).expect("cargo metadata prints UTF-8");
    let key = "\"target_directory\":\"";
    let start = text
        .find(key)
        .expect("cargo metadata names the target directory")
        + key.len();
    let end = start + text[start..].find('"').expect("a JSON string ends");
    // A JSON string: only a Windows path has escapes (its backslashes).
    PathBuf::from(text[start..end].replace("\\\\", "\\"))
}
