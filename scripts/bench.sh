#!/usr/bin/env bash
# The whole benchmark suite of BENCHMARKS.md, one part after the other:
#
#   bash scripts/bench.sh                  # desktop, firmware, compile (~25 min on 2 cores)
#   bash scripts/bench.sh firmware         # one or more parts: desktop firmware compile
#   BENCH_QUICK=1 bash scripts/bench.sh desktop   # tiny matrices: a smoke test (< 2 min)
#
# Each part installs what it needs (valgrind for the desktop instruction
# counts, qemu-system-arm and arm-none-eabi-gcc for the firmware) and prints
# markdown tables to stdout; run it on a quiet machine, since the desktop part
# measures time (every ratio it reports is measured side by side in one run).
# Speed is measured here and never in the test suite (scripts/test-all.sh).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

parts=("$@")
if [[ ${#parts[@]} -eq 0 ]]; then
    parts=(desktop firmware compile)
fi
for part in "${parts[@]}"; do
    case $part in
        desktop)
            if ! command -v valgrind >/dev/null && [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
                apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind bc
            fi
            printf '\n# Desktop (bench/desktop)\n\n'
            bash bench/desktop/run.sh
            ;;
        firmware)
            printf '\n# Cortex-M4F under QEMU (bench/firmware)\n\n'
            bash bench/firmware/run.sh
            ;;
        compile)
            printf '\n# Compile time (bench/compile)\n\n'
            bash bench/compile/run.sh
            ;;
        *)
            echo "unknown part '$part' (desktop, firmware, compile)" >&2
            exit 2
            ;;
    esac
done
