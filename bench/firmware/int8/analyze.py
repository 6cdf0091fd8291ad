#!/usr/bin/env python3
"""Turns int8/run.sh's raw outputs into the Markdown tables of RESULTS.md.

usage: analyze.py OUT_DIR LABEL [LABEL ...]     (LABEL: int8-ZEROS-TARGET-OPT)

Per label, OUT_DIR holds log-LABEL.txt (MEASURE and DATA lines),
counts-LABEL.txt (the plugin's `pair K N` lines), nm-LABEL.txt
(`llvm-nm -S`) and objdump-LABEL.txt (`llvm-objdump -d`).

- instructions per call: the marker pair's count minus pair 0 (an empty
  bracket), so the call sequence of the wrapper is included and the
  markers' own cost is not;
- code bytes: the variant's wrapper (`int8_<variant>_l<rows>`) and every
  function it reaches through `bl`/`b` (callees of callees included:
  CMSIS-NN's `arm_nn_vec_mat_mult_t_s8`, `__aeabi_lmul` on the M0, a
  kernel shared by both layers counted in each);
- data bytes: the weight storage the variant reads (DATA lines: the
  constant's positions, coordinates and values; the hand kernels' packed
  arrays; CMSIS-NN's dense matrix), biases excluded; for `gen_specialized`
  the `static`s its expansion defines inside the kernel (a packed stream,
  its row table and the rows' weights summed: `STREAM`, `START`, `SUMS` in
  nm under `l<rows>::fc_specialized`), 0 when it is written out as code;
- a variant that reaches a function with `panic` in its name is marked `!`,
  and the script then exits 1 (kernels have no panic path).
"""
import re
import sys
from collections import defaultdict

ORDER = ["cmsis_nn", "c_csr", "c_csr_unroll4", "c_csr_smlad", "c_24", "gen_csr", "gen_24", "gen_bsr4",
         "gen_specialized"]
CORE = {"thumbv7em-none-eabihf": "M4F", "thumbv8m.main-none-eabihf": "M33", "thumbv6m-none-eabi": "M0"}


def parse_label(label):
    _, zeros, rest = label.split("-", 2)
    target, opt = rest.rsplit("-", 1)
    return int(zeros), target, opt


def read(out, label):
    measures, data = {}, {}
    with open(f"{out}/log-{label}.txt") as f:
        for line in f:
            w = line.split()
            if w[:1] == ["MEASURE"]:
                measures[int(w[1])] = (w[2], w[3])
            elif w[:1] == ["DATA"]:
                data[(w[1], w[2])] = int(w[3])
    pairs = {}
    with open(f"{out}/counts-{label}.txt") as f:
        for line in f:
            w = line.split()
            if w[0] == "pair":
                pairs[int(w[1])] = int(w[2])
    base = pairs[0]
    insns = {key: pairs[n] - base for n, key in measures.items()}
    sizes, at = {}, defaultdict(set)
    # `bench_int8::layers::l64::fc_specialized::STREAM`, mangled.
    packed = re.compile(r"\dl(\d+)14fc_specialized\d*\w*?(STREAM|START|SUMS)")
    with open(f"{out}/nm-{label}.txt") as f:
        for line in f:
            w = line.split()
            if len(w) == 4 and w[2].lower() == "t":
                sizes[w[3]] = int(w[1], 16)
                at[w[0]].add(w[3])
            elif len(w) == 4 and (m := packed.search(w[3])):
                layer = {"64": "64x256", "128": "128x512"}[m.group(1)]
                key = ("gen_specialized", layer)
                data[key] = data.get(key, 0) + int(w[1], 16)
    # Identical functions folded by the linker share an address; objdump
    # heads the code with one of the names.
    aliases = {name: names for names in at.values() for name in names}
    calls = defaultdict(set)
    head = re.compile(r"^[0-9a-f]+ <(.+)>:$")
    # `bl 0xc78 <name> @ imm = #-0x586`: a call or tail call of a function.
    call = re.compile(r"^\s*[0-9a-f]+:\s+(bl|blx|b|b\.w|b\.n)\s+\S+\s+<([^+>]+)>(\s+@.*)?$")
    cur = None
    with open(f"{out}/objdump-{label}.txt") as f:
        for line in f:
            m = head.match(line.strip())
            if m:
                cur = m.group(1)
                continue
            m = call.match(line.rstrip())
            if m and cur and m.group(2) != cur:
                calls[cur].add(m.group(2))
    return insns, data, sizes, calls, aliases


def reach(sym, calls, aliases):
    """`sym` and every function it reaches, one name per address."""
    seen, todo = set(), [sym]
    while todo:
        s = todo.pop()
        if s in seen:
            continue
        names = aliases.get(s, {s})
        seen |= names
        for n in names:
            todo.extend(calls.get(n, ()))
    return {min(aliases.get(s, {s})) for s in seen}


def main():
    out, labels = sys.argv[1], sys.argv[2:]
    runs = {}
    for label in labels:
        zeros, target, opt = parse_label(label)
        insns, data, sizes, calls, aliases = read(out, label)
        for (variant, layer), n in insns.items():
            rows = layer.split("x")[0]
            funcs = reach(f"int8_{variant}_l{rows}", calls, aliases)
            code = sum(sizes.get(s, 0) for s in funcs)
            panics = any("panic" in s for s in funcs)
            runs[(zeros, target, layer, opt, variant)] = (n, code, data[(variant, layer)], panics)
    keys = {k[:4] for k in runs}
    # The known columns first, then any new variant in the firmware's order.
    seen = list(dict.fromkeys(k[4] for k in runs))
    variants = [v for v in ORDER if v in seen] + [v for v in seen if v not in ORDER]
    for zeros in sorted({k[0] for k in keys}):
        print(f"\n### {zeros}% zeros: executed instructions per call (× fewer than CMSIS-NN)\n")
        print("| core | layer | opt | " + " | ".join(variants) + " |")
        print("|---|---|---|" + "---:|" * len(variants))
        for target in CORE:
            for layer in ("64x256", "128x512"):
                for opt in ("s", "3"):
                    if (zeros, target, layer, opt) not in keys:
                        continue
                    ref = runs.get((zeros, target, layer, opt, "cmsis_nn"))
                    cells = []
                    for v in variants:
                        r = runs.get((zeros, target, layer, opt, v))
                        if r is None:
                            cells.append("—")
                            continue
                        cell = f"{r[0]:,}"
                        if ref and v != "cmsis_nn":
                            cell += f" ({ref[0] / r[0]:.2f}×)"
                        cells.append(cell + (" !" if r[3] else ""))
                    print(f"| {CORE[target]} | {layer} | -O{opt} | " + " | ".join(cells) + " |")
        print(f"\n### {zeros}% zeros: code + weight bytes (code / data)\n")
        print("| core | layer | opt | " + " | ".join(variants) + " |")
        print("|---|---|---|" + "---:|" * len(variants))
        for target in CORE:
            for layer in ("64x256", "128x512"):
                for opt in ("s", "3"):
                    if (zeros, target, layer, opt) not in keys:
                        continue
                    cells = []
                    for v in variants:
                        r = runs.get((zeros, target, layer, opt, v))
                        cells.append("—" if r is None else f"{r[1] + r[2]:,} ({r[1]:,} / {r[2]:,})")
                    print(f"| {CORE[target]} | {layer} | -O{opt} | " + " | ".join(cells) + " |")
    if any(r[3] for r in runs.values()):
        print("\n`!`: the variant's code reaches a panic function.")
        sys.exit("FAIL: a measured kernel has a panic path (marked `!`)")


if __name__ == "__main__":
    main()
