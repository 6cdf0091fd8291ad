//! Runs every example binary as a user would (`cargo test -p
//! sparse-examples`, part of `cargo test --workspace`): each must exit 0
//! on the data shipped in `examples/data/`, and `cg` must exit non-zero
//! when one of its checks fails.

use std::process::Command;

fn run(exe: &str, args: &[&str]) -> std::process::Output {
    let out = Command::new(exe)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{exe} did not start: {e}"));
    print!("{}", String::from_utf8_lossy(&out.stdout));
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
    out
}

#[test]
fn demo_exits_0() {
    let out = run(env!("CARGO_BIN_EXE_demo"), &[]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    // A user reads this output: no references to the project's own
    // source documents.
    assert!(!text.to_lowercase().contains("seed"), "{text}");
    // The spy plot of the 4x8 CSR matrix (entries (0,0), (0,2), (2,1),
    // (3,2), (3,7)), worked out by hand.
    assert!(
        text.contains("    #.#.....\n    ........\n    .#......\n    ..#....#\n"),
        "{text}"
    );
    assert!(
        text.contains("    \u{2821}\u{2841}\u{2800}\u{2880}\n"),
        "{text}"
    );
}

#[test]
fn convert_spmv_exits_0() {
    assert!(run(env!("CARGO_BIN_EXE_convert_spmv"), &[])
        .status
        .success());
}

#[test]
fn cg_solves_the_shipped_matrix_as_sprs_does() {
    let out = run(env!("CARGO_BIN_EXE_cg"), &[]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("all checks passed"), "{text}");
}

#[test]
fn cg_fails_when_a_check_fails() {
    // A 2 x 3 matrix: the "square" check fails, and the example with it.
    let path = std::env::temp_dir().join(format!("sparse-examples-cg-{}.mtx", std::process::id()));
    std::fs::write(
        &path,
        "%%MatrixMarket matrix coordinate real general\n2 3 2\n1 1 1.0\n2 3 2.0\n",
    )
    .expect("temp file");
    let out = run(
        env!("CARGO_BIN_EXE_cg"),
        &[path.to_str().expect("utf-8 path")],
    );
    let _ = std::fs::remove_file(&path);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("check failed: the matrix is square"));
}
