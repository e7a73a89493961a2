#!/usr/bin/env python3
"""Mutation testing of `gcnsmt tv` (translation validation of AMDGPU machine passes).

For every block pair `gcnsmt tv` proves, make semantic mutants of the after-block, run tv on
them, and check every mutant tv still PROVES with an independent concrete interpreter of the
two blocks (written here from AMD's ISA documents, not from gcnsmt's Rust code). A proved
mutant the interpreter shows to behave differently is proved-but-wrong: a soundness bug of tv.

Operators (one small function each, `op_*` in tvmut/mutants.py):
  imm       one immediate changed: a memory offset field (+/- one element) or an ALU immediate
  swap      two register operands of one instruction swapped (same width and bank; PHI and
            REG_SEQUENCE values included)
  subreg    a sub-register index changed (`%16.sub0` -> `.sub1`), or two REG_SEQUENCE slots swapped
  cmp       a compare predicate flipped (negated, mirrored, or signedness changed)
  clobber   a physical (sub-)register written with a constant just before an instruction that
            reads it (`$sgpr5 = S_MOV_B32 7` before `COPY $sgpr4_sgpr5`, tuple clobbers too)
  memmove   a memory access moved above the previous access of the same memory (one of them a store)
  cpol      a cache-policy bit dropped: the bit is set on every vector-memory access of both
            blocks, then dropped from one access of the after-block

Inputs: pairs BEFORE.mir AFTER.mir (default: tests/data/tv/gen/*.before.mir with .after.mir,
tests/data/tv/regress/* pairs, tests/data/tv/bugs/*/before.mir + good.mir when present).
Mutants are batched: the function is copied under new names (`F__m17`) into one before-file and
one after-file per batch, one `gcnsmt tv --format json` run per batch, `--jobs` batches at once.

Usage:
  scripts/tv_mutate.py [PAIR_BEFORE PAIR_AFTER ...] [--gcnsmt BIN] [--seed N] [--limit N]
      [--max-per-block N] [--jobs N] [--batch N] [--inputs N] [--judge-refuted FRACTION]
      [--json OUT|-] [--keep DIR] [--quiet]
  scripts/tv_mutate.py --judge BEFORE AFTER --function F --block N --target T
      [--input JSON] [--inputs N]     (interpreter only: is AFTER's block equal to BEFORE's?)

Exit: 0 no proved-but-wrong mutant; 1 some proved-but-wrong; 2 input or tool error.

This file is the command line and the report; the work is in the `tvmut` package next to it:
  tvmut/mir.py         MIR text model (operands, instructions, blocks, functions), registers
  tvmut/targets.py     targets (generation, wave size) and memory-instruction layouts
  tvmut/interp.py      the interpreter: inputs, machine state, `step` per instruction family
  tvmut/interp_mem.py  the interpreter's memory instructions; running, comparing and judging
  tvmut/mutants.py     the mutation operators
  tvmut/runner.py      running `gcnsmt tv` on pairs and batches of mutants
"""

from __future__ import annotations

import argparse
import concurrent.futures
import glob
import json
import os
import random
import re
import shutil
import sys
import tempfile
import time

# the `tvmut` package sits next to this script; found whatever the working directory
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tvmut.interp import Discard, Env, NotInterpreted  # noqa: E402
from tvmut.interp_mem import cex_inputs, judge, make_ctx, observe, run_side  # noqa: E402
from tvmut.mir import read_mir  # noqa: E402
from tvmut.mutants import OPERATORS, Mutant, Unit, mutants_for_block  # noqa: E402
from tvmut.runner import block_num, file_targets, run_tv, tv_batch  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# ----------------------------------------------------------------------------------------------
# Main
# ----------------------------------------------------------------------------------------------

def default_pairs():
    pairs = []
    for b in sorted(glob.glob(os.path.join(ROOT, "tests/data/tv/gen/*.before.mir"))):
        pairs.append((b, b[: -len(".before.mir")] + ".after.mir"))
    for b in sorted(glob.glob(os.path.join(ROOT, "tests/data/tv/regress/*.before.mir"))):
        pairs.append((b, b[: -len(".before.mir")] + ".after.mir"))
    for d in sorted(glob.glob(os.path.join(ROOT, "tests/data/tv/bugs/*/"))):
        if os.path.exists(d + "before.mir") and os.path.exists(d + "good.mir"):
            pairs.append((d + "before.mir", d + "good.mir"))
    return pairs


def bug_toml_target(before_path):
    t = os.path.join(os.path.dirname(before_path), "bug.toml")
    if os.path.exists(t):
        m = re.search(r'target\s*=\s*"([^"]+)"', open(t).read())
        if m:
            return m.group(1).split(",")
    return None


def features_of(mf, fname):
    a = mf.ir_attrs.get(fname)
    return a[2] if a else ""


def lds_of(mf, fname):
    a = mf.ir_attrs.get(fname)
    lds = a[1] if a else 0
    return lds or mf.funcs[fname].lds_size or 0


def judge_mutant(mu, files, n_inputs, seed, extra=()):
    bf, af = files[mu.unit.pair]
    fb, fa = bf.funcs[mu.unit.func], af.funcs[mu.unit.func]
    ctx, ib, ia = make_ctx(mu.unit.target, features_of(bf, mu.unit.func), fb, fa, mu.unit.block,
                           mu.before_lines, mu.after_lines, lds_of(bf, mu.unit.func))
    ex = list(extra)
    c = cex_inputs(mu.cex)
    if c:
        ex.insert(0, c)
    return judge(ctx, ib, ia, f"bb.{mu.unit.block}", n_inputs, seed, ex)


def judge_cli(args):
    bf, af = read_mir(args.files[0]), read_mir(args.files[1])
    fname = args.function
    if fname not in bf.funcs or fname not in af.funcs:
        print(f"error: function {fname} not in both files", file=sys.stderr)
        return 2
    fb, fa = bf.funcs[fname], af.funcs[fname]
    ctx, ib, ia = make_ctx(args.target, features_of(bf, fname), fb, fa, args.block, None, None,
                           lds_of(bf, fname))
    extra = []
    if args.input:
        spec = json.loads(args.input)
        fixed = {k: (int(v, 0) if isinstance(v, str) else v) for k, v in spec.get("regs", {}).items()}
        mem = {}
        for e in spec.get("memory", []):
            mem[(e["space"], int(str(e["addr"]), 0))] = int(str(e["byte"]), 0)
        extra.append((fixed, mem))
        # show both sides on this input
        env = Env("given", ctx, fixed, mem)
        try:
            mb = run_side(env, ctx, ib, f"bb.{args.block}")
            ma = run_side(env, ctx, ia, f"bb.{args.block}")
            show = {}
            for side, mm in (("before", mb), ("after", ma)):
                show[side] = {
                    "memory": {f"{k[0]}[{k[1]}]": v for k, v in sorted(mm.mem.items())},
                    "registers": {k: v for k, v in observe(mm, ctx).items()},
                }
        except (Discard, NotInterpreted) as e:
            show = {"error": str(e)}
    else:
        show = None
    r = judge(ctx, ib, ia, f"bb.{args.block}", args.inputs, args.seed, extra)
    out = {"verdict": r.verdict, "inputs": r.inputs, "discarded": r.discarded, "reason": r.reason,
           "live_vregs": ctx.live_vregs, "live_phys": ctx.live_phys}
    if r.witness:
        out["witness"] = json.loads(json.dumps(r.witness, default=str))
    if show is not None:
        out["given_input"] = show
    print(json.dumps(out, indent=1, default=str))
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="*", help="BEFORE.mir AFTER.mir pairs (default: the repo's)")
    ap.add_argument("--gcnsmt", default=os.path.join(ROOT, "target/release/gcnsmt"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--limit", type=int, default=0, help="at most this many mutants (0: all)")
    ap.add_argument("--max-per-block", type=int, default=24)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--batch", type=int, default=40, help="mutants per tv run")
    ap.add_argument("--timeout", type=int, default=20, help="tv's per-query timeout (s)")
    ap.add_argument("--inputs", type=int, default=300, help="random inputs per judged mutant")
    ap.add_argument("--judge-refuted", type=float, default=0.25,
                    help="fraction of refuted mutants also judged (false-alarm count)")
    ap.add_argument("--target", help="target for pairs without target-cpu (else from the header)")
    ap.add_argument("--json", help="write the machine-readable report here (- for stdout)")
    ap.add_argument("--keep", help="keep the batch files in this directory")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--judge", action="store_true", help="interpreter only, on one block pair")
    ap.add_argument("--function")
    ap.add_argument("--block", type=int, default=0)
    ap.add_argument("--input", help='with --judge: a fixed input {"regs": {...}, "memory": [...]}')
    args = ap.parse_args(argv)
    if args.judge:
        if len(args.files) != 2 or not args.function or not args.target:
            print("error: --judge needs BEFORE AFTER --function F --target T", file=sys.stderr)
            return 2
        return judge_cli(args)
    t0 = time.time()
    if args.files:
        if len(args.files) % 2:
            print("error: files come in BEFORE AFTER pairs", file=sys.stderr)
            return 2
        pairs = [(args.files[i], args.files[i + 1]) for i in range(0, len(args.files), 2)]
    else:
        pairs = default_pairs()
    if not os.path.exists(args.gcnsmt):
        print(f"error: no gcnsmt at {args.gcnsmt}", file=sys.stderr)
        return 2
    log = (lambda *a: None) if args.quiet else (lambda *a: print(*a, file=sys.stderr, flush=True))
    files = {}
    units = []
    tmp = args.keep or tempfile.mkdtemp(prefix="tv_mutate.")
    os.makedirs(tmp, exist_ok=True)
    baseline = {"blocks": 0, "proved": 0}
    try:
        for pi, (b, a) in enumerate(pairs):
            try:
                bf, af = read_mir(b), read_mir(a)
            except OSError as e:
                print(f"error: {e}", file=sys.stderr)
                return 2
            files[pi] = (bf, af)
            need_target = any(bf.ir_attrs.get(n, (None,))[0] is None for n in bf.funcs)
            targets = [None]
            if need_target:
                targets = bug_toml_target(b) or ([args.target] if args.target else file_targets(b))
                if not targets:
                    print(f"error: {b}: no target-cpu and no target known; pass --target", file=sys.stderr)
                    return 2
            for t in targets:
                rc, blocks, err = run_tv(args.gcnsmt, b, a, t, args.timeout)
                if rc not in (0, 1, 3, 4):
                    print(f"error: gcnsmt tv {b} {a}: {err.strip()[-400:]}", file=sys.stderr)
                    return 2
                for blk in blocks:
                    baseline["blocks"] += 1
                    if blk["verdict"] == "proved":
                        baseline["proved"] += 1
                        f = blk["function"]
                        if f in bf.funcs and f in af.funcs:
                            units.append(Unit(pi, f, block_num(blk["block"]), blk["target"]))
        log(f"tv_mutate: {len(pairs)} pairs, {baseline['proved']} proved blocks of {baseline['blocks']}")
        rng = random.Random(args.seed)
        per_unit = []
        for ui, u in enumerate(units):
            bf, af = files[u.pair]
            ms = mutants_for_block(bf.funcs[u.func], af.funcs[u.func], u.block, u.target,
                                   random.Random(f"{args.seed}:{u.pair}:{u.func}:{u.block}:{u.target}"),
                                   args.max_per_block, rot=ui)
            per_unit.append(ms)
        # round robin across blocks up to --limit
        muts = []
        k = 0
        while True:
            added = False
            for ui, ms in enumerate(per_unit):
                if k < len(ms):
                    op, desc, la, lb = ms[k]
                    muts.append(Mutant(len(muts), units[ui], op, desc, lb, la))
                    added = True
                    if args.limit and len(muts) >= args.limit:
                        break
            k += 1
            if not added or (args.limit and len(muts) >= args.limit):
                break
        log(f"tv_mutate: {len(muts)} mutants of {len(units)} blocks; running tv in batches of {args.batch}, {args.jobs} jobs")
        groups = {}
        for mu in muts:
            groups.setdefault((mu.unit.pair, mu.unit.target), []).append(mu)
        batches = []
        for (pair, target), ms in groups.items():
            for i in range(0, len(ms), args.batch):
                batches.append((pair, ms[i: i + args.batch]))
        done = 0
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
            futs = [ex.submit(tv_batch, args, tmp, f"b{i}", pair, ms, files) for i, (pair, ms) in enumerate(batches)]
            for fu in concurrent.futures.as_completed(futs):
                fu.result()
                done += 1
                log(f"tv_mutate: batch {done}/{len(batches)} [{time.time() - t0:.0f}s]")
        t_tv = time.time() - t0
        # cex of refuted mutants of a block: extra (solver-chosen) inputs for its proved mutants
        cex_by_unit = {}
        for mu in muts:
            if mu.verdict == "refuted" and mu.cex:
                c = cex_inputs(mu.cex)
                if c:
                    cex_by_unit.setdefault(id(mu.unit), []).append(c)
        jr = random.Random(args.seed + 7)
        for mu in muts:
            if mu.verdict == "proved":
                mu.judge = judge_mutant(mu, files, args.inputs, args.seed, cex_by_unit.get(id(mu.unit), [])[:12])
            elif mu.verdict == "refuted" and jr.random() < args.judge_refuted:
                mu.judge = judge_mutant(mu, files, args.inputs, args.seed)
        # the unmutated proved blocks: the interpreter must find them equal (its own sanity check)
        base_j = {"equal": 0, "differs": 0, "undecided": 0}
        base_bad = []
        for u in units:
            bf, af = files[u.pair]
            ctx, ib, ia = make_ctx(u.target, features_of(bf, u.func), bf.funcs[u.func], af.funcs[u.func],
                                   u.block, None, None, lds_of(bf, u.func))
            r = judge(ctx, ib, ia, f"bb.{u.block}", min(args.inputs, 100), args.seed)
            base_j[r.verdict] += 1
            if r.verdict != "equal":
                base_bad.append((u, r))
        t_all = time.time() - t0
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    return report(args, pairs, muts, baseline, base_j, base_bad, t_tv, t_all)


COLS = ["tried", "refuted", "unknown", "unsupported", "error", "unchanged", "proved-equivalent",
        "proved-undecided", "proved-but-wrong", "refuted-judged", "refuted-but-equal"]


def classify(mu):
    if mu.verdict == "proved":
        if mu.judge is None or mu.judge.verdict == "undecided":
            return "proved-undecided"
        return "proved-but-wrong" if mu.judge.verdict == "differs" else "proved-equivalent"
    if mu.verdict in ("refuted", "unknown", "unsupported", "error", "unchanged"):
        return mu.verdict
    return "error"


def report(args, pairs, muts, baseline, base_j, base_bad, t_tv, t_all):
    rows = {op: {c: 0 for c in COLS} for op in OPERATORS}
    tot = {c: 0 for c in COLS}
    wrong, undecided = [], {}
    for mu in muts:
        c = classify(mu)
        for r in (rows[mu.op], tot):
            r["tried"] += 1
            r[c] += 1
            if mu.verdict == "refuted" and mu.judge is not None:
                r["refuted-judged"] += 1
                if mu.judge.verdict == "equal":
                    r["refuted-but-equal"] += 1
        if c == "proved-but-wrong":
            wrong.append(mu)
        if c == "proved-undecided":
            why = mu.judge.reason if mu.judge else "not judged"
            why = re.sub(r"\d+ inputs", "N inputs", why)
            undecided[why] = undecided.get(why, 0) + 1
    out = sys.stdout
    hdr = ["operator"] + COLS
    print("\n" + " | ".join(hdr), file=out)
    for op in OPERATORS:
        print(" | ".join([op] + [str(rows[op][c]) for c in COLS]), file=out)
    print(" | ".join(["all"] + [str(tot[c]) for c in COLS]), file=out)
    print(f"\nbaseline: {len(pairs)} pairs, {baseline['blocks']} blocks, {baseline['proved']} proved; "
          f"interpreter on the unmutated proved blocks: {base_j['equal']} equal, "
          f"{base_j['differs']} differs, {base_j['undecided']} undecided", file=out)
    for u, r in base_bad[:20]:
        print(f"  baseline {u.func} bb.{u.block} {u.target}: {r.verdict}: {r.reason}", file=out)
    if undecided:
        print("proved but undecided by the interpreter:", file=out)
        for k, v in sorted(undecided.items(), key=lambda x: -x[1]):
            print(f"  {v:5d}  {k}", file=out)
    if wrong:
        print(f"\nPROVED-BUT-WRONG: {len(wrong)} mutants tv proves that the interpreter shows differ", file=out)
        for mu in wrong:
            print_mutant(mu, pairs, out)
    print(f"\ntime: tv {t_tv:.0f}s, total {t_all:.0f}s", file=out)
    if args.json:
        data = {
            "totals": tot, "per_operator": rows, "baseline": baseline, "baseline_judge": base_j,
            "time_s": round(t_all, 1), "time_tv_s": round(t_tv, 1),
            "mutants": [
                {"id": mu.id, "pair": pairs[mu.unit.pair][1], "function": mu.unit.func,
                 "block": mu.unit.block, "target": mu.unit.target, "operator": mu.op,
                 "description": mu.desc, "verdict": mu.verdict, "class": classify(mu),
                 "reason": mu.reason,
                 "judge": None if mu.judge is None else {
                     "verdict": mu.judge.verdict, "inputs": mu.judge.inputs,
                     "discarded": mu.judge.discarded, "reason": mu.judge.reason,
                     "witness": mu.judge.witness},
                 "after_block": mu.after_lines if classify(mu) == "proved-but-wrong" else None,
                 "before_block": mu.before_lines if classify(mu) == "proved-but-wrong" else None}
                for mu in muts],
        }
        s = json.dumps(data, indent=1, default=str)
        if args.json == "-":
            print(s)
        else:
            with open(args.json, "w") as f:
                f.write(s)
    return 1 if wrong else 0


def print_mutant(mu, pairs, out):
    print(f"--- mutant {mu.id} [{mu.op}] {mu.unit.func} bb.{mu.unit.block} {mu.unit.target} "
          f"({os.path.relpath(pairs[mu.unit.pair][1], ROOT)})", file=out)
    print(f"    {mu.desc}", file=out)
    if mu.before_lines is not None:
        print("    before-block (mutated):", file=out)
        for l in mu.before_lines:
            print("      " + l.strip(), file=out)
    print("    after-block (mutant):", file=out)
    for l in mu.after_lines:
        print("      " + l.strip(), file=out)
    j = mu.judge
    print(f"    interpreter: differs after {j.inputs} inputs: {j.reason}", file=out)
    if j.witness:
        ins = j.witness.get("inputs", {})
        print("    input: " + ", ".join(f"{k}={v}" for k, v in list(ins.items())[:40]), file=out)


if __name__ == "__main__":
    sys.exit(main())