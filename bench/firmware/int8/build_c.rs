//! The C columns of the int8 benchmark (`run.sh int8`): CMSIS-NN's
//! `arm_fully_connected_s8` and the hand-written sparse kernels of
//! `int8/c/sparse.c`, compiled with the same flags at the profile's
//! opt-level. CMSIS-NN is not vendored: its sources come from the git
//! directory in `CMSIS_NN_GIT` (a bare clone or a checkout's `.git`), at
//! the pinned commit; without it the firmware has no C columns (cfg
//! `cmsis_nn` unset).

use std::env;
use std::path::Path;
use std::process::Command;

/// CMSIS-NN main of 2026-07-15, as the project's measuring harness.
const PIN: &str = "99f736a63036613032f9b70de36b493bcd7802d4";

/// What `arm_fully_connected_s8` needs.
const SOURCES: [&str; 2] = [
    "Source/FullyConnectedFunctions/arm_fully_connected_s8.c",
    "Source/NNSupportFunctions/arm_nn_vec_mat_mult_t_s8.c",
];

pub fn c_columns(out: &Path, flags: &[&str]) {
    println!("cargo:rerun-if-env-changed=CMSIS_NN_GIT");
    println!("cargo:rerun-if-changed=int8/c");
    let Some(git) = env::var_os("CMSIS_NN_GIT") else {
        println!("cargo:warning=CMSIS_NN_GIT is not set: the int8 benchmark has no CMSIS-NN and hand-written C columns");
        return;
    };
    let src = out.join("cmsis-nn");
    let _ = std::fs::remove_dir_all(&src);
    std::fs::create_dir_all(&src).expect("create the CMSIS-NN folder");
    let archive = Command::new("git")
        .arg("--git-dir")
        .arg(&git)
        .args(["archive", PIN, "Include", "LICENSE"])
        .args(SOURCES)
        .output()
        .expect("run git archive");
    assert!(
        archive.status.success(),
        "git archive {PIN} from CMSIS_NN_GIT failed: {}",
        String::from_utf8_lossy(&archive.stderr)
    );
    let tar = src.join("cmsis-nn.tar");
    std::fs::write(&tar, &archive.stdout).expect("write the archive");
    let status = Command::new("tar")
        .arg("-xf")
        .arg(&tar)
        .arg("-C")
        .arg(&src)
        .status()
        .expect("run tar");
    assert!(status.success(), "tar -x of the CMSIS-NN sources failed");

    let mut b = cc::Build::new();
    b.compiler("arm-none-eabi-gcc")
        .include(src.join("Include"))
        .include("int8/c/shim")
        .include("int8/c")
        .file("int8/c/sparse.c")
        .warnings(false);
    for f in SOURCES {
        b.file(src.join(f));
    }
    for f in flags {
        b.flag(f);
    }
    b.compile("int8_c");
    println!("cargo:rustc-cfg=cmsis_nn");
}
