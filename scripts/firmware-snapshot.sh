#!/usr/bin/env bash
# Expected-output snapshots of the QEMU firmware (boards/qemu-mps2-an386),
# as the defmt and rtic repositories keep them: the decoded defmt text of a
# passing run on each core is committed as
# boards/qemu-mps2-an386/expected/<target>.txt, and every run must print
# exactly that text. A check added, renamed, failing or skipped, a changed
# banner or a corrupt defmt frame is a difference, printed as a unified diff.
#
#   bash scripts/firmware-snapshot.sh [TARGET...]
#       build, run under QEMU and compare (default: the four cores)
#   BLESS=1 bash scripts/firmware-snapshot.sh [TARGET...]
#       build, run and rewrite the expected files (review the git diff)
#   bash scripts/firmware-snapshot.sh --compare TARGET FILE
#       compare an output already captured (what scripts/test-all.sh does)
#
# A run is compared or blessed only when QEMU exited 0 (the firmware's
# verdict); an expected file must close with `N passed, 0 failed`, N > 0,
# so a failing or empty run can never be blessed. Exit status: 0 when every
# output matches, 1 otherwise. Needs qemu-system-arm and defmt-print
# (`cargo install defmt-print --locked --version 1.2.0`); without
# defmt-print it prints SKIP and exits 0 (1 with REQUIRE_DEFMT_PRINT=1).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FW_DIR=$ROOT/boards/qemu-mps2-an386
EXPECTED_DIR=$FW_DIR/expected
ALL_TARGETS=(thumbv6m-none-eabi thumbv7m-none-eabi thumbv7em-none-eabihf thumbv8m.main-none-eabihf)

# `compare TARGET FILE`: FILE against the target's expected output (or,
# with BLESS=1, FILE becomes it).
compare() {
    local target=$1 actual rc=0
    local expected=$EXPECTED_DIR/$target.txt
    # FILE may be a pipe (`<(...)`), readable once: keep a copy.
    actual=$(mktemp)
    cat "$2" >"$actual"
    compare_file "$target" "$expected" "$actual" || rc=$?
    rm -f "$actual"
    return "$rc"
}

compare_file() {
    local target=$1 expected=$2 actual=$3
    if ! grep -Eq '^[1-9][0-9]* passed, 0 failed$' "$actual"; then
        echo "error: $target: the output has no 'N passed, 0 failed' line with N > 0" >&2
        return 1
    fi
    if [[ "${BLESS:-0}" == 1 ]]; then
        mkdir -p "$EXPECTED_DIR"
        cp "$actual" "$expected"
        echo "blessed ${expected#"$ROOT"/} ($(wc -l <"$expected") lines)"
        return 0
    fi
    if [[ ! -f "$expected" ]]; then
        echo "error: no expected output ${expected#"$ROOT"/}; create it with" >&2
        echo "  BLESS=1 bash scripts/firmware-snapshot.sh $target" >&2
        return 1
    fi
    if ! diff -u --label "expected/$target.txt" --label "this run" "$expected" "$actual"; then
        echo "error: $target: the firmware's output differs from ${expected#"$ROOT"/} (diff above)." >&2
        echo "If the change is intended: BLESS=1 bash scripts/firmware-snapshot.sh $target" >&2
        return 1
    fi
    echo "$target: output matches ${expected#"$ROOT"/} ($(wc -l <"$expected") lines)"
}

# `run TARGET`: build, run under QEMU (the crate's runner decodes the defmt
# frames), require exit 0, compare.
run() {
    local target=$1 out rc
    out=$(mktemp)
    (cd "$FW_DIR" && cargo build -q --release --target "$target")
    set +e
    (cd "$FW_DIR" && timeout "${FW_TIMEOUT:-300}" cargo run -q --release --target "$target" </dev/null) >"$out" 2>&1
    rc=$?
    set -e
    if [[ $rc -ne 0 ]]; then
        sed 's/^/  [fw] /' "$out"
        echo "error: the firmware exited $rc on $target (expected 0)" >&2
        rm -f "$out"
        return 1
    fi
    rc=0
    compare "$target" "$out" || rc=$?
    rm -f "$out"
    return "$rc"
}

if [[ "${1:-}" == --compare ]]; then
    if [[ $# -ne 3 ]]; then
        echo "usage: $0 --compare TARGET FILE" >&2
        exit 2
    fi
    compare "$2" "$3"
    exit
fi

# Without the decoder there is no text to compare: a clear skip (exit 0)
# rather than a failure of every core. `REQUIRE_DEFMT_PRINT=1` makes it an
# error; scripts/test-all.sh installs defmt-print and compares through
# `--compare`, so CI never skips.
if ! command -v defmt-print >/dev/null 2>&1; then
    echo "SKIP: defmt-print is not installed, so the firmware's defmt output cannot be" >&2
    echo "      decoded and compared. Install it once (~1.5 to 7 minutes):" >&2
    echo "          cargo install defmt-print --locked --version 1.2.0" >&2
    if [[ "${REQUIRE_DEFMT_PRINT:-0}" == 1 ]]; then
        exit 1
    fi
    exit 0
fi

targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
    targets=("${ALL_TARGETS[@]}")
fi
failed=0
for t in "${targets[@]}"; do
    run "$t" || failed=1
done
exit "$failed"
