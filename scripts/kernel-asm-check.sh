#!/usr/bin/env bash
# No panic path, no allocator call, no bounds-check panic in the machine code
# of generated kernels (issue 14 item 5; docs/ARCHITECTURE.md, "Checking the
# generated code").
#
# Builds tools/kernel-asm (codegen snapshots behind `#[no_mangle]` wrappers
# `sk_*`) in release as a staticlib for each target, links each wrapper
# alone with rust-lld --gc-sections and the wrapper as the entry point, so
# the linked ELF holds exactly the code and data reachable from it
# (transitively, across sparse-core, core and compiler_builtins), and fails
# if any symbol in it matches $DENY. The canary `canary_bounds_check` (a
# plain `x[i]`) must be caught on every target, or the check itself is
# broken.
#
# No allowlist: every wrapper must be clean.
#
# Usage: scripts/kernel-asm-check.sh [target[:cpu]...]   (default: the three
# targets, and x86-64 twice more with `-C target-cpu=x86-64-v3` and
# `x86-64-v4`: a kernel compiled once per vector extension keeps, without
# `std`, the one copy the build's features select, so those two builds
# check its AVX2 and AVX-512 copies)
# Environment: CARGO_BUILD_JOBS (default 1), CARGO_TARGET_DIR (default the
# crate's own target/)
set -euo pipefail

cd "$(dirname "$0")/../tools/kernel-asm"
# The crate's own target directory unless CARGO_TARGET_DIR names another
# (the full suite shares one among its firmware builds).
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$(pwd)/target}"

TARGETS=("$@")
if [ ${#TARGETS[@]} -eq 0 ]; then
    TARGETS=(thumbv7em-none-eabihf thumbv6m-none-eabi x86_64-unknown-linux-gnu
        x86_64-unknown-linux-gnu:x86-64-v3 x86_64-unknown-linux-gnu:x86-64-v4)
fi
# At least this many `sk_*` wrappers (guards against checking nothing).
MIN_WRAPPERS=33

# Demangled symbol names that mean a panic, unwind or allocator path.
# (Not `rust_eh_personality`: on x86-64 the .eh_frame CIE of live code
# refers to it as data, with no call; panic=abort, and the entry points of
# an unwind, `rust_begin_unwind`, `__rust_start_panic`, `_Unwind_*`, are
# denied.)
DENY='core::panicking::|panic_bounds_check|panic_fmt|panic_const|panic_nounwind|panic_on_ord_violation|slice_(start_|end_)?index|str_index|unwrap_failed|expect_failed|rust_begin_unwind|__rust_start_panic|rust_panic|_Unwind_|__rust_alloc|__rust_dealloc|__rust_realloc|__rust_alloc_zeroed|__rg_alloc|handle_alloc_error|alloc::alloc::|capacity_overflow|alloc::raw_vec::'

BIN="$(rustc --print sysroot)/lib/rustlib/$(rustc -vV | sed -n 's/^host: //p')/bin"
LLD="$BIN/rust-lld"
NM="$BIN/llvm-nm"
OBJDUMP="$BIN/llvm-objdump"
for tool in "$LLD" "$NM" "$OBJDUMP"; do
    [ -x "$tool" ] || { echo "missing $tool (rustup component add llvm-tools)" >&2; exit 2; }
done

OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT

# Links entry symbol $2 of archive $1 alone (extra linker flags in $LINK)
# and prints the denied symbols it reaches, defined or not; a failed link
# prints LINK-FAILED.
reach() {
    local archive=$1 sym=$2 elf="$OUT/$2.elf"
    # shellcheck disable=SC2086
    if ! "$LLD" -flavor gnu --gc-sections -e "$sym" $LINK -o "$elf" "$archive" >"$OUT/link.log" 2>&1; then
        echo "LINK-FAILED (see below)"
        sed 's/^/        /' "$OUT/link.log" | head -20
        return
    fi
    "$NM" -C -j "$elf" | grep -E "$DENY" | sort -u || true
}

callers() {
    local elf="$OUT/$1.elf" bad=$2
    "$OBJDUMP" -d -C --no-show-raw-insn "$elf" |
        awk -v bad="$bad" '/^[0-9a-f]+ </ { f = $0 } index($0, "<" bad ">") && !/^[0-9a-f]+ </ { print f }' |
        sort -u | sed 's/^/        called from /'
}

status=0
for entry in "${TARGETS[@]}"; do
    target=${entry%%:*}
    cpu=${entry#"$target"}
    cpu=${cpu#:}
    if [ -n "$cpu" ]; then
        # With `--target`, RUSTFLAGS reach the target's crates only: the
        # host's (the proc macro and its dependencies) stay built.
        RUSTFLAGS="${RUSTFLAGS:+$RUSTFLAGS }-C target-cpu=$cpu" \
            cargo build --release --target "$target" -j "${CARGO_BUILD_JOBS:-1}" -q
    else
        cargo build --release --target "$target" -j "${CARGO_BUILD_JOBS:-1}" -q
    fi
    # A hosted target's core expects libc's mem* functions: leave them (and
    # anything else unresolved, which still shows up in the symbol table
    # and is still checked) undefined.
    case $target in
        thumb*) LINK="" ;;
        *) LINK="--unresolved-symbols=ignore-all" ;;
    esac
    archive="$CARGO_TARGET_DIR/$target/release/libkernel_asm.a"
    mapfile -t wrappers < <("$NM" --defined-only -j "$archive" 2>/dev/null | grep '^sk_' | sort -u)
    if [ ${#wrappers[@]} -lt $MIN_WRAPPERS ]; then
        echo "FAIL $entry: ${#wrappers[@]} sk_* wrappers, expected at least $MIN_WRAPPERS"
        status=1
        continue
    fi
    if [ -z "$(reach "$archive" canary_bounds_check)" ]; then
        echo "FAIL $entry: the canary's panic_bounds_check was not detected (check broken)"
        status=1
        continue
    fi
    bad_here=0
    for w in "${wrappers[@]}"; do
        found="$(reach "$archive" "$w")"
        if [ -n "$found" ]; then
            echo "FAIL $entry $w reaches:"
            while IFS= read -r s; do
                echo "    $s"
                callers "$w" "$s" | head -5
            done <<<"$found"
            bad_here=1
        fi
    done
    if [ $bad_here -eq 0 ]; then
        echo "ok   $entry: ${#wrappers[@]} wrappers, no panic/unwind/alloc symbol reachable"
    else
        status=1
    fi
done
exit $status
