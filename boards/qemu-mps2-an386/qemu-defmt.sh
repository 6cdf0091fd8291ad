#!/usr/bin/env bash
# The cargo runner of this crate (.cargo/config.toml): runs the firmware ELF
# (the last argument) under qemu-system-arm with the other arguments
# (`-cpu ... -machine ...`), and decodes its defmt frames (written to
# semihosting stdout) with `defmt-print`, one text line per log call.
# The exit status is QEMU's, that is the firmware's verdict (0 = every check
# passed, 1 = a check failed, a panic or a HardFault, 124 = timeout after
# QEMU_TIMEOUT seconds, 134 = a QEMU lockup); only when QEMU exits 0 does a
# failing decoder (a corrupt frame, a wrong ELF) fail the run.
set -uo pipefail

elf=${!#}
args=("${@:1:$#-1}")
# Without the decoder the firmware still runs and its exit status is still
# the verdict; only the log (binary defmt frames) cannot be shown. Say so
# plainly instead of failing with "command not found" (exit 127).
if ! command -v defmt-print >/dev/null 2>&1; then
    cat >&2 <<'MSG'
SKIP log: defmt-print is not installed, so the firmware's defmt log cannot
     be decoded; running it under QEMU for its verdict only. Install the
     decoder once (it compiles from source, ~1.5 to 7 minutes):
         cargo install defmt-print --locked --version 1.2.0
MSG
    timeout "${QEMU_TIMEOUT:-120}" qemu-system-arm "${args[@]}" -nographic \
        -semihosting-config enable=on,target=native -kernel "$elf" </dev/null >/dev/null
    rc=$?
    if [[ $rc -eq 0 ]]; then
        echo "verdict: PASS (QEMU exit status 0; log not decoded)" >&2
    else
        echo "verdict: FAIL (QEMU exit status $rc; install defmt-print to see which check)" >&2
    fi
    exit "$rc"
fi
# `{s}`: the message alone (no level, no file:line), so that the decoded text
# stays the same when code moves (scripts/firmware-snapshot.sh diffs it);
# a malformed frame shows up as a line of its own.
timeout "${QEMU_TIMEOUT:-120}" qemu-system-arm "${args[@]}" -nographic \
    -semihosting-config enable=on,target=native -kernel "$elf" </dev/null |
    defmt-print --show-skipped-frames --log-format '{s}' -e "$elf"
st=("${PIPESTATUS[@]}")
if [[ ${st[0]} -ne 0 ]]; then
    exit "${st[0]}"
fi
exit "${st[1]}"
