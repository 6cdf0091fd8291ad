#!/usr/bin/env bash
# Builds the board crates (boards/stm32f4, boards/nrf52840, boards/rp2040)
# with `cargo build --release` and prints the flash and static RAM size of
# each ELF. The committed Cargo.lock of each crate pins the HAL versions;
# cargo may still add to it when sparse-core's own dependencies change
# (no `--locked`, as for the other firmware crates). Build only: running
# them needs the board and a probe (`cargo run --release` in a crate's
# directory, see its README).
#
# Each crate is its own cargo workspace with its own `.cargo/config.toml`
# (build target, probe-rs runner), so cargo runs inside each directory. The
# script installs the crates' targets (`rustup target add`) and the
# llvm-tools component (for `llvm-size`) when they are missing.
#
# Usage: bash scripts/boards.sh [BOARD...]    (default: all three)
# Environment:
#   CARGO_BUILD_JOBS=1   parallel jobs (default 1: the CI machine has two
#                        shared cores)
#   BOARDS_TARGET_DIR    one target directory shared by the three builds
#                        (default: $CARGO_TARGET_DIR if set, else
#                        boards/target), so the host-side
#                        proc-macro crates (syn, sparse-macros, ...) and the
#                        Cortex-M4 dependencies are compiled once, not per
#                        board
#   BOARDS_CLIPPY=1      also `cargo clippy --release -- -D warnings` per
#                        crate (adds a check build of every dependency)
#
# Sizes: flash = .vector_table + .boot2 + .text + .rodata + .data's load
# image (llvm-size's text + data); static RAM = .data + .bss + .uninit
# (data + bss: the defmt-rtt buffer is 1 KiB of it). The stack is the rest
# of RAM and is not counted.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$(pwd)
JOBS=${CARGO_BUILD_JOBS:-1}
export CARGO_TARGET_DIR=${BOARDS_TARGET_DIR:-${CARGO_TARGET_DIR:-$ROOT/boards/target}}
BOARDS=("$@")
if [[ ${#BOARDS[@]} -eq 0 ]]; then
    BOARDS=(stm32f4 nrf52840 rp2040)
fi

# The build target of a board crate: `target = "..."` in its .cargo/config.toml.
board_target() {
    sed -n 's/^target *= *"\(.*\)".*/\1/p' "$ROOT/boards/$1/.cargo/config.toml" | head -n 1
}

# A board's package (and binary) name, from its Cargo.toml.
board_package() {
    sed -n 's/^name *= *"\(.*\)".*/\1/p' "$ROOT/boards/$1/Cargo.toml" | head -n 1
}

for b in "${BOARDS[@]}"; do
    [[ -f "$ROOT/boards/$b/.cargo/config.toml" ]] || { echo "no board crate boards/$b" >&2; exit 2; }
done

# Targets: every crate's, installed once (rustup's toolchain is the one
# rust-toolchain.toml pins, since rustup finds it from the crate's directory).
installed=$(cd "$ROOT/boards/${BOARDS[0]}" && rustup target list --installed)
for b in "${BOARDS[@]}"; do
    t=$(board_target "$b")
    if ! grep -qx "$t" <<<"$installed"; then
        (cd "$ROOT/boards/$b" && rustup target add "$t")
        installed+=$'\n'"$t"
    fi
done

# A size tool: llvm-size from llvm-tools, else binutils' arm-none-eabi-size.
find_llvm_size() {
    local sysroot
    sysroot=$(cd "$ROOT/boards/${BOARDS[0]}" && rustc --print sysroot)
    compgen -G "$sysroot/lib/rustlib/*/bin/llvm-size" | head -n 1
}
SIZE=$(find_llvm_size || true)
if [[ -z "$SIZE" ]]; then
    (cd "$ROOT/boards/${BOARDS[0]}" && rustup component add llvm-tools) || true
    SIZE=$(find_llvm_size || true)
fi
if [[ -z "$SIZE" ]]; then
    SIZE=$(command -v arm-none-eabi-size || true)
fi
[[ -n "$SIZE" ]] || { echo "no llvm-size (rustup component add llvm-tools) nor arm-none-eabi-size" >&2; exit 2; }

ROWS=()
T0=$SECONDS
for b in "${BOARDS[@]}"; do
    t=$(board_target "$b")
    pkg=$(board_package "$b")
    printf '\n==== boards/%s (%s) ====\n' "$b" "$t"
    t_build=$SECONDS
    (
        cd "$ROOT/boards/$b"
        cargo fmt -- --check
        cargo build --release -j "$JOBS"
        if [[ "${BOARDS_CLIPPY:-0}" == 1 ]]; then
            cargo clippy --release -j "$JOBS" -- -D warnings
        fi
    )
    elf="$CARGO_TARGET_DIR/$t/release/$pkg"
    # Berkeley format: "text data bss dec hex filename".
    read -r text data bss _ < <("$SIZE" "$elf" | awk 'NR == 2')
    ROWS+=("$(printf '%-9s %-22s %9d %9d %7ds  %s' "$b" "$t" \
        $((text + data)) $((data + bss)) $((SECONDS - t_build)) "${elf#"$ROOT"/}")")
done

printf '\n==== board crates: sizes (bytes) ====\n'
printf '%-9s %-22s %9s %9s %8s  %s\n' board target flash RAM build elf
printf '%s\n' "${ROWS[@]}"
printf 'flash = text + .data (load image); RAM = static .data + .bss (stack not counted)\n'
printf 'all boards built in %ds\n' $((SECONDS - T0))
