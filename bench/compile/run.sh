#!/usr/bin/env bash
# Compile-time benchmark of sparse_kernel!.
#
#   bash bench/compile/run.sh            # REPS=3 clean builds per variant
#
# 1. Expansion time per kernel through the sparse-compiler library (the
#    function the proc macro calls), stage by stage, built at opt-level 3 and
#    at opt-level 0 (cargo builds proc macros at opt-level 0 by default).
# 2. A generated crate with 50 kernels (10 per sparse_kernel! block) and the
#    same crate with the encodings only (same blocks, same deps): clean
#    `cargo build` and `cargo build --release` times, REPS times each,
#    alternating, medians; then the crate alone (touch + rebuild, deps built).
# 3. If a nightly toolchain is installed: rustc's own `-Z time-passes`
#    figure for macro expansion of the 50-kernel crate (the real proc-macro
#    bridge, not the library).
# Build jobs: -j ${JOBS:-2}. The generated crates go to a mktemp dir (removed at
# exit), their builds to $CARGO_TARGET_DIR/gen (default bench/compile/target/gen).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
base=${CARGO_TARGET_DIR:-$here/target}
reps=${REPS:-3}
jobs=${JOBS:-2}
toolchain=$(sed -n 's/^channel = "\(.*\)"/\1/p' "$root/rust-toolchain.toml")

cd "$here"
echo "machine: $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1); load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "toolchain: $(rustc -V)"

echo
echo "## Expansion time per kernel, sparse-compiler at opt-level 3 (µs)"
echo
CARGO_TARGET_DIR=$base cargo build --release -q -j "$jobs"
"$base/release/expand-time" --reps 300
echo
echo "## The same, sparse-compiler at opt-level 0 with debug assertions (as cargo builds a proc macro by default) (µs)"
echo
CARGO_TARGET_DIR=$base cargo build --profile macro-default -q -j "$jobs"
"$base/macro-default/expand-time" --reps 300

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The crates depend on sparse-core as committed at HEAD (a `git archive`
# snapshot), so edits in progress in the working tree cannot break or skew
# the clean builds; outside a git checkout, on the working tree.
core=$root/sparse-core
if git -C "$root" rev-parse --verify -q HEAD >/dev/null; then
    mkdir "$tmp/snap"
    git -C "$root" archive HEAD | tar -x -C "$tmp/snap"
    core=$tmp/snap/sparse-core
    echo "sparse-core for the 50-kernel crate: HEAD $(git -C "$root" rev-parse --short HEAD)"
fi
for v in kernels empty; do
    "$base/release/expand-time" gen-crate "$tmp/$v" 50 "$v" "$core"
    # The versions the project's lock file pins, for both crates.
    cp "$root/Cargo.lock" "$tmp/$v/Cargo.lock"
    (cd "$tmp/$v" && CARGO_TARGET_DIR="$base/gen/$v" cargo "+$toolchain" fetch -q)
done

now() { date +%s.%N; }
median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

declare -A times
for profile in dev release; do
    flag=""
    [ "$profile" = release ] && flag="--release"
    for r in $(seq "$reps"); do
        for v in empty kernels; do
            rm -rf "$base/gen/$v"
            t0=$(now)
            (cd "$tmp/$v" && CARGO_TARGET_DIR="$base/gen/$v" CARGO_INCREMENTAL=0 cargo "+$toolchain" build -q -j "$jobs" $flag)
            t1=$(now)
            times[$profile-$v-clean]+="$(echo "$t1 - $t0" | bc) "
            touch "$tmp/$v/src/lib.rs"
            t0=$(now)
            (cd "$tmp/$v" && CARGO_TARGET_DIR="$base/gen/$v" CARGO_INCREMENTAL=0 cargo "+$toolchain" build -q -j "$jobs" $flag)
            t1=$(now)
            times[$profile-$v-crate]+="$(echo "$t1 - $t0" | bc) "
        done
    done
done

echo
echo "## Build time of a crate with 50 kernels vs the same crate without them (s, median of $reps, -j $jobs)"
echo
echo "| build | without kernels | with 50 kernels | added | added per kernel | runs (without / with) |"
echo "| --- | ---: | ---: | ---: | ---: | --- |"
for profile in dev release; do
    for what in clean crate; do
        a=$(echo ${times[$profile-empty-$what]} | tr ' ' '\n' | median)
        b=$(echo ${times[$profile-kernels-$what]} | tr ' ' '\n' | median)
        label="cargo build $([ "$profile" = release ] && echo '--release ')$([ "$what" = clean ] && echo '(clean)' || echo '(the crate alone: touch + rebuild)')"
        printf '| %s | %.2f | %.2f | %.2f | %.3f | %s / %s |\n' "$label" "$a" "$b" \
            "$(echo "$b - $a" | bc)" "$(echo "($b - $a) / 50" | bc -l)" \
            "$(echo ${times[$profile-empty-$what]})" "$(echo ${times[$profile-kernels-$what]})"
    done
done

if rustup toolchain list | grep -q '^nightly'; then
    echo
    echo "## rustc -Z time-passes on the 50-kernel crate (nightly $(rustc +nightly -V | cut -d' ' -f2-), dev build; s)"
    echo
    for v in empty kernels; do
        rm -rf "$base/gen/$v"
        (cd "$tmp/$v" && CARGO_TARGET_DIR="$base/gen/$v" cargo +nightly build -q -j "$jobs" 2>/dev/null || true)
        touch "$tmp/$v/src/lib.rs"
        (cd "$tmp/$v" && CARGO_TARGET_DIR="$base/gen/$v" CARGO_INCREMENTAL=0 cargo +nightly rustc -q -j "$jobs" -- -Z time-passes 2>&1) \
            | awk -v v="$v" '/time:/ && ($NF == "expand_crate" || $NF == "total" || $NF == "macro_expand_crate" || $NF == "type_check_crate" || $NF == "LLVM_passes" || $NF == "codegen_crate" || $NF == "run_linker") { print "    " v ": " $0 }'
    done
fi
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
