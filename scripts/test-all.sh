#!/usr/bin/env bash
# The full test suite: what CI runs (`.ci/run`) and what the README tells a
# contributor to run. It works on a fresh Debian machine with rustup: it
# installs the thumb targets, the rustup components, qemu-system-arm,
# defmt-print (the firmware's log decoder, ~90 s to build) and the
# nightly Miri toolchain if they are missing (each check is quick when
# everything is already there), then runs every step and stops at the first
# failure.
#
# Usage: bash scripts/test-all.sh
# Environment:
#   SKIP_MIRI=1       leave out the Miri step (the slowest one)
#   SKIP_BOARDS=1     leave out the board crates' release builds
#                     (scripts/boards.sh)
#   SKIP_FUZZ=1       leave out the fuzz smoke step (scripts/fuzz-smoke.sh,
#                     which installs cargo-fuzz if missing; FUZZ_SECONDS=45
#                     per target)
#   FW_TIMEOUT=300    seconds before a hung QEMU run is killed
#   KEEP_GOING=1      run every step even after a failure, then list the
#                     failed ones (the exit status is still 1)
#   FW_TARGET_DIR     the one target directory of every build outside the
#                     main workspace (default target/firmware): the QEMU
#                     firmware, the firmware apps, the template copy, the
#                     board crates and the machine-code check. They build
#                     the same proc-macro crates (syn, sparse-compiler, ...)
#                     for the host and, with the same release profile,
#                     the same thumb crates; each in its own directory
#                     compiled them five times on a clean machine.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$(pwd)
FW_DIR="$ROOT/boards/qemu-mps2-an386"
FW_TIMEOUT=${FW_TIMEOUT:-300}
FW_TARGET_DIR=${FW_TARGET_DIR:-$ROOT/target/firmware}
# No debug info in dev/test builds: no step reads it (a failing test still
# prints its panic's file and line), and writing and linking it is a good
# part of a cold build of the test tiers. No incremental caches: every
# build here is from scratch on CI, where they only cost time and disk.
# Both can be set by the caller (they change the build's fingerprints, so
# a suite run does not share its artifacts with a default `cargo test`).
export CARGO_PROFILE_DEV_DEBUG=${CARGO_PROFILE_DEV_DEBUG:-0}
export CARGO_INCREMENTAL=${CARGO_INCREMENTAL:-0}
THUMB_TARGETS=(thumbv6m-none-eabi thumbv7em-none-eabihf thumbv8m.main-none-eabihf)
# The cores the firmware runs on under QEMU, with the machine of each (the
# runners in boards/qemu-mps2-an386/.cargo/config.toml).
FW_TARGETS=(thumbv6m-none-eabi thumbv7m-none-eabi thumbv7em-none-eabihf thumbv8m.main-none-eabihf)
declare -A FW_MACHINE=(
    [thumbv6m-none-eabi]="microbit, Cortex-M0"
    [thumbv7m-none-eabi]="mps2-an385, Cortex-M3"
    [thumbv7em-none-eabihf]="mps2-an386, Cortex-M4F"
    [thumbv8m.main-none-eabihf]="mps2-an505, Cortex-M33"
)

T0=$SECONDS
STEP=""
STEP_T0=$SECONDS
TIMINGS=()
FAILED=()

# CPU seconds (user + system) of the finished children of the shell whose
# pid is $1: each step's CPU time is the difference around it. Unlike the
# wall clock it does not depend on the other builds sharing the machine.
TICKS=$(getconf CLK_TCK)
children_cpu() {
    local f
    read -r -a f <"/proc/$1/stat"
    echo $(((f[15] + f[16]) / TICKS))
}
STEP_CPU0=$(children_cpu $$)

# `timing SECONDS CPU TITLE [NOTE]`: one line of the table printed at the end.
timing() {
    printf '%5ds %5ds  %s%s' "$1" "$2" "$3" "${4:+  $4}"
}

finish_step() {
    if [[ -n "$STEP" ]]; then
        TIMINGS+=("$(timing $((SECONDS - STEP_T0)) $(($(children_cpu $$) - STEP_CPU0)) "$STEP")")
    fi
}

step() {
    finish_step
    STEP=$1
    STEP_T0=$SECONDS
    STEP_CPU0=$(children_cpu $$)
    printf '\n==== %s ====\n' "$STEP"
}

# Runs one check: `run TITLE FUNCTION [ARGS...]`. The function runs in a
# subshell with errexit on (a condition context would switch it off), so
# its first failing command fails the step. Without KEEP_GOING=1 the script
# stops there.
run() {
    local title=$1
    shift
    step "$title"
    set +e
    (
        set -e
        "$@"
    )
    local rc=$?
    set -e
    if [[ $rc -ne 0 ]]; then
        TIMINGS+=("$(timing $((SECONDS - STEP_T0)) $(($(children_cpu $$) - STEP_CPU0)) "$STEP" \
            "FAILED (exit $rc)")")
        FAILED+=("$STEP")
        STEP=""
        if [[ "${KEEP_GOING:-0}" != 1 ]]; then
            STEP=$title
            exit "$rc"
        fi
        printf '==== FAILED: %s (exit %d); KEEP_GOING=1, continuing ====\n' "$title" "$rc" >&2
    fi
}

# `lane_steps DIR K LANE`: runs LANE's steps (`TITLE|FUNCTION` lines) one
# after the other in a subshell of their own, with step k's output in
# DIR/k.log and its verdict in DIR/k.status ("EXIT WALL CPU", written
# whole once the step is done), k counting from K. A lane stops at its
# first failure (unless KEEP_GOING=1): the rest are marked "skipped".
lane_steps() {
    local dir=$1 k=$2 lane=$3 me=$BASHPID title fn failed=0 s0 c0 rc
    set +e
    while IFS='|' read -r title fn; do
        [[ -z "$title" ]] && continue
        if [[ $failed -ne 0 ]]; then
            echo "not run: an earlier step of its lane failed" >"$dir/$k.log"
            echo "skipped 0 0" >"$dir/$k.tmp"
        else
            s0=$SECONDS
            c0=$(children_cpu "$me")
            (
                set -e
                "$fn"
            ) >"$dir/$k.log" 2>&1
            rc=$?
            echo "$rc $((SECONDS - s0)) $(($(children_cpu "$me") - c0))" >"$dir/$k.tmp"
            if [[ $rc -ne 0 && "${KEEP_GOING:-0}" != 1 ]]; then
                failed=1
            fi
        fi
        mv "$dir/$k.tmp" "$dir/$k.status"
        k=$((k + 1))
    done <<<"$lane"
}

# `lane_titles LANE`: the titles of LANE's steps, one a line.
lane_titles() {
    local title fn
    while IFS='|' read -r title fn; do
        [[ -n "$title" ]] && echo "$title"
    done <<<"$1"
}

# `report_step DIR K TITLE`: prints step k's log under its title and
# records its time and verdict as `run` does; returns its exit status.
report_step() {
    local dir=$1 k=$2 title=$3 rc secs cpu
    printf '\n==== %s ====\n' "$title"
    cat "$dir/$k.log"
    read -r rc secs cpu <"$dir/$k.status"
    if [[ $rc == skipped ]]; then
        TIMINGS+=("$(printf '%5s  %5s   %s  NOT RUN (its lane stopped first)' - - "$title")")
        FAILED+=("$title (not run)")
        return 1
    elif [[ $rc -ne 0 ]]; then
        TIMINGS+=("$(timing "$secs" "$cpu" "$title" "FAILED (exit $rc)")")
        FAILED+=("$title")
        printf '==== FAILED: %s (exit %d) ====\n' "$title" "$rc" >&2
        return "$rc"
    fi
    TIMINGS+=("$(timing "$secs" "$cpu" "$title")")
}

# Runs checks side by side: `run_lanes LANE...`, each LANE a string of
# `TITLE|FUNCTION` pairs separated by newlines. Miri interprets a test
# binary on one core and libFuzzer runs on one, so two lanes keep both
# cores busy where one after the other left one idle (cargo's lock on the
# target directory still makes their builds take turns; the tests run
# without it). Each lane runs its steps in order and stops at its first
# failure (unless KEEP_GOING=1); every step's output goes to its own log,
# printed in the lanes' order once all lanes are done, with the step's own
# time and verdict recorded as `run` records them.
run_lanes() {
    local dir lane k=0 pids=() titles=() t0=$SECONDS c0 first_failure="" rc
    finish_step
    STEP=""
    dir=$(mktemp -d)
    c0=$(children_cpu $$)
    for lane in "$@"; do
        lane_steps "$dir" "$k" "$lane" &
        pids+=($!)
        mapfile -t -O "${#titles[@]}" titles < <(lane_titles "$lane")
        k=${#titles[@]}
    done
    printf '\n==== %d steps in %d lanes side by side (output below when all are done): ====\n' \
        "${#titles[@]}" "$#"
    printf '  %s\n' "${titles[@]}"
    local pid
    for pid in "${pids[@]}"; do
        wait "$pid" || true
    done
    for k in "${!titles[@]}"; do
        rc=0
        report_step "$dir" "$k" "${titles[$k]}" || rc=$?
        [[ $rc -ne 0 && -z "$first_failure" ]] && first_failure=$rc
    done
    TIMINGS+=("$(printf '%5ds %5ds  (wall clock and CPU of the %d steps above, run in %d lanes)' \
        $((SECONDS - t0)) $(($(children_cpu $$) - c0)) "${#titles[@]}" "$#")")
    rm -rf "$dir"
    STEP_T0=$SECONDS
    STEP_CPU0=$(children_cpu $$)
    if [[ -n "$first_failure" && "${KEEP_GOING:-0}" != 1 ]]; then
        exit "$first_failure"
    fi
}

# The background lane: the setup steps that only download or compile a
# tool (toolchains, Miri's std, defmt-print, cargo-fuzz from source) and
# that nothing needs until later steps. They start first, at a lower
# priority (nice +10), so their downloads and builds fill what the
# checks leave idle (a single-threaded test binary, a link, a QEMU run)
# instead of holding every check back for ~5 minutes at the start.
# `start_background LANE` starts it; `join_background TITLE` waits for
# that step, where the first step needing its tool comes, and reports it
# there as a step of its own (its log, its wall clock from the start of
# its own run, its CPU time, its verdict: a failure fails the suite as
# any step's does).
BG_DIR=""
BG_PID=""
BG_TITLES=()
start_background() {
    BG_DIR=$(mktemp -d)
    mapfile -t BG_TITLES < <(lane_titles "$1")
    (
        renice -n 10 -p "$BASHPID" >/dev/null 2>&1 || true
        lane_steps "$BG_DIR" 0 "$1"
    ) &
    BG_PID=$!
    printf '\n==== %d setup steps in the background (output where each is needed): ====\n' \
        "${#BG_TITLES[@]}"
    printf '  %s\n' "${BG_TITLES[@]}"
}

join_background() {
    local title=$1 k rc=0 t0=$SECONDS
    for k in "${!BG_TITLES[@]}"; do
        [[ "${BG_TITLES[$k]}" == "$title" ]] && break
    done
    finish_step
    STEP=""
    while [[ ! -f "$BG_DIR/$k.status" ]] && kill -0 "$BG_PID" 2>/dev/null; do
        sleep 1
    done
    if [[ ! -f "$BG_DIR/$k.status" ]]; then
        echo "the background lane ended before this step" >"$BG_DIR/$k.log"
        echo "1 0 0" >"$BG_DIR/$k.status"
    fi
    report_step "$BG_DIR" "$k" "$title (background; waited $((SECONDS - t0))s for it here)" || rc=$?
    STEP_T0=$SECONDS
    STEP_CPU0=$(children_cpu $$)
    if [[ $rc -ne 0 && "${KEEP_GOING:-0}" != 1 ]]; then
        exit "$rc"
    fi
}

# Ends the background lane and what it runs (an install, a build) when the
# suite stops early.
kill_tree() {
    local child
    for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do
        kill_tree "$child"
    done
    kill "$1" 2>/dev/null || true
}

elapsed() {
    local s=$((SECONDS - T0))
    printf '%dm %02ds' $((s / 60)) $((s % 60))
}

on_exit() {
    local rc=$?
    if [[ $rc -ne 0 && -n "$STEP" ]]; then
        printf '\n==== FAILED: %s (exit %d) after %s ====\n' "$STEP" "$rc" "$(elapsed)" >&2
    fi
    if [[ $rc -ne 0 && -n "$BG_PID" ]]; then
        kill_tree "$BG_PID"
    fi
}
trap on_exit EXIT

# Firmware output is indented and tagged so that its own "N passed, M failed"
# line cannot be mistaken for this script's verdict.
tag_fw() {
    sed -u 's/^/  [fw] /'
}

as_root() {
    if [[ $(id -u) -eq 0 ]]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        echo "error: '$*' needs root, and sudo is not available." >&2
        echo "Install it by hand: apt-get install --no-install-recommends qemu-system-arm" >&2
        exit 1
    fi
}

# ---------------------------------------------------------------- setup

step "setup: Rust toolchain, targets, components"
if ! command -v rustup >/dev/null 2>&1; then
    if [[ -x "$HOME/.cargo/bin/rustup" ]]; then
        export PATH="$HOME/.cargo/bin:$PATH"
    else
        echo "rustup not found: installing it (stable, minimal profile)"
        curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs |
            sh -s -- -y --profile minimal --default-toolchain stable
        export PATH="$HOME/.cargo/bin:$PATH"
    fi
fi
rustup target add "${THUMB_TARGETS[@]}" "${FW_TARGETS[@]}"
rustup component add clippy rustfmt llvm-tools
rustc --version
cargo --version

step "setup: qemu-system-arm"
if ! command -v qemu-system-arm >/dev/null 2>&1; then
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "error: qemu-system-arm is missing and this is not a Debian/Ubuntu machine;" >&2
        echo "install qemu-system-arm (QEMU >= 7.2) with your package manager." >&2
        exit 1
    fi
    # Without recommends: 25 packages instead of 166, same semihosting support.
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -qq --no-install-recommends qemu-system-arm
fi
qemu-system-arm --version | head -n 1

# The firmware logs through defmt; its runner (boards/qemu-mps2-an386/
# qemu-defmt.sh) decodes the frames with defmt-print. About 90 s to build
# on 2 cores, only when missing.
setup_defmt_print() {
    if ! command -v defmt-print >/dev/null 2>&1 ||
        [[ "$(defmt-print --version 2>/dev/null)" != *" 1.2.0"* ]]; then
        cargo install defmt-print --locked --version 1.2.0
    fi
    defmt-print --version
}

setup_nightly_miri() {
    if ! rustup run nightly rustc --version >/dev/null 2>&1; then
        rustup toolchain install nightly --profile minimal -c miri -c rust-src
    elif ! rustup component list --toolchain nightly --installed | grep -q '^miri'; then
        # Add to the installed nightly instead of updating it.
        rustup component add --toolchain nightly miri rust-src
    fi
    # Miri's std for both targets the Miri steps run on (built once, cached
    # outside the target directory; the 32-bit Arm one was built by the
    # first Arm test run, on the critical path at the end).
    cargo +nightly miri setup
    cargo +nightly miri setup --target armv7-unknown-linux-gnueabihf
}

# The toolchain of the MSRV step (a download).
setup_msrv_toolchain() {
    local msrv
    msrv=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' Cargo.toml)
    if [[ -n "$msrv" ]] && ! rustup run "$msrv" rustc --version >/dev/null 2>&1; then
        rustup toolchain install "$msrv" --profile minimal
    fi
}

# cargo-fuzz for the fuzz smoke step (which installs it the same way when
# missing), compiled from source: ~1 minute on 2 cores.
setup_cargo_fuzz() {
    if ! cargo fuzz --version >/dev/null 2>&1; then
        cargo install cargo-fuzz --locked
    fi
    cargo fuzz --version
}

# Downloads first (they overlap with the checks' builds best), then the
# tools in the order the steps need them. One lane: two `cargo install`s
# side by side would only compete with the checks for the same 2 cores.
BG_LANE="setup: MSRV toolchain|setup_msrv_toolchain"$'\n'
BG_LANE+="setup: defmt-print (the firmware's log decoder)|setup_defmt_print"$'\n'
if [[ "${SKIP_MIRI:-0}" != 1 ]]; then
    BG_LANE+="setup: nightly toolchain with Miri, Miri's std (x86-64, 32-bit Arm)|setup_nightly_miri"$'\n'
fi
if [[ "${SKIP_FUZZ:-0}" != 1 ]]; then
    BG_LANE+="setup: cargo-fuzz|setup_cargo_fuzz"$'\n'
fi
start_background "$BG_LANE"

# ---------------------------------------------------------------- steps
# Each check is a function, run in a subshell with `set -e` by `run`.

fmt_check() {
    cargo fmt --all -- --check
    (cd "$FW_DIR" && cargo fmt -- --check)
}

clippy_workspace() {
    cargo clippy --workspace --all-targets -- -D warnings
}

test_workspace() {
    cargo test --workspace
}

# The desktop examples, run as a user runs them; each exits non-zero when
# its own checks fail (`cg`: CG with generated kernels against sprs). The
# binaries `cargo test --workspace` built, run by examples/tests/run_examples.rs
# with their output shown (`cargo run -p sparse-examples` built them again
# with other features, ~20 s).
run_examples() {
    cargo test --workspace --test run_examples -- --nocapture --test-threads=1
}

# The optional interoperability features (sprs, nalgebra-sparse), which the
# workspace build leaves off: their unit tests and doc examples, and the
# docs with every feature on.
test_interop() {
    cargo test -p sparse-core --features std,heapless,sprs,nalgebra-sparse --lib interop
    cargo test -p sparse-core --features std,heapless,sprs,nalgebra-sparse --doc interop
    RUSTDOCFLAGS="-D warnings" cargo doc -p sparse-core --no-deps --features std,heapless,sprs,nalgebra-sparse
}

# Hostile sizes under an address-space cap (tests/tests/storage/hostile.rs, the
# `memory_capped_*` tests, ignored by a plain `cargo test`): a file whose
# header claims a billion rows must get a typed "could not allocate" error
# for a CSR target, never an abort, and still read as DCSR. The cap is on
# the test binary only (rustc needs more), built first without it. Built
# with `--workspace` so its features (sparse-core's `default` included) are
# those of `cargo test --workspace`, whose build it reuses: with
# `-p sparse-tests` sparse-core and the tier were rebuilt (~100 s).
memory_capped() {
    local bin
    bin=$(cargo test --workspace --test storage --no-run --message-format=json |
        python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("executable"):
        print(m["executable"])')
    prlimit --as=$((2 << 30)) "$bin" --ignored memory_capped
}

# `#[parallel]` kernels (feature `rayon`, which the workspace build leaves
# off): the runtime's chunking, the guide's example, the differential tests
# (tests/tests/parallel.rs) and clippy on them, and the docs with the
# feature on. Incremental over the workspace build: ~40 s warm.
test_parallel() {
    cargo test -p sparse-core --features rayon --lib par
    cargo test -p sparse-core --features rayon --doc parallel
    cargo test -p sparse-tests --features rayon --test parallel
    cargo clippy -p sparse-tests --features rayon --test parallel -- -D warnings
    RUSTDOCFLAGS="-D warnings" cargo doc -p sparse-core --no-deps --features rayon
}

# `cargo rustc ... -- -D warnings`: warnings in sparse-core's no_std
# configurations fail the step (flags for sparse-core only, so the host
# builds of the macro stay cached).
build_thumb() {
    cargo rustc -p sparse-core --target "$1" -- -D warnings
    cargo rustc -p sparse-core --no-default-features --target "$1" -- -D warnings
}

build_no_default() {
    cargo rustc -p sparse-core --no-default-features --features heapless,micromath \
        --target thumbv7em-none-eabihf -- -D warnings
}

# The element-type and math features without std, each alone and together,
# on the M0+ (soft float) and the M4F.
build_element_features() {
    for t in thumbv6m-none-eabi thumbv7em-none-eabihf; do
        for f in complex half libm micromath,half complex,half,libm; do
            cargo rustc -p sparse-core --no-default-features --features "$f" \
                --target "$t" -- -D warnings
        done
    done
}

doc_core() {
    RUSTDOCFLAGS="-D warnings" cargo doc -p sparse-core --no-deps
    # What docs.rs builds (`all-features = true`) and the README tells users to run.
    RUSTDOCFLAGS="-D warnings" cargo doc -p sparse-core --no-deps --all-features
    # The other published crates' docs (docs.rs builds them too).
    RUSTDOCFLAGS="-D warnings" cargo doc -p sparse-compiler -p sparse-macros -p sparse-vocab --no-deps
}

firmware_clippy() {
    cd "$FW_DIR"
    export CARGO_TARGET_DIR=$FW_TARGET_DIR
    cargo clippy --release -- -D warnings
    cargo clippy --release --features inject-failure -- -D warnings
    # The M0 build leaves out the checks that need more than its 16 KiB.
    cargo clippy --release --target thumbv6m-none-eabi -- -D warnings
}

# Runs the firmware under QEMU with `$@` as extra cargo flags; prints its
# output tagged, keeps it in FW_OUT and QEMU's exit status in FW_RC.
run_firmware() {
    export CARGO_TARGET_DIR=$FW_TARGET_DIR
    (cd "$FW_DIR" && cargo build --release "$@")
    local log
    log=$(mktemp)
    set +e
    (cd "$FW_DIR" && timeout "$FW_TIMEOUT" cargo run -q --release "$@" </dev/null) 2>&1 | tee "$log" | tag_fw
    FW_RC=${PIPESTATUS[0]}
    set -e
    FW_OUT=$(cat "$log")
    rm -f "$log"
}

# `firmware_pass TARGET`: the whole firmware suite on TARGET's machine. Its
# defmt output, decoded by defmt-print (the crate's runner), must be
# exactly boards/qemu-mps2-an386/expected/TARGET.txt (a diff otherwise;
# `BLESS=1 bash scripts/firmware-snapshot.sh TARGET` rewrites it; never
# from here: BLESS=0).
firmware_pass() {
    run_firmware --target "$1"
    echo "firmware exit code on $1: $FW_RC (expected 0)"
    if [[ $FW_RC -ne 0 ]]; then
        echo "error: the firmware tests failed under QEMU" >&2
        return 1
    fi
    BLESS=0 bash "$ROOT/scripts/firmware-snapshot.sh" --compare "$1" <(printf '%s\n' "$FW_OUT")
}

# `firmware_negative TARGET`: the harness reports a failing check there.
firmware_negative() {
    run_firmware --target "$1" --features inject-failure
    echo "firmware exit code on $1 with an injected failure: $FW_RC (expected 1)"
    if [[ $FW_RC -eq 0 ]]; then
        echo "error: a deliberately broken check passed: the firmware harness cannot report failures" >&2
        return 1
    elif [[ $FW_RC -ne 1 ]]; then
        # 124 is a timeout, 134 a QEMU lockup: the harness never reached its verdict.
        echo "error: expected exit 1 from the failing check, got $FW_RC" >&2
        return 1
    fi
    # The failure must come from the check that compares with the flipped
    # reference value, not from a panic or an unrelated check.
    if ! grep -q '^FAIL csr64 for_each == dense reference' <<<"$FW_OUT"; then
        echo "error: exit 1, but not from the check the injected failure targets" >&2
        return 1
    fi
    # The snapshot comparison must catch the failing run too.
    if BLESS=0 bash "$ROOT/scripts/firmware-snapshot.sh" --compare "$1" <(printf '%s\n' "$FW_OUT") \
        >/dev/null 2>&1; then
        echo "error: the failing run's output matches the expected output of a passing run" >&2
        return 1
    fi
    echo "the snapshot comparison rejects the failing run's output, as it must"
}

# The published crates package and verify from their own sources (no file
# outside a package, versions on path dependencies, metadata complete):
# `cargo publish --dry-run` packages each, builds it against the others
# from a local registry, and stops before uploading.
package_crates() {
    # Verifying a package builds it against the others through a local
    # registry that stands in for crates.io. Cargo takes registry crates to
    # be immutable: it reuses their unpacked sources in
    # $CARGO_HOME/registry/src and their build artifacts from an earlier
    # run even when the package changed since (a new sparse-vocab item then
    # "does not exist"). So the unpacked copies go, and the check builds in
    # its own target directory whose artifacts of these crates go too
    # (their dependencies stay cached).
    rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/sparse-{vocab,compiler,macros,core}-[0-9]*
    local dir="$ROOT/target/package-verify"
    rm -rf "$dir"/debug/.fingerprint/sparse-* "$dir"/debug/deps/libsparse_* \
        "$dir"/debug/deps/sparse_* "$dir"/debug/build/sparse-*
    CARGO_TARGET_DIR="$dir" cargo publish --dry-run --allow-dirty --workspace \
        --exclude sparse-tests --exclude sparse-examples
}

# The MSRV the manifests state (`rust-version`), checked with that very
# toolchain, every feature of the runtime on.
msrv_check() {
    local msrv
    msrv=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' Cargo.toml)
    if [[ -z "$msrv" ]]; then
        echo "error: no rust-version in Cargo.toml" >&2
        return 1
    fi
    if ! rustup run "$msrv" rustc --version >/dev/null 2>&1; then
        rustup toolchain install "$msrv" --profile minimal
    fi
    cargo "+$msrv" check -p sparse-vocab -p sparse-compiler -p sparse-macros \
        -p sparse-core --features sparse-core/std,sparse-core/heapless,sparse-core/defmt,sparse-core/micromath
}

miri_core() {
    # Property tests run few cases under Miri, where each case is
    # interpreted; proptest reads its regression files, hence no isolation.
    PROPTEST_CASES=${PROPTEST_CASES:-4} \
        MIRIFLAGS="${MIRIFLAGS:--Zmiri-disable-isolation}" \
        cargo +nightly miri test -p sparse-core --lib
    # What needs `alloc`: the chunk outputs of `#[parallel]` sparse
    # outputs, and the `Vec`-backed outputs whose spare capacity is written
    # through pointers (a row's reserved slots, the workspace's added list),
    # and SELL's slices (the portable path, band slices' one column per step).
    PROPTEST_CASES=${PROPTEST_CASES:-4} \
        MIRIFLAGS="${MIRIFLAGS:--Zmiri-disable-isolation}" \
        cargo +nightly miri test -p sparse-core --features std --lib -- \
        output::tests::chunk output::tests::row::rows_into_growable \
        output::tests::workspace::owned output::tests::workspace::compress_from_an_owned \
        sell::tests
}

# `__private::walk_values` walks by pointer on Arm and by index elsewhere;
# Miri interprets the Arm shape through a 32-bit Arm Linux target (its
# sysroot is built on first use).
miri_arm() {
    PROPTEST_CASES=${PROPTEST_CASES:-4} \
        MIRIFLAGS="${MIRIFLAGS:--Zmiri-disable-isolation}" \
        cargo +nightly miri test -p sparse-core --lib --target armv7-unknown-linux-gnueabihf kernel
    PROPTEST_CASES=${PROPTEST_CASES:-4} \
        MIRIFLAGS="${MIRIFLAGS:--Zmiri-disable-isolation}" \
        cargo +nightly miri test -p sparse-tests --test kernels codegen_snapshots:: \
        --target armv7-unknown-linux-gnueabihf
}

# A fixed sample of the runtime fuzz target's committed corpus (listed in
# fuzz/miri-sample.txt) replayed through the fuzz harness under Miri:
# undefined behaviour in the unchecked accessors on whatever `assemble`
# accepted. Reading files needs isolation off.
miri_fuzz_corpus() {
    MIRIFLAGS="${MIRIFLAGS:--Zmiri-disable-isolation}" \
        cargo +nightly miri test -p sparse-tests --test storage fuzz_corpus_replays
}

fuzz_smoke() {
    bash scripts/fuzz-smoke.sh
}

miri_kernels() {
    # The unchecked accessors generated kernels call, exercised by the
    # committed codegen snapshots: SpMV in five formats, COO duplicate
    # segments, union/intersection/universe co-iteration, dense views,
    # three-level tensors. (The full kernel suite under Miri takes ~15 min.)
    PROPTEST_CASES=${PROPTEST_CASES:-4} \
        MIRIFLAGS="${MIRIFLAGS:--Zmiri-disable-isolation}" \
        cargo +nightly miri test -p sparse-tests --test kernels codegen_snapshots::
}

run "cargo fmt --check (workspace and firmware)" fmt_check
run "cargo clippy --workspace --all-targets -D warnings" clippy_workspace
run "cargo test --workspace" test_workspace
run "desktop examples (demo, convert_spmv, cg) must exit 0" run_examples
run "sparse-core interop features (sprs, nalgebra-sparse)" test_interop
run "#[parallel] kernels (--features rayon)" test_parallel
run "hostile sizes under an address-space cap (prlimit --as=2G, tests/tests/storage/hostile.rs)" memory_capped
for t in "${THUMB_TARGETS[@]}"; do
    run "build sparse-core (with macros) for $t" build_thumb "$t"
done
run "build sparse-core --no-default-features --features heapless,micromath (thumbv7em)" build_no_default
run "build sparse-core with complex, half, libm without std (thumbv6m, thumbv7em)" build_element_features
run "cargo doc of the published crates (RUSTDOCFLAGS=-D warnings)" doc_core
run "cargo publish --dry-run (sparse-vocab, sparse-compiler, sparse-macros, sparse-core)" package_crates
join_background "setup: MSRV toolchain"
run "MSRV: cargo check with the rust-version of Cargo.toml" msrv_check
run "firmware: clippy (thumbv7em-none-eabihf, thumbv6m-none-eabi)" firmware_clippy
# The scripts below build in FW_TARGET_DIR with both cores (the steps run
# one at a time; their own default is one job, for a shared machine).
FW_ENV=(env CARGO_TARGET_DIR="$FW_TARGET_DIR" CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-2}")
run "generated kernels: no panic/alloc/bounds-check path in machine code (scripts/kernel-asm-check.sh)" \
    "${FW_ENV[@]}" bash "$ROOT/scripts/kernel-asm-check.sh"
join_background "setup: defmt-print (the firmware's log decoder)"
for t in "${FW_TARGETS[@]}"; do
    run "firmware on ${FW_MACHINE[$t]} ($t) under QEMU (must exit 0, output == expected/$t.txt)" firmware_pass "$t"
    run "firmware on ${FW_MACHINE[$t]}: negative test, --features inject-failure (must exit 1)" \
        firmware_negative "$t"
done
run "firmware apps (MLP in CSR/BSR/2:4, Kalman, PageRank) on M4F and M0 under QEMU, negative run (scripts/firmware-apps.sh)" \
    "${FW_ENV[@]}" bash "$ROOT/scripts/firmware-apps.sh"
run "firmware template (templates/firmware) copied out of the repository: host tests, M4F and M0 under QEMU, negative run (scripts/template-check.sh)" \
    "${FW_ENV[@]}" bash "$ROOT/scripts/template-check.sh"
if [[ "${SKIP_BOARDS:-0}" != 1 ]]; then
    # Build only (no board here); the steps run one at a time, so both cores.
    run "board crates (STM32F4, nRF52840, RP2040): cargo build --release, flash/RAM sizes (scripts/boards.sh)" \
        "${FW_ENV[@]}" bash "$ROOT/scripts/boards.sh"
fi
# Miri and the fuzz smoke step in two lanes (see run_lanes), balanced by
# their times: sparse-core's lib tests and the fuzz smoke step, and the
# generated kernels on x86-64 and 32-bit Arm and the fuzz corpus sample.
if [[ "${SKIP_MIRI:-0}" != 1 ]]; then
    join_background "setup: nightly toolchain with Miri, Miri's std (x86-64, 32-bit Arm)"
fi
if [[ "${SKIP_FUZZ:-0}" != 1 ]]; then
    join_background "setup: cargo-fuzz"
fi
LANE_A=""
LANE_B=""
if [[ "${SKIP_MIRI:-0}" != 1 ]]; then
    LANE_A+="Miri: cargo +nightly miri test -p sparse-core --lib|miri_core"$'\n'
    LANE_B+="Miri: generated kernels (tests/kernels codegen_snapshots::)|miri_kernels"$'\n'
    LANE_B+="Miri on 32-bit Arm: the pointer walks (kernel accessors, generated kernels)|miri_arm"$'\n'
    LANE_B+="Miri: runtime fuzz corpus sample (tests/storage fuzz_corpus_replays)|miri_fuzz_corpus"$'\n'
fi
if [[ "${SKIP_FUZZ:-0}" != 1 ]]; then
    LANE_A+="fuzz smoke: cargo fuzz, fixed seed and runs per target (scripts/fuzz-smoke.sh)|fuzz_smoke"$'\n'
fi
if [[ -n "$LANE_A$LANE_B" ]]; then
    run_lanes "$LANE_A" "$LANE_B"
fi

finish_step
STEP=""
printf '\n==== step timings (wall clock, CPU user + system) ====\n'
printf '%s\n' "${TIMINGS[@]}"
if [[ ${#FAILED[@]} -gt 0 ]]; then
    printf '\n==== %d step(s) FAILED in %s: ====\n' "${#FAILED[@]}" "$(elapsed)"
    printf '  %s\n' "${FAILED[@]}"
    exit 1
fi
printf '\n==== all steps passed in %s ====\n' "$(elapsed)"
