#!/usr/bin/env python3
"""Mutation testing of Rust semantics code (issue 8): semantics/src/buffer.rs by default, the
buffer address and range-check code that scripts/mutate.py (pseudocode only) cannot reach.

Within the selected functions (default: `aoffset` and `access`), make one small change at a
time, of the same kinds as mutate.py: operator swapped (BvOp::Add <-> Sub, Mul -> Add, And <->
Or, Shl <-> LShr), comparison flipped (CmpOp::Ult <-> Ule, Rust `<`/`<=`/`>`/`>=`/`==`/`!=`),
constant off by one (integer literals), negation dropped (`d.lnot(&x)` -> `x.clone()`, `!`),
operand order swapped (`d.ite(c, a, b)` -> `d.ite(c, b, a)`, `d.op(Sub, a, b)` -> `(.., b, a)`),
`true` <-> `false`. Then run what can notice it, stopping at the first failure:

  1. `cargo test -p gcnsmt-semantics --test buffer` (hand-computed addresses and range checks)
     and `--test fuzz_vsharp` (its raw-buffer reference is written out independently);
  2. only if those pass: the rule tests of proofs/mubuf_*.rules
     (`cargo test --release -p gcnsmt-tests --test rules mubuf`).

A mutant that does not compile counts apart (`no build`; rustc killed it, no test did). Mutants
are never written into the worktree's sources: the script copies the source files (`git
ls-files`, tracked and untracked, not ignored) to target/mutate-rust/src, patches the copy and
builds it with its own target directory (target/mutate-rust, kept between runs so only the
mutated crate rebuilds; the copy's path is fixed because test binaries bake in
CARGO_MANIFEST_DIR), so other builds of the worktree, scripts/mutate.py included, are not
disturbed. One run at a time.

Equivalent mutants are listed in scripts/mutate-rust-equivalent.txt, one `ID  reason` a line
(IDs `file:function:hash`, stable across edits elsewhere; `--list` prints them).

Usage:
  scripts/mutate_rust.py [FILE.rs] [--fn NAME ...] [--list] [--skip-rules] [--only ID ...]
                         [--json OUT]
  (`--only` re-runs chosen mutants, e.g. the survivors of an earlier run after adding tests)

Exit code: 0 every mutant killed, unbuildable or listed as equivalent; 1 a live survivor, a
stale entry in the equivalent list (killed, or no longer generated), or Ctrl-C; 2 a usage error
or the unmutated code failing its tests.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENT = ROOT / "scripts" / "mutate-rust-equivalent.txt"
FAST = [
    ["cargo", "test", "-q", "-p", "gcnsmt-semantics", "--test", "buffer", "--test", "fuzz_vsharp"],
]
RULES = ["cargo", "test", "-q", "--release", "-p", "gcnsmt-tests", "--test", "rules", "mubuf"]

SWAPS = [
    ("operator", r"BvOp::Add\b", "BvOp::Sub"),
    ("operator", r"BvOp::Sub\b", "BvOp::Add"),
    ("operator", r"BvOp::Mul\b", "BvOp::Add"),
    ("operator", r"BvOp::And\b", "BvOp::Or"),
    ("operator", r"BvOp::Or\b", "BvOp::And"),
    ("operator", r"BvOp::Shl\b", "BvOp::LShr"),
    ("operator", r"BvOp::LShr\b", "BvOp::Shl"),
    ("comparison", r"CmpOp::Ult\b", "CmpOp::Ule"),
    ("comparison", r"CmpOp::Ule\b", "CmpOp::Ult"),
    ("comparison", r"(?<=\s)<=(?=\s)", "<"),
    ("comparison", r"(?<=\s)<(?=\s)", "<="),
    ("comparison", r"(?<=\s)>=(?=\s)", ">"),
    ("comparison", r"(?<=\s)>(?=\s)", ">="),
    ("comparison", r"(?<=\s)==(?=\s)", "!="),
    ("comparison", r"(?<=\s)!=(?=\s)", "=="),
    ("operator", r"(?<=\s)&&(?=\s)", "||"),
    ("operator", r"(?<=\s)\|\|(?=\s)", "&&"),
    ("operator", r"(?<=[\s(])!(?=[a-z])", ""),
    ("constant", r"\btrue\b", "false"),
    ("constant", r"\bfalse\b", "true"),
]


@dataclass
class Mutant:
    function: str
    kind: str
    line: int  # 1-based
    before: str
    after: str

    def id(self, file: str) -> str:
        h = hashlib.sha1(f"{self.before}\n{self.after}".encode()).hexdigest()[:8]
        return f"{file}:{self.function}:{h}"


def functions(lines: list[str], names: list[str]) -> dict[str, range]:
    """Line ranges (0-based) of the bodies of the named top-level `fn`s, by brace counting."""
    out = {}
    for i, l in enumerate(lines):
        m = re.match(r"\s*(?:pub\s+)?fn\s+(\w+)", l)
        if not m or m.group(1) not in names:
            continue
        depth, j, opened = 0, i, False
        while j < len(lines):
            code = lines[j].split("//")[0]
            depth += code.count("{") - code.count("}")
            opened |= "{" in code
            if opened and depth == 0:
                break
            j += 1
        out[m.group(1)] = range(i, j + 1)
    return out


def mutations_of_line(code: str) -> list[tuple[str, str]]:
    out = []
    for kind, pat, rep in SWAPS:
        for m in re.finditer(pat, code):
            out.append((kind, code[: m.start()] + rep + code[m.end() :]))
    # Integer literals off by one (not in `d.extract(x, hi, lo)` bit positions, where the
    # width checks in the domain reject most changes at run time anyway, nor `64 - ...`
    # widths): the values that carry meaning, e.g. `d.bv(14, w)`, `54`, `36`, `8`.
    if "extract" not in code and "zext" not in code:
        for m in re.finditer(r"(?<![\w.])(\d+)(?![\w.])", code):
            v = int(m.group(1))
            out.append(("constant", code[: m.start()] + str(v + 1) + code[m.end() :]))
    # Negation dropped: d.lnot(&x) -> x.clone().
    for m in re.finditer(r"d\.lnot\(&(\w+)\)", code):
        out.append(("operator", code[: m.start()] + f"{m.group(1)}.clone()" + code[m.end() :]))
    # Operand order: the branches of an ite, the operands of a non-commutative op.
    for m in re.finditer(r"d\.(ite|ite_bool)\((&\w+), (&\w+), (&\w+)\)", code):
        f, c, a, b = m.groups()
        out.append(("order", code[: m.start()] + f"d.{f}({c}, {b}, {a})" + code[m.end() :]))
    for m in re.finditer(r"d\.(op|cmp)\(((?:BvOp|CmpOp)::(?:Sub|Shl|LShr|Ult|Ule)), (&?\w+), (&?\w+)\)", code):
        f, op, a, b = m.groups()
        out.append(("order", code[: m.start()] + f"d.{f}({op}, {b}, {a})" + code[m.end() :]))
    seen, uniq = set(), []
    for k, c in out:
        if c != code and c not in seen:
            seen.add(c)
            uniq.append((k, c))
    return uniq


def mutants(text: str, fns: list[str]) -> list[Mutant]:
    lines = text.split("\n")
    out = []
    for name, rng in functions(lines, fns).items():
        for i in rng:
            code, comment = (lines[i].split("//", 1) + [""])[:2]
            if not code.strip() or re.match(r"\s*(?:pub\s+)?fn\s", code):
                continue
            for kind, new in mutations_of_line(code):
                after = new + ("//" + comment if "//" in lines[i] else "")
                out.append(Mutant(name, kind, i + 1, lines[i].strip(), after.strip()))
    return out


TARGET_DIR = ROOT / "target" / "mutate-rust"
WORK: Path = ROOT  # the copy being mutated; set in main()


def run(cmd: list[str]) -> tuple[int, str]:
    # Few proptest cases: the seeds and hand-computed cases carry the weight; this keeps each
    # mutant's run short.
    env = dict(os.environ, PROPTEST_CASES="300", CARGO_TARGET_DIR=str(TARGET_DIR))
    r = subprocess.run(cmd, cwd=WORK, capture_output=True, text=True, env=env)
    return r.returncode, r.stdout + r.stderr


def copy_tree(dst: Path) -> None:
    files = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode().split("\0")
    for f in files:
        if f and (ROOT / f).is_file():
            (dst / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(ROOT / f, dst / f)  # fresh mtimes: rebuild the baseline


def failed_tests(out: str) -> str:
    return ", ".join(re.findall(r"^    (\S+)$", out, re.M)[:3])


def test_mutant(skip_rules: bool) -> tuple[str, str]:
    """(status, by what): killed, no build, or survived."""
    for cmd in FAST:
        code, out = run(cmd)
        if code != 0:
            if "error[E" in out or "could not compile" in out:
                return "no build", "rustc"
            return "killed", f"semantics tests: {failed_tests(out) or 'failed'}"
    if skip_rules:
        return "survived", "semantics tests pass (rules skipped)"
    code, out = run(RULES)
    if code != 0:
        if "could not compile" in out:
            return "no build", "rustc"
        return "killed", f"rules: {failed_tests(out) or 'failed'}"
    return "survived", "buffer, fuzz_vsharp and mubuf rule tests pass"


def load_equivalent() -> dict[str, str]:
    out = {}
    if EQUIVALENT.exists():
        for line in EQUIVALENT.read_text().split("\n"):
            if line.strip() and not line.lstrip().startswith("#"):
                k, _, why = line.partition(" ")
                out[k] = why.strip()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", nargs="?", default="semantics/src/buffer.rs")
    ap.add_argument("--fn", dest="fns", action="append", help="function to mutate (repeatable)")
    ap.add_argument("--list", action="store_true", help="only list the mutants")
    ap.add_argument("--skip-rules", action="store_true", help="run only the semantics tests")
    ap.add_argument("--only", nargs="+", metavar="ID", help="run only these mutants")
    ap.add_argument("--json", help="also write the results as JSON to this file")
    args = ap.parse_args()
    fns = args.fns or ["aoffset", "access"]
    path = (ROOT / args.file).resolve()
    if not path.is_file():
        print(f"error: no file {path}", file=sys.stderr)
        return 2
    rel = str(path.relative_to(ROOT))
    original = path.read_text()
    ms = mutants(original, fns)
    if args.only:
        unknown = set(args.only) - {m.id(rel) for m in ms}
        if unknown:
            print(f"error: no such mutant: {', '.join(sorted(unknown))}", file=sys.stderr)
            return 2
        ms = [m for m in ms if m.id(rel) in args.only]
    equivalent = load_equivalent()
    if args.list:
        for m in ms:
            eq = "  (equivalent)" if m.id(rel) in equivalent else ""
            print(f"{m.id(rel)} {rel}:{m.line} [{m.kind}] {m.before!r} -> {m.after!r}{eq}")
        print(f"{len(ms)} mutants")
        return 0
    global WORK
    WORK = TARGET_DIR / "src"
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    copy_tree(WORK)
    path = WORK / rel
    status, why = test_mutant(args.skip_rules)
    if status != "survived":
        print(f"error: the unmutated code fails its tests ({why})", file=sys.stderr)
        return 2
    lines = original.split("\n")
    results = []
    start = time.time()
    interrupted = False
    try:
        for k, m in enumerate(ms, 1):
            ml = lines.copy()
            code = lines[m.line - 1]
            indent = code[: len(code) - len(code.lstrip())]
            ml[m.line - 1] = indent + m.after
            path.write_text("\n".join(ml))
            status, why = test_mutant(args.skip_rules)
            if status == "survived" and m.id(rel) in equivalent:
                status, why = "equivalent", equivalent[m.id(rel)]
            results.append((m, status, why))
            print(f"[{k}/{len(ms)}] {status:<10} {m.id(rel)} :{m.line} [{m.kind}] {m.before!r} -> {m.after!r}: {why}", flush=True)
    except KeyboardInterrupt:
        interrupted = True
        print("\ninterrupted: reporting the mutants run so far", file=sys.stderr)
    finally:
        path.write_text(original)
    n = len(results)
    count = {s: sum(1 for r in results if r[1] == s) for s in ["killed", "no build", "equivalent", "survived"]}
    built = n - count["no build"]
    print(f"\n{rel} ({', '.join(fns)}): {n} mutants, {count['no build']} do not build; of the {built} that build: "
          f"{count['killed']} killed, {count['equivalent']} equivalent, {count['survived']} survived"
          + (f" (kill rate {100 * count['killed'] / built:.1f}%)" if built else "") + f" [{time.time() - start:.0f}s]")
    for m, s, why in results:
        if s == "survived":
            print(f"  SURVIVED {m.id(rel)} :{m.line} {m.before!r} -> {m.after!r}")
    if args.json:
        Path(args.json).write_text(json.dumps({
            "file": rel, "functions": fns, "counts": count, "seconds": round(time.time() - start),
            "mutants": [{"id": m.id(rel), "line": m.line, "function": m.function, "kind": m.kind,
                         "before": m.before, "after": m.after, "status": s, "by": why} for m, s, why in results],
        }, indent=1) + "\n")
    # A listed mutant that is killed, or no longer generated, makes the list stale: it would
    # hide a change in what the tests can see.
    stale = [(m.id(rel), "killed, so not equivalent") for m, s, _ in results if s == "killed" and m.id(rel) in equivalent]
    if not args.only and not args.fns and not interrupted:
        ran = {m.id(rel) for m, _, _ in results}
        stale += [(i, "no such mutant any more") for i in equivalent if i.startswith(rel + ":") and i not in ran]
    for i, why in stale:
        print(f"  STALE {i} in {EQUIVALENT.relative_to(ROOT)}: {why}")
    return 1 if interrupted or count["survived"] or stale else 0


if __name__ == "__main__":
    sys.exit(main())
