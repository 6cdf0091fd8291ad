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
# 4. A crate with one 1M-entry file constant: rebuild time (dev and
#    release) after the file changes, and rustc's peak memory.
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

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
minimum() { sort -g | head -1; }

# Wall time, and CPU time (user + sys of cargo and every rustc it runs):
# on a shared machine the wall time of a clean build varies by seconds with
# the other load, the CPU time much less.
declare -A wall cpu
TIMEFORMAT='%R %U %S'
build() { # variant, cargo flags...
    local v=$1
    shift
    { time (cd "$tmp/$v" && CARGO_TARGET_DIR="$base/gen/$v" CARGO_INCREMENTAL=0 \
        cargo "+$toolchain" build -q -j "$jobs" "$@" 2>>"$base/gen/build.log"); } 2>"$tmp/t"
    read -r real user sys <"$tmp/t"
    last_wall=$real
    last_cpu=$(echo "$user + $sys" | bc)
}
mkdir -p "$base/gen"
for profile in dev release; do
    flags=()
    [ "$profile" = release ] && flags=(--release)
    for r in $(seq "$reps"); do
        for v in empty kernels; do
            rm -rf "${base:?}/gen/$v"
            build "$v" "${flags[@]}"
            wall[$profile-$v-clean]+="$last_wall "
            cpu[$profile-$v-clean]+="$last_cpu "
            touch "$tmp/$v/src/lib.rs"
            build "$v" "${flags[@]}"
            wall[$profile-$v-crate]+="$last_wall "
            cpu[$profile-$v-crate]+="$last_cpu "
        done
    done
done

row() { # label, the two lists of times
    local a b amin bmin
    a=$(echo $2 | tr ' ' '\n' | median)
    b=$(echo $3 | tr ' ' '\n' | median)
    amin=$(echo $2 | tr ' ' '\n' | minimum)
    bmin=$(echo $3 | tr ' ' '\n' | minimum)
    printf '| %s | %.2f (%.2f) | %.2f (%.2f) | %.2f (%.2f) | %.1f (%.1f) |\n' \
        "$1" "$a" "$amin" "$b" "$bmin" "$(echo "$b - $a" | bc)" "$(echo "$bmin - $amin" | bc)" \
        "$(echo "($b - $a) * 1000 / 50" | bc -l)" "$(echo "($bmin - $amin) * 1000 / 50" | bc -l)"
}

echo
echo "## Build time of a crate with 50 kernels vs the same crate without them ($reps runs each, alternating, -j $jobs)"
echo
echo "Seconds: median and, in brackets, minimum (the least disturbed run on a shared machine)."
echo "CPU = user + sys of cargo and all the rustc processes it runs."
echo
echo "| build | without kernels | with 50 kernels | added | added per kernel (ms) |"
echo "| --- | ---: | ---: | ---: | ---: |"
for profile in dev release; do
    for what in clean crate; do
        label="\`cargo build$([ "$profile" = release ] && echo ' --release')\` $([ "$what" = clean ] && echo 'clean' || echo 'the crate alone (touch, rebuild)')"
        row "$label, wall" "${wall[$profile-empty-$what]}" "${wall[$profile-kernels-$what]}"
        row "$label, CPU" "${cpu[$profile-empty-$what]}" "${cpu[$profile-kernels-$what]}"
    done
done
echo
echo "Raw wall times (without / with):"
for k in dev-empty-clean dev-kernels-clean dev-empty-crate dev-kernels-crate \
    release-empty-clean release-kernels-clean release-empty-crate release-kernels-crate; do
    echo "    $k: wall ${wall[$k]}; CPU ${cpu[$k]}"
done

if rustup toolchain list | grep -q '^nightly'; then
    echo
    echo "## rustc -Z time-passes on the 50-kernel crate (nightly $(rustc +nightly -V | cut -d' ' -f2-), dev build; s)"
    echo
    for v in empty kernels; do
        rm -rf "$base/gen/$v"
        (cd "$tmp/$v" && CARGO_TARGET_DIR="$base/gen/$v" cargo +nightly build -q -j "$jobs" 2>/dev/null || true)
        for r in 1 2 3; do
            touch "$tmp/$v/src/lib.rs"
            (cd "$tmp/$v" && CARGO_TARGET_DIR="$base/gen/$v" CARGO_INCREMENTAL=0 \
                cargo +nightly rustc -q -j "$jobs" -- -Z time-passes 2>&1) |
                awk -v v="$v" -v r="$r" '/time:/ && ($NF == "expand_crate" || $NF == "type_check_crate" || $NF == "LLVM_passes" || $NF == "codegen_crate" || $NF == "total") { print "    " v " run " r ": " $0 }'
        done
    done
fi

echo
echo "## A file constant with 1M stored entries (977x4096 .mtx, 12 MB, into CSR 32/16)"
echo
echo "The crate alone after \`touch w.mtx\` (dependencies built), wall seconds; peak rustc RSS from /usr/bin/time."
echo
"$base/release/expand-time" gen-const-crate "$tmp/const1m" 1000000 "$core"
cp "$root/Cargo.lock" "$tmp/const1m/Cargo.lock"
echo "| build | wall (s) | peak RSS (MB) |"
echo "| --- | ---: | ---: |"
for profile in dev release; do
    flag=$([[ $profile == release ]] && echo --release || true)
    (cd "$tmp/const1m" && CARGO_TARGET_DIR="$base/gen/const1m" cargo "+$toolchain" build -q $flag -j "$jobs")
    touch "$tmp/const1m/w.mtx"
    out=$( (cd "$tmp/const1m" && CARGO_TARGET_DIR="$base/gen/const1m" /usr/bin/time -f "%e %M" cargo "+$toolchain" build -q $flag -j "$jobs") 2>&1 | tail -1)
    read -r secs kb <<<"$out"
    echo "| \`cargo build${flag:+ $flag}\` | $secs | $((kb / 1024)) |"
done
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
