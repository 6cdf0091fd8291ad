#!/usr/bin/env bash
# Builds the desktop benchmarks (release, fat LTO) and runs everything:
# the timed sections, then instructions per nonzero under callgrind.
#   bench/desktop/run.sh                 # everything (~10 min on 2 cores)
#   bench/desktop/run.sh spmv csc        # some timed sections only (no callgrind)
#   bench/desktop/run.sh callgrind       # the instruction counts only
#   BENCH_QUICK=1 bench/desktop/run.sh   # tiny sizes, < 1 min: a smoke test
# Results go to stdout as markdown tables.
set -euo pipefail
cd "$(dirname "$0")"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
cargo build --release --locked -j "${BENCH_JOBS:-2}" >&2
bin="$CARGO_TARGET_DIR/release/sparse-bench-desktop"
# On a shared machine, a higher priority keeps other jobs from preempting
# the timed batches (GNU nice runs the command anyway if it may not).
run() { nice -n -10 "$@" 2>/dev/null || "$@"; }

echo "## Machine"
echo
echo '```'
lscpu | grep -E '^(Model name|CPU\(s\)|Thread|L1d|L2|L3)' || true
rustc --version
cc --version | head -1
echo '```'

if [ "${1:-}" != callgrind ]; then run "$bin" "$@"; fi

if [ "$#" -eq 0 ] || [ "$*" = callgrind ]; then
    if ! command -v valgrind >/dev/null; then
        echo "valgrind not installed (apt-get install -y valgrind): no instruction counts" >&2
        exit 0
    fi
    if [ -n "${BENCH_QUICK:-}" ] && [ "${BENCH_QUICK}" != 0 ]; then lo=1; hi=3; else lo=5; hi=25; fi
    echo
    echo "### Instructions per nonzero under callgrind (CSR SpMV f64, small matrix)"
    echo
    echo "| implementation | Ir/nnz |"
    echo "|---|---:|"
    for impl in ours ours16 c c16 hand hand16 faer sprs nalgebra; do
        count() {
            valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" callgrind "$impl" "$1" 2>&1 >/dev/null |
                sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
        }
        nnz=$("$bin" callgrind "$impl" 0 | sed -n 's/.* nnz \([0-9]*\) .*/\1/p')
        a=$(count $lo); b=$(count $hi)
        echo "| $impl | $(echo "scale=2; ($b - $a) / (($hi - $lo) * $nnz)" | bc) |"
    done
fi
