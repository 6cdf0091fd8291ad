#!/usr/bin/env python3
"""Turns run.sh's raw outputs into the Markdown tables of RESULTS.md.

Usage: analyze.py OUT_DIR OPT [OPT ...]
       analyze.py --cores OUT_DIR TARGET [TARGET ...]   (run.sh cores)
For each OPT, OUT_DIR holds log-OPT.txt (firmware output: MEASURE and STACK
lines), counts-OPT.txt (the plugin's total/range/pair lines), nm-OPT.txt
(`llvm-nm -S --size-sort`) and objdump-OPT.txt (`llvm-objdump -d`).

The per-nonzero and per-row costs come from the regular matrices:
I(rows, nnz) = c_call + c_row * rows + c_nnz * nnz, solved exactly from
reg64x8 (64, 512), reg64x16 (64, 1024) and reg128x8 (128, 1024).
"""
import re
import sys
from collections import defaultdict

KERNELS = ["gen_f32", "outlined_f32", "proposed_f32", "unchecked_f32", "safe_f32", "gen_static_f32", "zip_f32", "ptr_f32", "ptr2_f32", "iter_f32", "c_f32", "c_nofma_f32",
           "gen_f64", "unchecked_f64", "safe_f64"]
MULS = ("vmla", "vfma", "vmul", "__aeabi_dmul", "__aeabi_fmul")


def read_run(out, opt):
    measures, stacks = {}, {}
    with open(f"{out}/log-{opt}.txt") as f:
        for line in f:
            w = line.split()
            if w[:1] == ["MEASURE"]:
                measures[int(w[1])] = (w[2], w[3], int(w[4]), int(w[5]))
            elif w[:1] == ["STACK"]:
                stacks[w[1]] = int(w[2])
    pairs, ranges = {}, {}
    with open(f"{out}/counts-{opt}.txt") as f:
        for line in f:
            w = line.split()
            if w[0] == "pair":
                pairs[int(w[1])] = int(w[2])
            elif w[0] == "range":
                ranges[w[1]] = int(w[2])
    if sorted(pairs) != sorted(measures):
        sys.exit(f"{opt}: {len(measures)} MEASURE lines but {len(pairs)} marker pairs")
    runs = defaultdict(dict)  # kernel -> matrix -> (rows, nnz, insns)
    for n, (kernel, matrix, rows, nnz) in measures.items():
        runs[kernel][matrix] = (rows, nnz, pairs[n])
    return runs, stacks, ranges


def read_sizes(out, opt):
    sizes = {}
    with open(f"{out}/nm-{opt}.txt") as f:
        for line in f:
            w = line.split()
            if len(w) == 4:
                sizes[w[3]] = int(w[1], 16)
    return sizes


def read_disasm(out, opt):
    """function name -> list of (address, mnemonic, operands text)."""
    funcs, cur = {}, None
    head = re.compile(r"^[0-9a-f]+ <(.+)>:$")
    insn = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$")
    with open(f"{out}/objdump-{opt}.txt") as f:
        for line in f:
            m = head.match(line.strip())
            if m:
                cur = m.group(1)
                funcs[cur] = []
                continue
            m = insn.match(line)
            if m and cur is not None:
                funcs[cur].append((int(m.group(1), 16), m.group(2), m.group(3)))
    return funcs


def inner_loop(code):
    """Instructions of the smallest backward-branch loop holding a multiply."""
    best = None
    for k, (addr, mnem, ops) in enumerate(code):
        if not mnem.startswith(("b", "cb")) or mnem.startswith(("bl", "bx", "bic")):
            continue
        t = re.search(r"0x([0-9a-f]+)", ops)
        if not t:
            continue
        target = int(t.group(1), 16)
        if target > addr:
            continue
        body = [c for c in code if target <= c[0] <= addr]
        if any(c[1].startswith(MULS) or any(s in c[2] for s in MULS) for c in body):
            if best is None or len(body) < len(best):
                best = body
    return best


def frame_bytes(code):
    """Static frame from the prologue: push, vpush and sub sp."""
    total = 0
    for _, mnem, ops in code[:8]:
        if mnem.startswith("push"):
            total += 4 * len(re.findall(r"r\d+|lr|r7", ops.split(";")[0]))
        elif mnem.startswith("vpush"):
            regs = re.findall(r"d(\d+)", ops)
            if "-" in ops and len(regs) == 2:
                total += 8 * (int(regs[1]) - int(regs[0]) + 1)
            else:
                total += 8 * len(regs)
        elif mnem.startswith("sub") and ops.startswith("sp"):
            m = re.search(r"#(\d+)", ops)
            if m:
                total += int(m.group(1))
    return total


def fit(runs):
    r = runs
    i1 = r["reg64x8"][2]
    i2 = r["reg64x16"][2]
    i3 = r["reg128x8"][2]
    c_nnz = (i2 - i1) / (1024 - 512)
    c_row = (i3 - i2) / 64
    c_call = i1 - 64 * c_row - 512 * c_nnz
    return c_nnz, c_row, c_call


BLOCK_SETS = {
    # name: (three matrices for the fit: same rows / same nnz, headline matrix)
    "block": (("b64x64k2", "b64x64k4", "b128x64k2"), "blk64"),
    "2:4": (("n64x64", "n64x128", "n128x64"), "n64x64"),
}
BLOCK_KERNELS = {
    "block": ["gen_f32", "c_f32", "c_nofma_f32", "bsr2_f32", "bsr2_prop_f32", "c_bsr2_f32",
              "c_bsr2_nofma_f32", "bsr4_f32", "bsr4_prop_f32", "c_bsr4_f32", "c_bsr4_nofma_f32", "dense_f32", "gen_dense_f32",
              "c_dense_f32", "c_dense_nofma_f32"],
    "2:4": ["gen_f32", "c_f32", "c_nofma_f32", "nv24_f32", "nv24p_f32", "nv24_prop_f32", "c_nv24_f32", "c_nv24_nofma_f32",
            "dense_f32", "gen_dense_f32", "c_dense_f32", "c_dense_nofma_f32"],
}
FORMAT = {"gen_f32": "CSR, generated", "c_f32": "CSR, C fused", "c_nofma_f32": "CSR, C",
          "bsr2_f32": "BSR 2x2, generated", "c_bsr2_f32": "BSR 2x2, C fused",
          "c_bsr2_nofma_f32": "BSR 2x2, C", "bsr4_f32": "BSR 4x4, generated",
          "c_bsr4_f32": "BSR 4x4, C fused", "c_bsr4_nofma_f32": "BSR 4x4, C",
          "nv24_f32": "2:4, generated", "nv24p_f32": "2:4 packed (crdWidth = 2), generated", "nv24_prop_f32": "2:4, proposed shape (hand Rust)",
          "bsr2_prop_f32": "BSR 2x2, proposed shape (hand Rust)",
          "bsr4_prop_f32": "BSR 4x4, proposed shape (hand Rust)", "c_nv24_f32": "2:4, C fused", "c_nv24_nofma_f32": "2:4, C",
          "dense_f32": "dense, hand Rust", "gen_dense_f32": "dense, generated",
          "c_dense_f32": "dense, C fused", "c_dense_nofma_f32": "dense, C"}


def fit3(runs, names, dense=False):
    """I = c_call + c_row * rows + c_unit * units, exactly from three
    matrices: the first two with the same rows, the last two with the same
    units (stored values; matrix entries when dense)."""
    pts = []
    for name in names:
        rows, nnz, insns = runs[name]
        pts.append((rows, 2 * nnz if dense and name.startswith("n") else nnz, insns))
    (r1, u1, i1), (r2, u2, i2), (r3, u3, i3) = pts
    assert r1 == r2 and u2 == u3
    c_unit = (i2 - i1) / (u2 - u1)
    c_row = (i3 - i2) / (r3 - r2)
    return c_unit, c_row, i1 - r1 * c_row - u1 * c_unit


def blocks(data, opts):
    print("\n### Block formats: BSR 2x2 / 4x4 and 2:4 against CSR on the same weights\n")
    print("Per stored value / per row / per call: fitted exactly from the three regular "
          "matrices of each set (`I = c_call + c_row * rows + c_val * stored`; for the dense "
          "loops `stored` is the number of matrix entries, rows x cols). Stored values are the "
          "nonzeros in every sparse format (full blocks, exact 2:4): no explicit zeros. Whole "
          "call: the random-block `blk64` (64x64) and `n64x64` matrices, divided by their stored "
          "values (dense: also by the same nonzero count, so the columns compare).\n")
    for o in opts:
        (runs, _, _), sizes, _ = data[o]
        for set_name, (names, head) in BLOCK_SETS.items():
            stored = runs["gen_f32"][head][1]
            rows = runs["gen_f32"][head][0]
            print(f"\nopt-level {o}, {set_name} matrices ({head}: {rows} rows, {stored} stored values)\n")
            print("| kernel | insns/stored value | insns/row | insns/call | "
                  f"{head} insns | {head} insns/stored value | {head} insns/row | x CSR generated | bytes |")
            print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
            csr_total = runs["gen_f32"][head][2]
            for k in BLOCK_KERNELS[set_name]:
                if k not in runs or head not in runs[k]:
                    continue
                dense = "dense" in k
                cv, cr, cc = fit3({n: runs[k][n] for n in names}, names, dense and set_name == "2:4")
                fitted = f"{cv:.2f} | {cr:.2f} | {cc:.0f}"
                if dense and set_name == "block":
                    # The fit's first two block matrices have the same shape.
                    fitted = "(same shape) | | "
                total = runs[k][head][2]
                print(f"| {FORMAT[k]} (`{k}`) | {fitted} | {total} | {total / stored:.2f} | "
                      f"{total / rows:.1f} | {csr_total / total:.2f} | {sizes.get('bench_' + k, 0)} |")


CORE = {"thumbv6m-none-eabi": "M0 (microbit)", "thumbv7m-none-eabi": "M3 (mps2-an385)",
        "thumbv7em-none-eabihf": "M4F (mps2-an386)", "thumbv8m.main-none-eabihf": "M33 (mps2-an505)"}
CORE_KERNELS = [("gen_f32", "generated (`sparse_kernel!`, runtime sizes)"),
                ("gen_static_f32", "generated, sizes in the types (rand64 only)"),
                ("c_f32", "C, gcc -O2"), ("c_nofma_f32", "C, gcc -O2 -ffp-contract=off")]


def cores(out, targets):
    """The CSR SpMV against gcc -O2 C per core, and the firmware tests'
    stack per kernel shape and core."""
    print("### CSR SpMV per core: generated against gcc -O2 C\n")
    print("rand64 insns/nnz: the whole call on the random 64x64 matrix (510 nnz) divided by nnz, "
          "callees included: on the M0 and M3 (no FPU) the soft-float `__aeabi_fmul` and "
          "`__aeabi_fadd` of compiler_builtins, which the C loop calls too. x C: that count over "
          "the C loop's. self insns/nnz: the instructions executed at the kernel's own addresses "
          "(no helpers), over every run of it, divided by the nonzeros of those runs. "
          "insns/nnz and insns/row: fitted from reg64x8, reg64x16, reg128x8 (on the M0 and M3 "
          "the helpers' cost depends on the values, so only the whole-call and self columns "
          "compare). bytes: `llvm-nm -S` of the kernel function; stack: painted, callees "
          "included.\n")
    print("| core | opt | kernel | rand64 insns/nnz | x C | self insns/nnz | insns/nnz | insns/row | bytes | stack (B) |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for t in targets:
        soft = t.startswith(("thumbv6m", "thumbv7m"))
        for o in ("3", "s"):
            label = f"{t}-{o}"
            runs, stacks, ranges = read_run(out, label)
            sizes = read_sizes(out, label)
            c_rand = runs["c_f32"]["rand64"][2]
            for k, what in CORE_KERNELS:
                if k not in runs or (soft and k == "c_nofma_f32"):
                    # Without an FPU there is nothing to contract: the
                    # same code as c_f32.
                    continue
                rnd = runs[k]["rand64"]
                # The stack pass of the firmware runs each kernel once more
                # (on reg128x8; gen_static_f32 on rand64), inside its range.
                again = runs[k].get("reg128x8", rnd)[1] if k in stacks else 0
                total_nnz = sum(v[1] for v in runs[k].values()) + again
                self_nnz = ranges.get(k, 0) / total_nnz
                if "reg64x8" in runs[k]:
                    c_nnz, c_row, _ = fit(runs[k])
                    fitted = f"{c_nnz:.2f} | " + ("n/a" if soft else f"{c_row:.2f}")
                else:
                    fitted = "- | -"
                print(f"| {CORE[t]} | {o} | {what} | {rnd[2] / rnd[1]:.2f} | "
                      f"{rnd[2] / c_rand:.2f} | {self_nnz:.2f} | {fitted} | "
                      f"{sizes.get('bench_' + k, 0)} | {stacks.get(k, '-')} |")

    print("\n### Stack per kernel shape (firmware tests, boards/qemu-mps2-an386)\n")
    print("Bytes below the stack pointer at the call, callees included, measured by painting "
          "(`src/stack.rs` of the firmware tests; M0 at opt-level s, the others at 3, as "
          "`cargo run --release` builds them). -: not run on that core (16 KiB of RAM).\n")
    table, names = {}, []
    for t in targets:
        with open(f"{out}/stack-{t}.txt") as f:
            for line in f:
                w = line.split()
                name = " ".join(w[1:-1])
                if name not in names:
                    names.append(name)
                table[(name, t)] = int(w[-1])
    print("| kernel | " + " | ".join(CORE[t].split()[0] for t in targets) + " |")
    print("| --- |" + " ---: |" * len(targets))
    for name in names:
        print(f"| {name} | " + " | ".join(str(table.get((name, t), "-")) for t in targets) + " |")


def main():
    if sys.argv[1] == "--cores":
        cores(sys.argv[2], sys.argv[3:])
        return
    out, opts = sys.argv[1], sys.argv[2:]
    data = {o: (read_run(out, o), read_sizes(out, o), read_disasm(out, o)) for o in opts}

    print("### Executed instructions (exact, QEMU TCG plugin)\n")
    print("Per nonzero / per row / per call: fitted from reg64x8, reg64x16, reg128x8. "
          "rand64: the whole call on the random 64x64 matrix (510 nnz), divided by nnz. "
          "f64 counts include the soft-float helpers. Self share: the part of "
          "the executed instructions at the kernel function's own addresses (the rest is "
          "the call sequence and, for f64, the soft-float helpers).\n")
    print("| opt | kernel | insns/nnz | insns/row | insns/call | rand64 insns | rand64 insns/nnz | self share |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    stacks_of = {o: data[o][0][1] for o in opts}
    for o in opts:
        (runs, _, ranges), _, _ = data[o]
        for k in KERNELS:
            if k not in runs:
                continue
            rnd = runs[k].get("rand64")
            # The stack pass of the firmware runs each kernel once more
            # (on reg128x8; gen_static_f32 on rand64), inside its range.
            again = runs[k].get("reg128x8", rnd)[2] if k in stacks_of[o] else 0
            total_pairs = sum(v[2] for v in runs[k].values()) + again
            share = ranges.get(k, 0) / total_pairs if total_pairs else 0
            if "reg64x8" in runs[k] and k.endswith("f64"):
                # The soft-float helpers' cost depends on the values (the
                # first addition of a row is to 0.0, a fast path), which
                # differ between the matrices: only the slope is meaningful.
                c_nnz, _, _ = fit(runs[k])
                fitted = f"{c_nnz:.2f} | n/a | n/a"
            elif "reg64x8" in runs[k]:
                c_nnz, c_row, c_call = fit(runs[k])
                fitted = f"{c_nnz:.2f} | {c_row:.2f} | {c_call:.0f}"
            else:
                fitted = "- | - | -"
            print(f"| {o} | {k} | {fitted} | {rnd[2]} | {rnd[2] / rnd[1]:.2f} | {share:.0%} |")

    print("\n### Code size, inner loop, stack\n")
    print("Function size from `llvm-nm -S`; inner loop: the smallest backward-branch loop "
          "holding the multiply (static instruction count); stack: painting (bytes below the "
          "stack pointer at the call, callees included) and the prologue's frame.\n")
    print("| opt | kernel | bytes | inner-loop insns | stack painted (B) | prologue frame (B) |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for o in opts:
        (runs, stacks, _), sizes, funcs = data[o]
        for k in KERNELS:
            sym = f"bench_{k}"
            code = funcs.get(sym, [])
            loop = inner_loop(code)
            print(f"| {o} | {k} | {sizes.get(sym, 0)} | {len(loop) if loop else '-'} | "
                  f"{stacks.get(k, '-')} | {frame_bytes(code)} |")

    for o in opts:
        sizes = data[o][1]
        cold = [v for k, v in sizes.items() if "spmv_f32_mismatch" in k]
        shared = [v for k, v in sizes.items() if "kernels8mismatch" in k]
        if cold:
            print(f"\nopt-level {o}: the cold error builder of outlined_f32 "
                  f"(spmv_f32_mismatch) is {cold[0]} bytes; the shared one of "
                  f"proposed_f32 (mismatch) {shared[0] if shared else '?'} bytes.")

    blocks(data, opts)

    for o in opts:
        (_, _, _), _, funcs = data[o]
        for k in ("gen_f32", "ptr_f32", "ptr2_f32", "iter_f32", "c_f32"):
            loop = inner_loop(funcs.get(f"bench_{k}", []))
            if loop:
                print(f"\nInner loop of `{k}` at opt-level {o}:\n```")
                for addr, mnem, ops in loop:
                    print(f"{addr:8x}: {mnem} {ops}".rstrip())
                print("```")


if __name__ == "__main__":
    main()
