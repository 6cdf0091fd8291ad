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

if ! command -v defmt-print >/dev/null 2>&1; then
    echo "error: defmt-print is missing: cargo install defmt-print --locked --version 1.2.0" >&2
    exit 127
fi
elf=${!#}
args=("${@:1:$#-1}")
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
