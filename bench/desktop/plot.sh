#!/usr/bin/env bash
# Draws the SVG charts of a saved benchmark run (the markdown run.sh
# prints) into bench/desktop/plots: one chart per kernel family, ours over
# the best peer per table (median and fastest round), and the firmware's
# per-core chart from BENCHMARKS.md.
#   bench/desktop/plot.sh bench/desktop/run-2026-11-28-rows.md
set -euo pipefail
run=$(realpath "$1")
cd "$(dirname "$0")"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
cargo build --release --locked -j "${BENCH_JOBS:-2}" >&2
"$CARGO_TARGET_DIR/release/sparse-bench-desktop" plots "$run" plots
# The firmware chart, from BENCHMARKS.md's per-core table.
"$CARGO_TARGET_DIR/release/sparse-bench-desktop" plots ../../BENCHMARKS.md plots
