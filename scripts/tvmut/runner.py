"""Running `gcnsmt tv`: one run per pair or per batch of mutants (each mutant's function copied
under its own name into one before-file and one after-file), and each mutant's verdict read
from tv's JSON lines."""

from __future__ import annotations

import json
import os
import re
import subprocess

from .mir import MirFile

# ----------------------------------------------------------------------------------------------
# Running tv
# ----------------------------------------------------------------------------------------------

def run_tv(gcnsmt, before, after, target, timeout, extra=()):
    cmd = [gcnsmt, "tv", before, after, "--format", "json", "--timeout", str(timeout)]
    if target:
        cmd += ["--target", target]
    cmd += list(extra)
    p = subprocess.run(cmd, capture_output=True, text=True)
    blocks = []
    summary = False
    for l in p.stdout.splitlines():
        try:
            v = json.loads(l)
        except ValueError:
            continue
        if v.get("type") == "block":
            blocks.append(v)
        elif v.get("type") == "summary":
            summary = True
    rc = p.returncode
    if rc == 2 and summary:
        rc = 4     # a block-level `error` verdict, not an input error: the blocks have verdicts
    return rc, blocks, p.stderr


def block_num(name):
    m = re.match(r"bb\.(\d+)", str(name))
    return int(m.group(1)) if m else -1


def pair_target(before_path, mf: MirFile, fname):
    a = mf.ir_attrs.get(fname)
    if a and a[0]:
        return a[0]
    return None


# Pairs without "target-cpu" whose header does not name a target: the targets their tests use
# (verifier/tests/tv_regress.rs).
KNOWN_TARGETS = {"flat_straddle": ["gfx90a"], "tvrun_features": ["gfx90a"]}


def file_targets(before_path):
    """Targets of a pair without "target-cpu": from its header comment or file name."""
    stem = os.path.basename(before_path).split(".")[0]
    if stem in KNOWN_TARGETS:
        return KNOWN_TARGETS[stem]
    with open(before_path) as f:
        head = f.read(3000)
    m = re.search(r"--target ([a-z0-9,]+)", head)
    if m:
        return m.group(1).split(",")
    m = re.search(r"\((gfx[0-9a-z]+)[;,)]", head) or re.search(r"\b(gfx[0-9]{3,4}[a-z]?)\b", head)
    if m:
        return [m.group(1)]
    m = re.search(r"(gfx[0-9]{3,4}[a-z]?)", os.path.basename(before_path))
    if m:
        return [m.group(1)]
    return []


def write_batch(dirn, name, pair, muts, files):
    """One before-file and one after-file holding every mutant's function under its own name."""
    bf, af = files[pair]
    out = {}
    for side, mf in (("before", bf), ("after", af)):
        lines = list(mf.prefix)
        defs = []
        docs = []
        for mu in muts:
            fn = mf.funcs[mu.unit.func]
            new = f"{mu.unit.func}__m{mu.id}"
            dl = list(fn.lines)
            for k, l in enumerate(dl):
                if l.startswith("name:"):
                    dl[k] = f"name:            {new}"
                    break
            blk = fn.blocks[mu.unit.block]
            repl = mu.after_lines if side == "after" else mu.before_lines
            if repl is not None:
                dl = dl[: blk.inst_idx[0]] + repl + dl[blk.inst_idx[-1] + 1:]
            docs.append(dl)
            if mu.unit.func in mf.ir_defines:
                dline = mf.ir_defines[mu.unit.func]
                defs += [dline.replace("@" + mu.unit.func + "(", "@" + new + "(", 1), "    ret void", "  }", "  "]
        if defs:
            # inside the embedded IR document, before its closing `...`
            ends = [k for k, l in enumerate(lines) if l.startswith("...")]
            if ends:
                at = ends[-1]
                lines = lines[:at] + defs + lines[at:]
        text = "\n".join(lines + [x for dl in docs for x in dl]) + "\n"
        p = os.path.join(dirn, f"{name}.{side}.mir")
        with open(p, "w") as f:
            f.write(text)
        out[side] = p
    return out["before"], out["after"]


# How bad a block verdict is, for a mutant's function-wide verdict.
RANK = {"unchanged": 0, "proved": 1, "inapplicable": 2, "unsupported": 3, "error": 4,
        "unknown": 5, "refuted": 6}


def tv_batch(args, dirn, bname, pair, muts, files, depth=0):
    target = muts[0].unit.target
    bp, ap = write_batch(dirn, bname, pair, muts, files)
    rc, blocks, err = run_tv(args.gcnsmt, bp, ap, target, args.timeout)
    if rc not in (0, 1, 3, 4):
        if len(muts) == 1:
            muts[0].verdict = "error"
            muts[0].reason = (err.strip().splitlines() or ["tv failed"])[-1][:300]
            return
        h = len(muts) // 2
        tv_batch(args, dirn, bname + "a", pair, muts[:h], files, depth + 1)
        tv_batch(args, dirn, bname + "b", pair, muts[h:], files, depth + 1)
        return
    by = {}
    for b in blocks:
        by[(b["function"], block_num(b["block"]), b.get("target"))] = b
    for mu in muts:
        b = by.get((f"{mu.unit.func}__m{mu.id}", mu.unit.block, target))
        if b is None:
            mu.verdict = "error"
            mu.reason = "no verdict for the block"
            continue
        # A mutant's verdict is its function's worst block: a changed PHI is compared on the
        # incoming edge, in the predecessor block, not in the block the mutant edited.
        fname = f"{mu.unit.func}__m{mu.id}"
        others = [v for (f, _, t), v in by.items() if f == fname and t == target]
        worst = max(others, key=lambda v: RANK.get(v["verdict"], 0), default=b)
        if RANK.get(worst["verdict"], 0) <= RANK.get(b["verdict"], 0):
            worst = b
        mu.verdict = worst["verdict"]
        mu.reason = worst.get("reason") or ""
        mu.cex = worst.get("counterexample_data") if worst is b else None
    if not args.keep:
        for p in (bp, ap):
            os.remove(p)
