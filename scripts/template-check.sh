#!/usr/bin/env bash
# The firmware template (templates/firmware) used as a user uses it: copied
# to a directory outside the repository, its one `sparse-core` dependency
# line pointed at this checkout (as a user points it at a git URL or a
# path), then
#   - `cargo fmt --check` and `cargo clippy -D warnings` on both crates;
#   - `cargo test` in the copy's root: the model crate's host tests;
#   - `cargo run --release` in qemu/ on the Cortex-M4F (mps2-an386) and the
#     Cortex-M0 (microbit): must exit 0 and print `ok`;
#   - the same with one expected output value changed in the copy: must
#     exit 1 and print `FAIL` (a self-test that cannot fail proves nothing).
#
# Usage: bash scripts/template-check.sh
# Environment:
#   FW_TIMEOUT=120   seconds before a hung QEMU run is killed
# Needs qemu-system-arm and the thumbv6m/thumbv7em targets (scripts/
# test-all.sh installs both). Builds in $CARGO_TARGET_DIR if set (the full
# suite sets it to the directory all firmware builds share, so the
# proc-macro crates are compiled once for all of them), else in
# target/template-check, so that a second run is incremental; the sources
# are only in the temporary copy.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$(pwd)
FW_TIMEOUT=${FW_TIMEOUT:-120}
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target/template-check}"

command -v qemu-system-arm >/dev/null 2>&1 || {
    echo "error: qemu-system-arm is missing (apt-get install --no-install-recommends qemu-system-arm)" >&2
    exit 1
}

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
APP="$WORK/my-model"
cp -r "$ROOT/templates/firmware" "$APP"
rm -rf "$APP/target" "$APP/qemu/target"

# The line the template's README tells a user to change.
manifest="$APP/model/Cargo.toml"
if ! grep -q '^sparse-core = .*# sparse-core source$' "$manifest"; then
    echo "error: model/Cargo.toml has no '# sparse-core source' dependency line" >&2
    exit 1
fi
sed -i "s|^sparse-core = .*# sparse-core source\$|sparse-core = { path = \"$ROOT/sparse-core\" } # sparse-core source|" "$manifest"
echo "template copied to $APP; sparse-core from $ROOT/sparse-core"

echo "==== cargo fmt --check, clippy -D warnings (model on the host, qemu/ on the M4F) ===="
(cd "$APP" && cargo fmt --check && cargo clippy -q --all-targets -- -D warnings)
(cd "$APP/qemu" && cargo fmt --check && cargo clippy -q --release -- -D warnings)

echo "==== cargo test (the model on the host) ===="
(cd "$APP" && cargo test -q)

# `run_fw TARGET`: runs the firmware under QEMU; OUT gets its output, RC
# QEMU's exit status.
run_fw() {
    local log
    log=$(mktemp)
    (cd "$APP/qemu" && cargo build -q --release --target "$1")
    set +e
    (cd "$APP/qemu" && timeout "$FW_TIMEOUT" cargo run -q --release --target "$1" </dev/null) 2>&1 |
        tee "$log" | sed -u 's/^/  [fw] /'
    RC=${PIPESTATUS[0]}
    set -e
    OUT=$(cat "$log")
    rm -f "$log"
}

for t in thumbv7em-none-eabihf thumbv6m-none-eabi; do
    echo "==== qemu/ on $t (must exit 0 and print ok) ===="
    run_fw "$t"
    [[ $RC -eq 0 ]] || { echo "error: the template firmware exited $RC on $t" >&2; exit 1; }
    grep -qx 'ok' <<<"$OUT" || { echo "error: no 'ok' line on $t" >&2; exit 1; }
    grep -qx 'y = \[0.0, 3.5, 20.5, 0.0, 17.5, 0.25, 0.0, 3.0\]' <<<"$OUT" ||
        { echo "error: unexpected output on $t" >&2; exit 1; }
done

echo "==== qemu/ with a wrong expected value (must exit 1 and print FAIL) ===="
sed -i 's/^pub const TEST_OUTPUT: \[f32; 8\] = \[0.0, 3.5,/pub const TEST_OUTPUT: [f32; 8] = [0.0, 3.25,/' "$APP/model/src/lib.rs"
grep -q '3.25,' "$APP/model/src/lib.rs" || { echo "error: could not change TEST_OUTPUT" >&2; exit 1; }
run_fw thumbv7em-none-eabihf
[[ $RC -eq 1 ]] || { echo "error: expected exit 1 from the failing self-test, got $RC" >&2; exit 1; }
grep -qx 'FAIL' <<<"$OUT" || { echo "error: no 'FAIL' line" >&2; exit 1; }
echo "template: host tests pass, firmware passes on M4F and M0, a wrong reference fails"
