#!/usr/bin/env bash
# The int8 fully connected benchmark (issue "pruned int8 layers"): CMSIS-NN's
# arm_fully_connected_s8, the hand-written sparse C kernels and the
# sparse_kernel! layers (CSR, 2:4, BSR 4x4) on the same weights, 64x256 and
# 128x512, 75% and 90% zeros, opt-level s and 3, on the Cortex-M4F
# (mps2-an386), M33 (mps2-an505) and M0 (microbit: the 64x256 layer only),
# under QEMU with the instruction-counting plugin. The M33 is built as a
# Cortex-M33 (`-C target-cpu=cortex-m33`: its DSP extension on, as gcc's
# `-mcpu=cortex-m33` has it for CMSIS-NN), so sparse-core's dual-MAC
# routines use SMLAD there too.
#
#   CMSIS_NN_GIT=<CMSIS-NN git dir> bash bench/firmware/run.sh int8
#   bash bench/firmware/run.sh int8        # without the C columns
#
# CMSIS_NN_GIT is a bare clone or a checkout's .git of
# github.com/ARM-software/CMSIS-NN holding the pinned commit (see
# int8/build_c.rs); without it the CMSIS-NN and hand-written C columns are
# skipped. INT8_TARGETS and INT8_ZEROS narrow the runs (defaults: all three
# cores, "75 90"). Every variant's output is checked bit for bit against
# int8/gen.py's (numpy, TFLite's formulas) in both passes; a negative run with
# a wrong expected output must exit 1. Raw outputs go to
# $CARGO_TARGET_DIR/results (default bench/firmware/target/results); the
# tables of RESULTS.md are printed at the end. Exit 0 only if every check
# passed.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/../.." && pwd)
base=${CARGO_TARGET_DIR:-$here/target}
out=$base/results
mkdir -p "$out"
jobs=${BENCH_JOBS:-2}
read -r -a targets <<<"${INT8_TARGETS:-thumbv7em-none-eabihf thumbv8m.main-none-eabihf thumbv6m-none-eabi}"
read -r -a zero_levels <<<"${INT8_ZEROS:-75 90}"
declare -A MACHINE=(
    [thumbv6m-none-eabi]="-cpu cortex-m0 -machine microbit"
    [thumbv7em-none-eabihf]="-cpu cortex-m4 -machine mps2-an386"
    [thumbv8m.main-none-eabihf]="-cpu cortex-m33 -machine mps2-an505"
)
declare -A MCPU=(
    [thumbv6m-none-eabi]=cortex-m0
    [thumbv7em-none-eabihf]=cortex-m4
    [thumbv8m.main-none-eabihf]=cortex-m33
)

cd "$here"
rustup target add "${targets[@]}" >/dev/null
rustup component add llvm-tools >/dev/null
if ! command -v qemu-system-arm >/dev/null || ! command -v gcc >/dev/null \
    || ! command -v arm-none-eabi-gcc >/dev/null || ! /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends qemu-system-arm gcc gcc-arm-none-eabi python3-numpy
fi
if [ -z "${CMSIS_NN_GIT:-}" ]; then
    echo "CMSIS_NN_GIT is not set: no CMSIS-NN and hand-written C columns" >&2
fi
host=$(rustc -vV | sed -n 's/^host: //p')
tools=$(rustc --print sysroot)/lib/rustlib/$host/bin
plugin=$out/insn_range.so
gcc -O2 -shared -fPIC -o "$plugin" "$root/bench/qemu-insn/insn_range.c"

# `run_image ZEROS TARGET OPT`: builds, records nm/objdump, runs under QEMU.
run_image() {
    local zeros=$1 t=$2 opt=$3
    local label=int8-$zeros-$t-$opt dir=$base/int8-o$opt
    echo "== $zeros% zeros, $t, opt-level $opt" >&2
    CARGO_TARGET_DIR=$dir CARGO_PROFILE_RELEASE_OPT_LEVEL=$opt \
        CARGO_TARGET_THUMBV8M_MAIN_NONE_EABIHF_RUSTFLAGS="-C target-cpu=cortex-m33" \
        cargo build --release -q -j "$jobs" --features int8 --bin bench-int8 --target "$t"
    local elf=$dir/$t/release/bench-int8
    "$tools/llvm-nm" -S --size-sort "$elf" >"$out/nm-$label.txt"
    "$tools/llvm-objdump" -d --no-show-raw-insn --mcpu="${MCPU[$t]}" "$elf" >"$out/objdump-$label.txt"
    if grep -E '__rust_alloc|__rg_alloc|__rdl_alloc|__rust_no_alloc_shim|__rust_dealloc' "$out/nm-$label.txt"; then
        echo "FAIL: allocator symbols linked ($label)" >&2
        exit 1
    fi
    local marker status=0
    marker=$("$tools/llvm-nm" "$elf" | awk '$3 == "bench_marker" { print "0x" $1 }')
    # shellcheck disable=SC2086 # MACHINE holds several arguments
    timeout 300 qemu-system-arm ${MACHINE[$t]} -nographic -semihosting-config enable=on,target=native \
        -plugin "$plugin,marker=$marker,out=$out/counts-$label.txt" -kernel "$elf" </dev/null \
        >"$out/log-$label.txt" || status=$?
    grep -E '^(FAIL|all )' "$out/log-$label.txt" | sed 's/^/    /' >&2
    if [ "$status" -ne 0 ]; then
        echo "FAIL: firmware exited $status ($label)" >&2
        exit 1
    fi
}

labels=()
for zeros in "${zero_levels[@]}"; do
    /usr/bin/python3 int8/gen.py "$zeros" int8/data >&2
    for t in "${targets[@]}"; do
        for opt in s 3; do
            run_image "$zeros" "$t" "$opt"
            labels+=("int8-$zeros-$t-$opt")
        done
    done
done

echo "== negative test: a wrong expected output must fail" >&2
t=${targets[0]}
dir=$base/int8-inject
CARGO_TARGET_DIR=$dir cargo build --release -q -j "$jobs" --features int8,inject-failure --bin bench-int8 --target "$t"
status=0
# shellcheck disable=SC2086
timeout 300 qemu-system-arm ${MACHINE[$t]} -nographic -semihosting-config enable=on,target=native \
    -kernel "$dir/$t/release/bench-int8" </dev/null >"$out/log-int8-inject.txt" || status=$?
if [ "$status" -ne 1 ]; then
    echo "FAIL: the firmware with a wrong expected output exited $status, not 1" >&2
    exit 1
fi
echo "negative test: exit 1 as required ($(grep -c '^FAIL' "$out/log-int8-inject.txt") mismatches reported)" >&2

echo "== results (raw files in $out)" >&2
/usr/bin/python3 "$here/int8/analyze.py" "$out" "${labels[@]}"
