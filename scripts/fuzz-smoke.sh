#!/usr/bin/env bash
# Fuzz smoke test: builds the cargo-fuzz targets in fuzz/ and runs each for a
# short time, failing on any crash, timeout or out-of-memory. It installs
# what it needs if missing: a nightly toolchain (minimal profile) and
# cargo-fuzz (`cargo install --locked`, about a minute on 2 cores).
#
# Each target first replays the committed reproducers in
# fuzz/regressions/<target>, then fuzzes from its committed corpus
# (fuzz/corpus/<target>, read only: new inputs go to a temporary directory). A crash input is left
# in the temporary directory, and its bytes are printed (libFuzzer prints
# them, and the script prints a hex dump): see fuzz/README.md for turning it
# into a regression test.
#
# CI runs are deterministic: a fixed seed and a fixed number of runs per
# target (FUZZ_RUNS_*, about 30 s each on 2 idle cores), so a CI verdict
# is the one a contributor reproduces with the same command, never a new
# finding that happened to turn up on that machine. Explore with
# FUZZ_SECONDS (time-bound runs, a random seed) instead.
#
# Usage: bash scripts/fuzz-smoke.sh [TARGET...]   (default: every target)
# Environment:
#   FUZZ_SECONDS        run each target for this long with a random seed
#                       instead of the fixed runs
#   FUZZ_SEED=1         the seed of the fixed runs
#   FUZZ_JOBS           cargo build jobs (default: cargo's, all cores)
#   FUZZ_KEEP=DIR       keep the working corpora and artifacts in DIR
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../fuzz"
FUZZ_SEED=${FUZZ_SEED:-1}
declare -A FUZZ_RUNS=([expand_tokens]=4000 [expand_grammar]=1200 [runtime_assemble]=400000 [file_readers]=400000)
TARGETS=("$@")
if [[ ${#TARGETS[@]} -eq 0 ]]; then
    TARGETS=(expand_tokens expand_grammar runtime_assemble file_readers)
fi

if ! command -v rustup >/dev/null 2>&1 && [[ -x "$HOME/.cargo/bin/rustup" ]]; then
    export PATH="$HOME/.cargo/bin:$PATH"
fi
if ! rustup run nightly rustc --version >/dev/null 2>&1; then
    rustup toolchain install nightly --profile minimal
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi
rustup run nightly rustc --version
cargo fuzz --version

if [[ -n "${FUZZ_KEEP:-}" ]]; then
    WORK=$FUZZ_KEEP
    mkdir -p "$WORK"
else
    WORK=$(mktemp -d)
    trap 'rm -rf "$WORK"' EXIT
fi

# Per target: the longest input, and extra flags. The compiler targets read
# text (a few KiB holds a block with several kernels) and use the language's
# dictionary; the grammar target's inputs are choices, not text, so it
# skips libFuzzer's slow length ramp-up.
declare -A MAX_LEN=([expand_tokens]=4096 [expand_grammar]=4096 [runtime_assemble]=512 [file_readers]=4096)
declare -A EXTRA=(
    [expand_tokens]="-dict=dict/kernel.dict"
    [expand_grammar]="-len_control=0"
    [runtime_assemble]=""
    [file_readers]=""
)

# One build for every target. -a: debug assertions and overflow checks, so
# an arithmetic overflow in the compiler or the runtime is a crash.
if [[ -n "${FUZZ_JOBS:-}" ]]; then
    export CARGO_BUILD_JOBS=$FUZZ_JOBS
fi
T0=$SECONDS
cargo +nightly fuzz build -a
echo "fuzz build: $((SECONDS - T0))s"

failed=()
for target in "${TARGETS[@]}"; do
    if [[ -z "${MAX_LEN[$target]+x}" ]]; then
        echo "error: unknown fuzz target '$target'" >&2
        exit 2
    fi
    mkdir -p "$WORK/$target" "$WORK/artifacts/$target"
    # The reproducers one by one, whole: as a corpus directory they would be
    # cut to -max_len.
    mapfile -t repro < <(find "regressions/$target" -type f ! -name .keep 2>/dev/null | sort)
    if [[ ${#repro[@]} -gt 0 ]]; then
        printf '\n==== %s: %d regression input(s) ====\n' "$target" "${#repro[@]}"
        if ! cargo +nightly fuzz run -a "$target" "${repro[@]}" -- -timeout=1 -rss_limit_mb=1024 \
            -artifact_prefix="$WORK/artifacts/$target/" 2>&1 | grep -E '^Running:|^Executed|ERROR|panicked'; then
            failed+=("$target")
        fi
    fi
    if [[ -n "${FUZZ_SECONDS:-}" ]]; then
        budget=(-max_total_time="$FUZZ_SECONDS")
        printf '\n==== fuzz %s for %ss ====\n' "$target" "$FUZZ_SECONDS"
    else
        budget=(-runs="${FUZZ_RUNS[$target]}" -seed="$FUZZ_SEED")
        printf '\n==== fuzz %s: %s runs, seed %s ====\n' "$target" "${FUZZ_RUNS[$target]}" "$FUZZ_SEED"
    fi
    # shellcheck disable=SC2086  # EXTRA holds separate flags
    if ! cargo +nightly fuzz run -a "$target" "$WORK/$target" "corpus/$target" -- \
        "${budget[@]}" -timeout=1 -rss_limit_mb=1024 \
        -max_len="${MAX_LEN[$target]}" -print_final_stats=1 \
        -artifact_prefix="$WORK/artifacts/$target/" ${EXTRA[$target]} 2>&1 |
        grep -v -E '^#[0-9]+\s+(NEW|REDUCE)|^\s+NEW_FUNC'; then
        failed+=("$target")
    fi
    for f in "$WORK/artifacts/$target"/*; do
        [[ -f "$f" ]] || continue
        failed+=("$target")
        echo "---- $target: $(basename "$f") ($(wc -c <"$f") bytes), hex:"
        od -An -tx1 -v "$f" | head -n 64
    done
done

if [[ ${#failed[@]} -gt 0 ]]; then
    printf '\nfuzz smoke FAILED: %s\n' "$(printf '%s\n' "${failed[@]}" | sort -u | tr '\n' ' ')" >&2
    exit 1
fi
printf '\nfuzz smoke passed: %s\n' "${TARGETS[*]}"
