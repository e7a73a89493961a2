#!/usr/bin/env python3
"""Semantic mutation testing of semantics/pcode/*.pcode (issue 8).

For each entry of each selected file, make one small change at a time (operator swapped,
comparison flipped, constant off by one, offset scale changed, operand order swapped), then run
what can notice it:

  * the semantics tests with hand-computed expectations (semantics unit tests and
    semantics/tests/library.rs and semantics/tests/buffer.rs, which runs the buffer entries in a
    buffer frame), and
  * `gcnsmt verify` (release build) on the rules of proofs/ that use one of the entry's
    instructions (rules that do not cannot see the change).

A mutant is killed when any of them fails. The interpreter-versus-z3 agreement test is not run:
both sides evaluate the same pcode, so it cannot notice a semantic change.

Mutants are never written into the working tree: each goes to a temporary directory named by
GCNSMT_PCODE_DIR, which gcnsmt reads instead of the built-in file (Library::builtin). So nothing
needs restoring after a crash or Ctrl-C, and other people building the tree meanwhile are not
affected; the temporary directory is removed on exit, Ctrl-C included.

Equivalent mutants (no program can tell them from the original) are listed with the reason in
scripts/mutate-equivalent.txt, one `ID  reason` a line; every mutant has a stable ID
(`file:ENTRY:hash` of its line before and after). The report counts them apart from the live
survivors, and the run fails if a listed mutant is killed or no longer generated (the list
would be stale) or if any survivor is not listed.

Usage:
  scripts/mutate.py [FILE.pcode ... | all] [--list] [--max-per-entry N] [--json OUT|-]
  (default files: ds_atomic32.pcode ds_2addr.pcode; `all` for every file)

Exit code: 0 every mutant killed or listed as equivalent; 1 a live survivor, a stale entry in
the equivalent list, or Ctrl-C; 2 a usage or build error.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PCODE = ROOT / "semantics" / "pcode"
PROOFS = ROOT / "proofs"
TARGET_DIR = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
EQUIVALENT = ROOT / "scripts" / "mutate-equivalent.txt"
# The instruction family each semantics file holds (the report's rows).
FAMILY = {
    "alu.pcode": "VALU/SALU arithmetic, VOPC compares, v_cndmask",
    "buffer_atomic.pcode": "MUBUF/VBUFFER atomics",
    "buffer_load.pcode": "MUBUF/VBUFFER loads",
    "buffer_store.pcode": "MUBUF/VBUFFER stores",
    "ds_2addr.pcode": "DS two-address (read2, write2, wrxchg2)",
    "ds_atomic32.pcode": "DS 32-bit atomics",
    "ds_atomic64.pcode": "DS 64-bit atomics",
    "ds_float.pcode": "DS float atomics",
    "ds_load.pcode": "DS loads",
    "ds_misc.pcode": "DS src2 forms and misc",
    "ds_store.pcode": "DS stores",
}


@dataclass
class Entry:
    names: list[str]
    start: int  # first line index (header)
    end: int  # one past the last body line
    body: list[int]  # line indices that may be mutated (header alias lists and body)


@dataclass
class Mutant:
    file: str
    entry: str
    kind: str
    line: int  # 1-based
    before: str
    after: str
    text: str = field(repr=False)  # the whole mutated file
    names: list[str] = field(default_factory=list)  # the entry's instruction names

    @property
    def id(self) -> str:
        """Stable across edits elsewhere in the file: the entry and the line's text, not its
        number."""
        h = hashlib.sha1(f"{self.before}\n{self.after}".encode()).hexdigest()[:8]
        return f"{self.file}:{self.entry}:{h}"


def entries(lines: list[str]) -> list[Entry]:
    """Entries: an unindented, non-comment header (names, maybe aliases) ending in `:`, then
    indented body lines."""
    out: list[Entry] = []
    i = 0
    while i < len(lines):
        l = lines[i]
        if not l.strip() or l.startswith((" ", "\t")) or l.lstrip().startswith("//"):
            i += 1
            continue
        start = i
        header = ""
        while True:
            header += lines[i].split("//")[0]
            i += 1
            if header.rstrip().endswith(":") or i >= len(lines):
                break
        names = re.findall(r"\b([A-Z][A-Z0-9_]+)\b(?=\s*(?:\{|,|:\s*$))", header)
        body = list(range(start, i)) if "{" in header else []
        while i < len(lines) and (lines[i].startswith((" ", "\t")) or not lines[i].strip()):
            if lines[i].strip() and not lines[i].lstrip().startswith("//"):
                body.append(i)
            i += 1
        out.append(Entry(names=names, start=start, end=i, body=body))
    return out


def code_part(line: str) -> tuple[str, str]:
    if "//" in line:
        k = line.index("//")
        return line[:k], line[k:]
    return line, ""


# Operand: a name with optional type suffix / slice, or a literal.
OPND = r"(?:[A-Za-z_][A-Za-z0-9_]*(?:\[[0-9:]+\])?(?:\.[a-z][a-z0-9]*)?|\d+U?)"

SWAPS = [
    # (kind, pattern, replacement) applied one occurrence at a time.
    ("operator", r"(?<=\s)\+(?=\s)", "-"),
    ("operator", r"(?<=\s)-(?=\s)", "+"),
    ("operator", r"(?<=\s)\*(?=\s)", "+"),
    ("operator", r"(?<=\s)&(?=\s)", "|"),
    ("operator", r"(?<=\s)\|(?=\s)", "&"),
    ("operator", r"(?<=\s)\^(?=\s)", "|"),
    ("operator", r"~(?=[A-Za-z(])", ""),
    ("operator", r"&&", "||"),
    ("operator", r"\|\|", "&&"),
    ("comparison", r"(?<=\s)>=(?=\s)", ">"),
    ("comparison", r"(?<=\s)>(?=\s)", ">="),
    ("comparison", r"(?<=\s)<=(?=\s)", "<"),
    ("comparison", r"(?<=\s)<(?=\s)", "<="),
    ("comparison", r"(?<=\s)==(?=\s)", "!="),
    ("comparison", r"(?<=\s)!=(?=\s)", "=="),
]

# Non-commutative binary operators whose operands can be swapped.
ORDER_OPS = [r"-", r"<", r"<=", r">", r">="]


def mutations_of_line(code: str) -> list[tuple[str, str]]:
    """(kind, new code) for one line of code."""
    out: list[tuple[str, str]] = []
    for kind, pat, rep in SWAPS:
        for m in re.finditer(pat, code):
            out.append((kind, code[: m.start()] + rep + code[m.end() :]))
    # Offset scale: `* 4U` -> `* 8U`, and the other way round for larger scales.
    for m in re.finditer(r"\*\s*(\d+)U", code):
        n = int(m.group(1))
        for new in {n * 2, max(n // 2, 1)} - {n}:
            out.append(
                ("scale", code[: m.start(1)] + str(new) + code[m.end(1) :])
            )
    # Constants off by one (not bit-slice bounds, type widths, or N'M bit literals).
    for m in re.finditer(r"(?<![\w'.\[:])(0x[0-9a-fA-F]+|\d+)(U?)(?![\w'\]:])", code):
        tok = m.group(1)
        if m.group(2) == "" and not tok.startswith("0x"):
            # A bare number is a bit index or slice bound here, mutated below.
            continue
        v = int(tok, 0)
        if code[max(0, m.start() - 3) : m.start()].rstrip().endswith("*"):
            continue  # scales are the `scale` kind
        new = hex(v + 1) if tok.startswith("0x") else str(v + 1)
        out.append(("constant", code[: m.start(1)] + new + code[m.end(1) :]))
    # Bit indices: DATA[31] -> DATA[30] (single-bit tests, e.g. condxchg's enable bits).
    for m in re.finditer(r"\[(\d+)\]", code):
        v = int(m.group(1))
        out.append(("constant", code[: m.start(1)] + str(v - 1 if v else 1) + code[m.end(1) :]))
    # Operand order: a - b -> b - a; c ? x : y -> c ? y : x; { a, b } -> { b, a }.
    for op in ORDER_OPS:
        for m in re.finditer(rf"({OPND})\s+{re.escape(op)}\s+({OPND})", code):
            a, b = m.group(1), m.group(2)
            if a != b:
                swapped = f"{b} {op} {a}"
                out.append(("order", code[: m.start()] + swapped + code[m.end() :]))
    # Whole branches only: `c ? 0U : tmp + 1U` has no single-operand else branch.
    for m in re.finditer(rf"\?\s*({OPND})\s*:\s*({OPND})(?=\s*[;)])", code):
        a, b = m.group(1), m.group(2)
        if a != b:
            out.append(("order", code[: m.start()] + f"? {b} : {a}" + code[m.end() :]))
    for m in re.finditer(rf"\{{\s*({OPND})\s*,\s*({OPND})\s*\}}", code):
        a, b = m.group(1), m.group(2)
        out.append(("order", code[: m.start()] + f"{{ {b}, {a} }}" + code[m.end() :]))
    # Alias lists: { CMP = DATA0, SRC = DATA1 } -> { CMP = DATA1, SRC = DATA0 }.
    for m in re.finditer(r"\{\s*(\w+)\s*=\s*(\w+)\s*,\s*(\w+)\s*=\s*(\w+)\s*\}", code):
        x, a, y, b = m.groups()
        out.append(("order", code[: m.start()] + f"{{ {x} = {b}, {y} = {a} }}" + code[m.end() :]))
    seen = set()
    uniq = []
    for k, c in out:
        if c != code and c not in seen:
            seen.add(c)
            uniq.append((k, c))
    return uniq


def mutants(file: str, max_per_entry: int | None) -> list[Mutant]:
    text = (PCODE / file).read_text()
    lines = text.split("\n")
    out: list[Mutant] = []
    for e in entries(lines):
        mine: list[Mutant] = []
        for i in e.body:
            code, comment = code_part(lines[i])
            for kind, new in mutations_of_line(code):
                ml = lines.copy()
                ml[i] = new + comment
                mine.append(
                    Mutant(
                        file=file,
                        entry=e.names[0] if e.names else f"line {e.start + 1}",
                        kind=kind,
                        line=i + 1,
                        before=lines[i].strip(),
                        after=(new + comment).strip(),
                        text="\n".join(ml),
                        names=e.names,
                    )
                )
        if max_per_entry is not None:
            mine = mine[:max_per_entry]
        out.extend(mine)
    return out


def rule_chunks(path: Path) -> list[str]:
    """The rules of a file, each with the comment lines just above it."""
    chunks: list[str] = []
    cur: list[str] = []
    for l in path.read_text().split("\n"):
        if l.startswith("Name:") and any(x.startswith("Name:") for x in cur):
            # Comments right above this rule belong to it.
            k = len(cur)
            while k > 0 and (cur[k - 1].startswith((";", "//")) or not cur[k - 1].strip()):
                k -= 1
            chunks.append("\n".join(cur[:k]))
            cur = cur[k:]
        cur.append(l)
    if any(x.startswith("Name:") for x in cur):
        chunks.append("\n".join(cur))
    return chunks


# Encoding suffixes a rule may spell (`v_cmp_lt_u32_e64`, `v_cndmask_b32_e32`); the semantics
# entry is the same for every encoding.
ENCODING_SUFFIX = re.compile(r"_(?:e32|e64|sdwa|dpp|dpp8|dpp16)$")


def mnemonics(chunk: str) -> set[str]:
    """The instruction names a rule uses, lowercase and without encoding suffix, so they compare
    with an entry's upper-case names (`buffer_load_dword` -> BUFFER_LOAD_DWORD)."""
    ms = set()
    for l in chunk.split("\n"):
        s = l.strip()
        if l.startswith((" ", "\t")) and s and not s.startswith((";", "//", "=>")):
            ms.add(ENCODING_SUFFIX.sub("", s.split()[0].lower()))
    return ms


def build() -> tuple[Path, list[Path]]:
    """Build the release binary and the semantics test binaries; return their paths."""
    env = dict(os.environ, CARGO_TARGET_DIR=str(TARGET_DIR))
    subprocess.run(
        ["cargo", "build", "--release", "-p", "gcnsmt-verifier"], cwd=ROOT, env=env, check=True
    )
    out = subprocess.run(
        ["cargo", "test", "-p", "gcnsmt-semantics", "--no-run", "--message-format=json"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    tests = []
    for line in out.splitlines():
        try:
            msg = json.loads(line)
        except json.JSONDecodeError:
            continue
        # The unit tests, library.rs and buffer.rs (hand-computed values; buffer.rs runs the
        # buffer entries in a buffer frame); not the parser fuzz tests, which read the files
        # compiled in and cannot see a mutant.
        target = msg.get("target", {})
        if (
            msg.get("reason") == "compiler-artifact"
            and msg.get("executable")
            and msg.get("profile", {}).get("test")
            and (target.get("name") in ("library", "buffer") or "lib" in target.get("kind", []))
        ):
            tests.append(Path(msg["executable"]))
    return TARGET_DIR / "release" / "gcnsmt", tests


def run_mutant(m: Mutant, work: Path, gcnsmt: Path, tests: list[Path], chunks) -> tuple[bool, str]:
    """(killed, by what)."""
    mdir = work / "pcode"
    shutil.rmtree(mdir, ignore_errors=True)
    mdir.mkdir()
    (mdir / m.file).write_text(m.text)
    env = dict(os.environ, GCNSMT_PCODE_DIR=str(mdir))
    env.pop("RUST_LOG", None)
    for t in tests:
        r = subprocess.run(
            [str(t), "--test-threads=2", "-q"], env=env, capture_output=True, text=True, timeout=600
        )
        if r.returncode != 0:
            failed = re.findall(r"^    (\S+)$", r.stdout, re.M)
            return True, f"test {t.name.split('-')[0]}: {', '.join(failed[:3]) or 'failed'}"
    names = {n.lower() for n in m.names}
    relevant = [c for c in chunks if mnemonics(c) & names]
    if not relevant:
        return False, "no rule in proofs/ uses it"
    rdir = work / "rules"
    shutil.rmtree(rdir, ignore_errors=True)
    rdir.mkdir()
    (rdir / "relevant.rules").write_text("\n\n".join(relevant) + "\n")
    r = subprocess.run(
        [str(gcnsmt), "verify", str(rdir), "--timeout", "20"],
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    if r.returncode != 0:
        bad = [
            l.split()[0] + " " + l.split()[1]
            for l in r.stdout.splitlines()
            if "EXPECTED" in l or " ERROR " in l or "UNKNOWN" in l
        ]
        return True, f"verify (exit {r.returncode}): {', '.join(bad[:3])}"
    return False, f"{len(relevant)} rule(s) still as expected"


def load_equivalent(path: Path) -> dict[str, str]:
    """ID -> reason, from `ID  reason` lines (`#` starts a comment line)."""
    out: dict[str, str] = {}
    if not path.exists():
        return out
    for n, line in enumerate(path.read_text().split("\n"), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = line.split(None, 1)
        if len(parts) < 2:
            sys.exit(f"{path}:{n}: expected `ID  reason`, got {line!r}")
        out[parts[0]] = parts[1].strip()
    return out


def report(files, results, equivalent, complete: bool, seconds: float, out) -> tuple[dict, int]:
    """Print the human report to `out`; return the machine-readable one and the exit code."""
    ran = {m.id for m, _, _ in results}
    rows = []

    def row(name, rs):
        k = sum(1 for r in rs if r[1])
        e = sum(1 for r in rs if not r[1] and r[0].id in equivalent)
        n = len(rs)
        rows.append(
            {
                "file": name,
                "family": FAMILY.get(name, "all" if name == "total" else name),
                "mutants": n,
                "killed": k,
                "equivalent": e,
                "survived": n - k - e,
                "kill_rate": round(100 * k / n, 1) if n else None,
                "kill_rate_non_equivalent": round(100 * k / (n - e), 1) if n - e else None,
            }
        )

    for f in files:
        rs = [r for r in results if r[0].file == f]
        if rs:
            row(f, rs)
    if results:
        row("total", results)
    print(
        f"{'file':<22} {'mutants':>7} {'killed':>7} {'equiv.':>7} {'survived':>8} "
        f"{'kill rate':>9} {'non-equiv.':>10}  family",
        file=out,
    )
    for r in rows:
        pct = lambda x: f"{x:.1f}%" if x is not None else "-"
        print(
            f"{r['file']:<22} {r['mutants']:>7} {r['killed']:>7} {r['equivalent']:>7} "
            f"{r['survived']:>8} {pct(r['kill_rate']):>9} {pct(r['kill_rate_non_equivalent']):>10}  "
            f"{r['family']}",
            file=out,
        )
    print(f"[{seconds:.0f}s]", file=out)
    equiv = [(m, equivalent[m.id]) for m, k, _ in results if not k and m.id in equivalent]
    live = [(m, why) for m, k, why in results if not k and m.id not in equivalent]
    # A listed mutant that is killed, or that the selected files no longer generate, makes
    # the list stale: it would hide a change in what the tests can see.
    stale = [
        (m.id, "killed, so not equivalent: remove it from the list")
        for m, k, _ in results
        if k and m.id in equivalent
    ]
    if complete:
        sel = {f for f in files}
        stale += [
            (i, "no such mutant any more: remove it from the list")
            for i in equivalent
            if i.split(":", 1)[0] in sel and i not in ran
        ]
    if equiv:
        print(f"\nequivalent mutants ({len(equiv)}, {EQUIVALENT.relative_to(ROOT)}):", file=out)
        for m, reason in equiv:
            print(f"  {m.id} {m.file}:{m.line} {m.before!r} -> {m.after!r}\n      {reason}", file=out)
    if live:
        print(f"\nsurvivors ({len(live)}; kill each with a test or rule, or list it as equivalent):", file=out)
        for m, why in live:
            print(f"  {m.id} {m.file}:{m.line} [{m.kind}] {m.before!r} -> {m.after!r}  ({why})", file=out)
    if stale:
        print(f"\nstale entries in {EQUIVALENT.relative_to(ROOT)}:", file=out)
        for i, why in stale:
            print(f"  {i}: {why}", file=out)
    doc = {
        "summary": rows,
        "complete": complete,
        "seconds": round(seconds, 1),
        "mutants": [
            {
                "id": m.id,
                "file": m.file,
                "line": m.line,
                "entry": m.entry,
                "kind": m.kind,
                "before": m.before,
                "after": m.after,
                "status": "killed" if k else "equivalent" if m.id in equivalent else "survived",
                "by": why if k else None,
                "reason": equivalent.get(m.id) if not k else None,
            }
            for m, k, why in results
        ],
        "stale_equivalents": [{"id": i, "problem": why} for i, why in stale],
    }
    return doc, 0 if not live and not stale else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", default=["ds_atomic32.pcode", "ds_2addr.pcode"])
    ap.add_argument("--list", action="store_true", help="only list the mutants (with their IDs)")
    ap.add_argument("--max-per-entry", type=int, default=None)
    ap.add_argument(
        "--json",
        help="also write the report as JSON to this file (`-`: stdout, the text report then "
        "goes to stderr)",
    )
    args = ap.parse_args()
    files = sorted(p.name for p in PCODE.glob("*.pcode")) if args.files == ["all"] else args.files
    for f in files:
        if not (PCODE / f).exists():
            print(f"error: no semantics file {PCODE / f}", file=sys.stderr)
            return 2
    out = sys.stderr if args.json == "-" else sys.stdout
    equivalent = load_equivalent(EQUIVALENT)
    all_mutants = []
    for f in files:
        ms = mutants(f, args.max_per_entry)
        all_mutants.extend(ms)
    ids = [m.id for m in all_mutants]
    assert len(ids) == len(set(ids)), "two mutants share an ID"
    if args.list:
        for m in all_mutants:
            eq = "  (equivalent)" if m.id in equivalent else ""
            print(f"{m.id} {m.file}:{m.line} [{m.kind}] {m.before!r} -> {m.after!r}{eq}", file=out)
        print(f"{len(all_mutants)} mutants", file=out)
        return 0
    try:
        gcnsmt, tests = build()
    except subprocess.CalledProcessError as e:
        print(f"error: build failed: {e}", file=sys.stderr)
        return 2
    chunks = [c for p in sorted(PROOFS.glob("*.rules")) for c in rule_chunks(p)]
    results = []
    start = time.time()
    complete = args.max_per_entry is None  # every mutant of the files generated and run
    interrupted = False
    with tempfile.TemporaryDirectory(prefix="gcnsmt-mutate-") as work:
        try:
            for k, m in enumerate(all_mutants, 1):
                killed, why = run_mutant(m, Path(work), gcnsmt, tests, chunks)
                results.append((m, killed, why))
                mark = "killed  " if killed else "equiv.  " if m.id in equivalent else "SURVIVED"
                print(
                    f"[{k}/{len(all_mutants)}] {mark} {m.id} {m.file}:{m.line} [{m.kind}] "
                    f"{m.before!r} -> {m.after!r}: {why}",
                    file=out,
                    flush=True,
                )
        except KeyboardInterrupt:
            complete = False
            interrupted = True
            print("\ninterrupted: reporting the mutants run so far", file=sys.stderr)
    print(file=out)
    doc, code = report(files, results, equivalent, complete, time.time() - start, out)
    if args.json == "-":
        json.dump(doc, sys.stdout, indent=1)
        print()
    elif args.json:
        Path(args.json).write_text(json.dumps(doc, indent=1) + "\n")
    return 1 if interrupted else code


if __name__ == "__main__":
    sys.exit(main())
