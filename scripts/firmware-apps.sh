#!/usr/bin/env bash
# The firmware applications (examples/firmware-apps: pruned MLP, sparse
# Kalman step, PageRank, pruned int8 MLP) under QEMU, checked against their desktop
# references: `cargo fmt --check`, `cargo clippy --release -D warnings`
# (M4F and M0), then a run per core that must exit 0 with every
# application `ok`, and a negative run (`--features inject-failure`, one
# flipped reference logit in each MLP) that must exit 1 from both MLP
# checks.
#
# The crate is its own cargo workspace with its own `.cargo/config.toml`
# (build target, one QEMU runner per core), so cargo runs inside it. Needs
# qemu-system-arm and the thumb targets (scripts/test-all.sh installs both;
# this script adds missing targets with rustup).
#
# Usage: bash scripts/firmware-apps.sh [TARGET...]
#   default targets: thumbv7em-none-eabihf (mps2-an386, M4F) and
#   thumbv6m-none-eabi (microbit, M0, 16 KiB RAM); thumbv7m-none-eabi
#   (mps2-an385, M3) and thumbv8m.main-none-eabihf (mps2-an505, M33) run too.
# Environment:
#   CARGO_BUILD_JOBS=1   parallel jobs (default 1: two shared cores)
#   FW_TIMEOUT=120       seconds before a hung QEMU run is killed
#   CARGO_TARGET_DIR     where to build (default: the crate's own target/;
#                        the full suite shares one among its firmware builds)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$(pwd)
APP_DIR="$ROOT/examples/firmware-apps"
FW_TIMEOUT=${FW_TIMEOUT:-120}
export CARGO_BUILD_JOBS=${CARGO_BUILD_JOBS:-1}
TARGETS=("$@")
if [[ ${#TARGETS[@]} -eq 0 ]]; then
    TARGETS=(thumbv7em-none-eabihf thumbv6m-none-eabi)
fi
T0=$SECONDS

command -v qemu-system-arm >/dev/null 2>&1 || {
    echo "error: qemu-system-arm is missing (apt-get install --no-install-recommends qemu-system-arm)" >&2
    exit 1
}
cd "$APP_DIR"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$APP_DIR/target}"
installed=$(rustup target list --installed)
for t in "${TARGETS[@]}" thumbv6m-none-eabi thumbv7em-none-eabihf; do
    grep -qx "$t" <<<"$installed" || rustup target add "$t"
done

echo "==== cargo fmt --check (examples/firmware-apps) ===="
cargo fmt --check

echo "==== cargo clippy --release -D warnings (M4F, M4F + inject-failure, M0) ===="
cargo clippy -q --release -- -D warnings
cargo clippy -q --release --features inject-failure -- -D warnings
cargo clippy -q --release --target thumbv6m-none-eabi -- -D warnings

# `run_app TARGET [CARGO FLAGS...]`: builds, runs under the target's QEMU
# machine (tagged output), leaves the output in OUT and the exit status in RC.
run_app() {
    local t=$1
    shift
    cargo build -q --release --target "$t" "$@"
    local log
    log=$(mktemp)
    set +e
    timeout "$FW_TIMEOUT" cargo run -q --release --target "$t" "$@" </dev/null 2>&1 | tee "$log" | sed -u 's/^/  [fw] /'
    RC=${PIPESTATUS[0]}
    set -e
    OUT=$(cat "$log")
    rm -f "$log"
}

for t in "${TARGETS[@]}"; do
    echo "==== firmware apps on $t under QEMU (must exit 0) ===="
    run_app "$t"
    echo "exit code on $t: $RC (expected 0)"
    [[ $RC -eq 0 ]] || { echo "error: the firmware apps failed on $t" >&2; exit 1; }
    for app in mlp kalman pagerank mlp_int8; do
        grep -q "^ok   $app " <<<"$OUT" || { echo "error: no 'ok' line for $app on $t" >&2; exit 1; }
    done
    grep -qx '4 passed, 0 failed' <<<"$OUT" || { echo "error: no '4 passed, 0 failed' on $t" >&2; exit 1; }
    elf="$CARGO_TARGET_DIR/$t/release/firmware-apps"
    size=$(find "$(rustc --print sysroot)" -name llvm-size -type f 2>/dev/null | head -n 1)
    if [[ -n "$size" ]]; then
        "$size" "$elf" | awk -v t="$t" 'NR == 2 { printf "size on %s: flash %d B (text+data), static RAM %d B (data+bss)\n", t, $1 + $2, $2 + $3 }'
    fi
done

echo "==== negative run on thumbv7em-none-eabihf, --features inject-failure (must exit 1) ===="
run_app thumbv7em-none-eabihf --features inject-failure
echo "exit code with an injected failure: $RC (expected 1)"
if [[ $RC -ne 1 ]]; then
    echo "error: expected exit 1 from the failing MLP check, got $RC" >&2
    exit 1
fi
grep -q '^FAIL mlp ' <<<"$OUT" || { echo "error: exit 1, but not from the MLP check" >&2; exit 1; }
grep -q '^FAIL mlp_int8 ' <<<"$OUT" || { echo "error: exit 1, but not from the int8 MLP check" >&2; exit 1; }

echo "==== firmware apps: all passed on ${TARGETS[*]} ($((SECONDS - T0)) s) ===="
