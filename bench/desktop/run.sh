#!/usr/bin/env bash
# Builds the desktop benchmarks (release, fat LTO) and runs everything:
# the timed sections, then instructions per nonzero under callgrind.
#   bench/desktop/run.sh                 # everything (~10 min on 2 cores)
#   bench/desktop/run.sh spmv csc        # some timed sections only (no callgrind):
#                                        # spmv spmv16 csc add spgemm sddmm transpose coo par spmv-simd
#   bench/desktop/run.sh par            # #[parallel] SpMV, SpMM, sparse add, SpGEMM and SDDMM
#                                        # on 2 threads (feature rayon)
#   bench/desktop/run.sh par-sddmm      # the SDDMM rows of `par` alone
#   bench/desktop/run.sh cache          # reading an array just read against one read long ago
#   BENCH_CACHE=warm|cold|rotate        # the cache state each timed batch starts from (default warm:
#                                        # one untimed call first; cold: 256 MiB read first, BENCH_EVICT_MB)
#   BENCH_ONLY=banded bench/desktop/run.sh spmv-simd   # only the matrices whose name has the text
#   bench/desktop/run.sh callgrind       # the instruction counts only
#   BENCH_QUICK=1 bench/desktop/run.sh   # tiny sizes, < 1 min: a smoke test
#   BENCH_BATCH_MS=20 bench/desktop/run.sh par  # calls back to back for >= 20 ms per timed batch
#                                        # (default 0.5 ms): parallel kernels with their threads awake
# Results go to stdout as markdown tables.
set -euo pipefail
cd "$(dirname "$0")"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
cargo build --release --locked -j "${BENCH_JOBS:-2}" >&2
bin="$CARGO_TARGET_DIR/release/sparse-bench-desktop"
# On a shared machine, a higher priority keeps other jobs from preempting
# the timed batches (GNU nice runs the command anyway if it may not).
run() { if nice -n -10 true 2>/dev/null; then nice -n -10 "$@"; else "$@"; fi; }

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
    echo "### Instructions per unit under callgrind (f64, the small matrix: n = 2000, 20/row; n = 500 with BENCH_QUICK)"
    echo
    echo "SpMV: per nonzero; add: per input entry; SDDMM (K = 32): per stored entry;"
    echo "SpGEMM: per multiply-add. shape-* are loop shapes the code generator could emit."
    echo
    echo "| implementation | instructions/unit |"
    echo "|---|---:|"
    for impl in ours ra sell mkl mkl-opt ours16 c c16 hand hand16 faer sprs nalgebra shape-zip shape-unroll4 shape-ptr shape-scalar \
        add:ours add:fresh add:c add:sprs sddmm:ours sddmm:ra sddmm:c spgemm:ours spgemm:faer spgemm:sprs; do
        count() {
            valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" callgrind "$impl" "$1" 2>&1 >/dev/null |
                sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
        }
        nnz=$("$bin" callgrind "$impl" 0 | sed -n 's/.* nnz \([0-9]*\) .*/\1/p')
        # The sparse-output kernels are slow under valgrind: 1 and 3 calls
        # (the counts are exact, so two points suffice).
        case $impl in *:*) l=1; h=3 ;; *) l=$lo; h=$hi ;; esac
        a=$(count $l); b=$(count $h)
        echo "| $impl | $(echo "scale=2; ($b - $a) / (($h - $l) * $nnz)" | bc) |"
    done
fi
