#!/usr/bin/env bash
# Cortex-M4F benchmark of the generated CSR SpMV, and of the BSR 2x2 / 4x4
# and 2:4 SpMVs against CSR on the same weights, under QEMU (mps2-an386);
# with `cores`, the CSR SpMV against gcc -O2 C on all four cores and the
# stack of every kernel shape of the firmware tests.
#
#   bash bench/firmware/run.sh          # M4F: RESULTS.md
#   bash bench/firmware/run.sh cores    # M0, M3, M4F, M33: RESULTS.md "Per core", BENCHMARKS.md
#   bash bench/firmware/run.sh int8     # int8 layers against CMSIS-NN: int8/run.sh
#
# Installs what it needs (thumb targets, llvm-tools, qemu-system-arm and
# gcc, arm-none-eabi-gcc through apt when missing; defmt-print for `cores`),
# builds the firmware at opt-level 3 and s,
# runs it under QEMU with the instruction-counting plugin (bench/qemu-insn),
# checks that the image links no allocator, runs the negative test (a wrong
# reference must make the firmware exit 1), and prints the tables of
# RESULTS.md. Raw outputs go to $CARGO_TARGET_DIR/results (default
# bench/firmware/target/results). Exit status 0 only if every check passed.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
base=${CARGO_TARGET_DIR:-$here/target}
out=$base/results
mkdir -p "$out"
mode=${1:-m4f}
case $mode in
m4f | cores) ;;
int8) exec bash "$here/int8/run.sh" ;;
*)
    echo "usage: $0 [cores | int8]" >&2
    exit 2
    ;;
esac
target=thumbv7em-none-eabihf
CORES=(thumbv6m-none-eabi thumbv7m-none-eabi thumbv7em-none-eabihf thumbv8m.main-none-eabihf)
# QEMU machine and core of each target (as boards/qemu-mps2-an386).
declare -A MACHINE=(
    [thumbv6m-none-eabi]="-cpu cortex-m0 -machine microbit"
    [thumbv7m-none-eabi]="-cpu cortex-m3 -machine mps2-an385"
    [thumbv7em-none-eabihf]="-cpu cortex-m4 -machine mps2-an386"
    [thumbv8m.main-none-eabihf]="-cpu cortex-m33 -machine mps2-an505"
)
declare -A MCPU=(
    [thumbv6m-none-eabi]=cortex-m0
    [thumbv7m-none-eabi]=cortex-m3
    [thumbv7em-none-eabihf]=cortex-m4
    [thumbv8m.main-none-eabihf]=cortex-m33
)
# Parallel build jobs (BENCH_JOBS=1 on a machine shared with other builds).
jobs=${BENCH_JOBS:-2}

# The toolchain is the one rust-toolchain.toml pins (cargo runs inside the repo).
cd "$here"
if [ "$mode" = cores ]; then
    rustup target add "${CORES[@]}" >/dev/null
else
    rustup target add "$target" >/dev/null
fi
rustup component add llvm-tools >/dev/null
# gcc builds the plugin; arm-none-eabi-gcc the C reference loop (src/spmv.c).
if ! command -v qemu-system-arm >/dev/null || ! command -v gcc >/dev/null \
    || ! command -v arm-none-eabi-gcc >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends qemu-system-arm gcc gcc-arm-none-eabi
fi
host=$(rustc -vV | sed -n 's/^host: //p')
tools=$(rustc --print sysroot)/lib/rustlib/$host/bin

plugin=$out/insn_range.so
gcc -O2 -shared -fPIC -o "$plugin" "$root/bench/qemu-insn/insn_range.c"

kernels="gen_f32 outlined_f32 proposed_f32 unchecked_f32 safe_f32 gen_static_f32 zip_f32 ptr_f32 ptr2_f32 iter_f32 c_f32 c_nofma_f32 gen_f64 unchecked_f64 safe_f64"
# Block formats (issue 11, item 7): BSR 2x2 / 4x4, 2:4, dense, and their C loops.
kernels+=" bsr2_f32 bsr4_f32 nv24_f32 bsr2_prop_f32 bsr4_prop_f32 nv24_prop_f32 gen_dense_f32 dense_f32 c_bsr2_f32 c_bsr2_nofma_f32 c_bsr4_f32 c_bsr4_nofma_f32 c_nv24_f32 c_nv24_nofma_f32 c_dense_f32 c_dense_nofma_f32"

# `bench_image TARGET OPT LABEL`: builds the firmware for TARGET at OPT,
# writes nm/objdump/size/log/counts-LABEL.txt and fails on allocator
# symbols or a failing run.
bench_image() {
    local t=$1 opt=$2 label=$3
    local dir=$base/o$opt
    echo "== $t, opt-level $opt: build" >&2
    CARGO_TARGET_DIR=$dir CARGO_PROFILE_RELEASE_OPT_LEVEL=$opt \
        cargo build --release -q -j "$jobs" --features c-kernel --target "$t"
    local elf=$dir/$t/release/bench-firmware
    "$tools/llvm-nm" -S --size-sort "$elf" >"$out/nm-$label.txt"
    "$tools/llvm-objdump" -d --no-show-raw-insn --mcpu="${MCPU[$t]}" "$elf" >"$out/objdump-$label.txt"
    "$tools/llvm-size" -A "$elf" >"$out/size-$label.txt"

    # Zero heap: no allocator entry point may be linked.
    if grep -E '__rust_alloc|__rg_alloc|__rdl_alloc|__rust_no_alloc_shim|__rust_dealloc' \
        "$out/nm-$label.txt"; then
        echo "FAIL: allocator symbols linked ($t, opt-level $opt)" >&2
        exit 1
    fi
    echo "$t, opt-level $opt: no allocator symbols (__rust_alloc, __rg_alloc, __rdl_alloc, __rust_dealloc)" >&2

    local marker args k addr size status
    marker=$("$tools/llvm-nm" "$elf" | awk '$3 == "bench_marker" { print "0x" $1 }')
    args="marker=$marker,out=$out/counts-$label.txt"
    for k in $kernels; do
        read -r addr size < <(awk -v s="bench_$k" '$4 == s { print $1, $2 }' "$out/nm-$label.txt") || continue
        args+=",range=$k:0x$addr:$(printf '0x%x' $((0x$addr + 0x$size)))"
    done
    echo "== $t, opt-level $opt: run under QEMU with the counting plugin" >&2
    status=0
    # shellcheck disable=SC2086 # MACHINE holds several arguments
    timeout 300 qemu-system-arm ${MACHINE[$t]} -nographic -semihosting-config enable=on,target=native \
        -plugin "$plugin,$args" -kernel "$elf" </dev/null >"$out/log-$label.txt" || status=$?
    sed 's/^/    /' "$out/log-$label.txt" | grep -vE '^    (MEASURE|ok) ' >&2
    if [ "$status" -ne 0 ]; then
        echo "FAIL: firmware exited $status ($t, opt-level $opt)" >&2
        exit 1
    fi
}

if [ "$mode" = cores ]; then
    for t in "${CORES[@]}"; do
        for opt in 3 s; do
            bench_image "$t" "$opt" "$t-$opt"
        done
    done
    # The stack of every kernel shape of the firmware tests
    # (boards/qemu-mps2-an386/src/stack.rs): their exact bytes are logged
    # at defmt debug level, compiled in by this DEFMT_LOG.
    if ! command -v defmt-print >/dev/null; then
        cargo install defmt-print --locked --version 1.2.0
    fi
    for t in "${CORES[@]}"; do
        echo "== firmware tests on $t: stack of each kernel shape" >&2
        status=0
        (cd "$root/boards/qemu-mps2-an386" &&
            DEFMT_LOG=info,qemu_mps2_an386::stack=debug CARGO_TARGET_DIR=$base/fw-stack \
                timeout 300 cargo run -q --release -j "$jobs" --target "$t" </dev/null) \
            >"$out/fw-stack-$t.txt" || status=$?
        if [ "$status" -ne 0 ]; then
            cat "$out/fw-stack-$t.txt" >&2
            echo "FAIL: the firmware tests exited $status on $t" >&2
            exit 1
        fi
        grep '^STACK ' "$out/fw-stack-$t.txt" >"$out/stack-$t.txt"
    done
    echo "== results (raw files in $out)" >&2
    python3 "$here/analyze.py" --cores "$out" "${CORES[@]}"
    exit 0
fi

for opt in 3 s; do
    bench_image "$target" "$opt" "$opt"
done

echo "== negative test: a wrong reference must fail" >&2
dir=$base/inject
CARGO_TARGET_DIR=$dir cargo build --release -q -j "$jobs" --features inject-failure
status=0
# shellcheck disable=SC2086
timeout 300 qemu-system-arm ${MACHINE[$target]} -nographic -semihosting-config enable=on,target=native \
    -kernel "$dir/$target/release/bench-firmware" </dev/null \
    >"$out/log-inject.txt" || status=$?
if [ "$status" -ne 1 ]; then
    echo "FAIL: the firmware with a wrong reference exited $status, not 1" >&2
    exit 1
fi
echo "negative test: exit 1 as required ($(grep -c '^FAIL' "$out/log-inject.txt") mismatches reported)" >&2

echo "== results (raw files in $out)" >&2
python3 "$here/analyze.py" "$out" 3 s
