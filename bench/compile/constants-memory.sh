#!/usr/bin/env bash
# rustc's peak memory for the largest compile-time constants the macro
# accepts, one kind at a time, and for the ones it refuses (issue 31, item
# 4: every accepted constant must stay under 1 GB of rustc memory).
#
#   bash bench/compile/constants-memory.sh [CASE...]   # default: every case
#
# Each case is a crate holding one `static` (plus the CSR encoding), built
# once for its dependencies and then rebuilt after `touch src/lib.rs`, under
# `/usr/bin/time -f "%e %M"`: wall seconds and the peak RSS of the largest
# process cargo waited for (rustc). The data files are generated here
# (deterministic). Build jobs: -j ${JOBS:-2}; the crates' builds go to
# $CARGO_TARGET_DIR/constmem (default bench/compile/target/constmem).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
base=${CARGO_TARGET_DIR:-$here/target}/constmem
jobs=${JOBS:-2}
# PROFILE=release: `cargo build --release` (the macro still runs at
# opt-level 0, cargo's default for proc macros in both profiles).
flags=()
[[ ${PROFILE:-dev} == release ]] && flags=(--release)
toolchain=$(sed -n 's/^channel = "\(.*\)"/\1/p' "$root/rust-toolchain.toml")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# name | the static's type and value ("refused" cases must fail to build).
cases=(
    "splat-array|tensor<2048x1024xf32> = dense<1.0>"
    "splat-csr|tensor<2048x1024xf32, #CSR> = dense<1.0>"
    "csr-rows|tensor<2097152x4xf32, #CSR> = sparse<[[2097151, 3]], [1.0]>"
    "literal|tensor<2048x1024xf32, #CSR> = @LITERAL@"
    "sparse-literal|tensor<4096x4096xf32, #CSR> = @SPARSE@"
    "refused-sparse-literal|tensor<4096x4096xf32, #CSR> = @SPARSE_ALL@"
    "npy-csr|tensor<2048x1024xf64, #CSR> = file(\"w.npy\")"
    "npy-array|tensor<2048x1024xf64> = file(\"w.npy\")"
    "mtx-csr|tensor<4096x4096xf32, #CSR> = file(\"w.mtx\")"
    "refused-splat|tensor<8192x8192xf32> = dense<1.0>"
    "refused-csr-rows|tensor<67108864x4xf32, #CSR> = sparse<[[0, 0]], [1.0]>"
    "refused-mtx|tensor<?x?xf32, #CSR> = file(\"big.mtx\")"
)
want=("$@")

python3 - "$tmp" <<'EOF'
import random, struct, sys
tmp = sys.argv[1]
# 2^21 f64 values, none zero: a .npy of shape (2048, 1024), 16 MiB.
n = 2048 * 1024
header = "{'descr': '<f8', 'fortran_order': False, 'shape': (2048, 1024), }"
header += " " * (63 - (10 + len(header)) % 64) + "\n"
with open(f"{tmp}/w.npy", "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
    f.write(struct.pack(f"<{n}d", *((k % 1000) + 0.5 for k in range(n))))
# 2^21 entries of a 4096x4096 matrix (every 8th element), in shuffled
# order so the macro sorts them: 44 MiB of Matrix Market.
rng = random.Random(31)
cells = list(range(0, 4096 * 4096, 8))
rng.shuffle(cells)
with open(f"{tmp}/w.mtx", "w") as f:
    f.write(f"%%MatrixMarket matrix coordinate real general\n4096 4096 {len(cells)}\n")
    f.writelines(f"{c // 4096 + 1} {c % 4096 + 1} {rng.random():.6f}\n" for c in cells)
# One entry past the limit: 2^21 + 1 entries (refused at the path).
with open(f"{tmp}/big.mtx", "w") as f:
    m = 2**21 + 1
    f.write(f"%%MatrixMarket matrix coordinate real general\n{m} 1 {m}\n")
    f.writelines(f"{i + 1} 1 1.0\n" for i in range(m))
# A dense<> literal of 2^21 values written out (16 MiB of source).
row = "[" + ", ".join(f"{(j % 7) + 0.5}" for j in range(1024)) + "]"
with open(f"{tmp}/literal.txt", "w") as f:
    f.write("dense<[" + ", ".join([row] * 2048) + "]>")
# sparse<> literals: 579k entries (every 29th element of 4096x4096, 7
# tokens each: 4.05 M tokens, under the limit), and 2^21 entries
# (every 8th, 14.7 M tokens: refused).
for name, step in (("sparse", 29), ("sparse_all", 8)):
    with open(f"{tmp}/{name}.txt", "w") as f:
        cells = range(0, 4096 * 4096, step)
        f.write("sparse<[" + ", ".join(f"[{c // 4096}, {c % 4096}]" for c in cells) + "], [")
        f.write(", ".join(f"{(c % 7) + 0.5}" for c in cells) + "]>")
EOF

echo "profile: ${PROFILE:-dev}; machine: $(nproc) cores; load: $(cut -d' ' -f1-3 /proc/loadavg); $(rustc "+$toolchain" -V)"
echo
echo "| constant | verdict | wall (s) | rustc peak RSS (MB) |"
echo "| --- | --- | ---: | ---: |"
mkdir -p "$base"
for c in "${cases[@]}"; do
    name=${c%%|*}
    value=${c#*|}
    if [[ ${#want[@]} -gt 0 && ! " ${want[*]} " =~ " $name " ]]; then
        continue
    fi
    dir=$tmp/$name
    mkdir -p "$dir/src"
    cp "$tmp"/w.npy "$tmp"/w.mtx "$tmp"/big.mtx "$dir/"
    cat >"$dir/Cargo.toml" <<TOML
[package]
name = "constmem"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
sparse-core = { path = "$root/sparse-core", features = ["macros"] }

[workspace]
TOML
    cp "$root/Cargo.lock" "$dir/Cargo.lock"
    {
        echo "sparse_core::sparse_kernel! {"
        echo "    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>"
        case $value in
        *@LITERAL@*) value=${value/@LITERAL@/$(cat "$tmp/literal.txt")} ;;
        *@SPARSE@*) value=${value/@SPARSE@/$(cat "$tmp/sparse.txt")} ;;
        *@SPARSE_ALL@*) value=${value/@SPARSE_ALL@/$(cat "$tmp/sparse_all.txt")} ;;
        esac
        echo "    pub static S: $value;"
        echo "}"
    } >"$dir/src/lib.rs"
    # Dependencies first (an empty lib), then the constant alone.
    mv "$dir/src/lib.rs" "$dir/lib.rs"
    : >"$dir/src/lib.rs"
    (cd "$dir" && CARGO_TARGET_DIR=$base cargo "+$toolchain" build -q -j "$jobs" "${flags[@]}")
    mv "$dir/lib.rs" "$dir/src/lib.rs"
    touch "$dir/src/lib.rs"
    verdict=built
    out=$( (cd "$dir" && CARGO_TARGET_DIR=$base /usr/bin/time -f "TIME %e %M" \
        cargo "+$toolchain" build -q -j "$jobs" "${flags[@]}") 2>&1) || verdict=refused
    read -r _ secs kb <<<"$(grep '^TIME' <<<"$out" | tail -1)"
    if [[ $verdict == refused ]]; then
        msg=$(grep -m1 '^error' <<<"$out" | cut -c1-160)
        verdict="refused: ${msg#error: }"
    fi
    echo "| \`$name\` | $verdict | $secs | $((kb / 1024)) |"
done
echo
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
