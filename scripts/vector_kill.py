#!/usr/bin/env python3
"""Mutation measure of the test vectors of `gcnsmt vectors` (issue 17).

The semantic mutants of scripts/mutate.py (one small change to one line of one
semantics/pcode file) are run against a vector file: `gcnsmt vectors --check FILE ENTRY...`
with GCNSMT_PCODE_DIR naming a directory that holds the mutated file, so no rebuild is
needed. A mutant is killed when some vector of the mutated entry no longer gives its expected
registers and memory (exit 1), or when the mutated file no longer loads (counted apart as
`invalid`). Mutants of entries the target has no vector for are not applicable there; the
mutants listed in scripts/mutate-equivalent.txt (no program can tell them from the original)
are left out of the rate, as mutate.py leaves them out.

Usage:
  scripts/vector_kill.py --target gfx90a [--vectors FILE] [--binary PATH] [--files F.pcode ...]
                         [--sample N] [--min-rate 95] [--json OUT] [--jobs 2] [--defaults-only]
                         [--instr MNEMONIC ...] [--one-per-entry] [--buffer-defaults-only]
                         [--keep FILE] [--timeout S]

Without --vectors the vectors are generated first (`gcnsmt vectors --target T M...`), for the
mnemonics whose semantics entry some mutant changes: a mutant only ever meets the vectors of
its own entry, so the vectors of the other opcodes (the format loads and stores, whose pcode
has no mutable line) cannot change the rate, and leaving them out measures exactly what the
whole-target vector set would, in a fraction of the time. --keep FILE keeps the generated
vectors (reuse them with --vectors). The default files are the DS and buffer semantics
(ds_*.pcode, buffer_*.pcode): the families the vectors cover. --sample N runs every Nth
applicable mutant only.

Each mutant's check reads a vector file holding its entry's vectors only (the whole file is
split by entry once), so a check costs one process start and a few dozen replays.

Exit code: 0 the rate is at least --min-rate; 1 it is not; 2 a usage or tool error.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_DIR = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))


def load_mutate():
    spec = importlib.util.spec_from_file_location("mutate", ROOT / "scripts" / "mutate.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["mutate"] = mod  # dataclasses look their module up by name
    spec.loader.exec_module(mod)
    return mod


def binary(arg: str | None) -> Path:
    if arg:
        return Path(arg)
    for p in (TARGET_DIR / "release" / "gcnsmt", TARGET_DIR / "debug" / "gcnsmt"):
        if p.exists():
            return p
    sys.exit("error: no gcnsmt binary (cargo build --release -p gcnsmt-verifier)")


def one_per_entry(gcnsmt: Path, target: str, mutate) -> list[str]:
    """One modelled mnemonic per semantics entry (a pcode header's group of names) of
    `target` (from `gcnsmt coverage`), preferring a returning (`_rtn_`) form."""
    cov = json.loads(subprocess.run(
        [str(gcnsmt), "coverage", "--target", target, "--format", "json"],
        capture_output=True, text=True, check=True).stdout)
    group: dict[str, int] = {}
    for k, p in enumerate(sorted(mutate.PCODE.glob("*.pcode"))):
        for i, e in enumerate(mutate.entries(p.read_text().split("\n"))):
            for n in e.names:
                group[n] = (k, i)
    best: dict = {}
    for o in cov["opcodes"]:
        if o["status"] == "unsupported" or not o["entry"] or "lanes" in o["depends_on"]:
            continue
        g, m = group.get(o["entry"]["name"], o["entry"]["name"]), o["mnemonic"]
        if g not in best or ("rtn" in m and "rtn" not in best[g]):
            best[g] = m
    return sorted(best.values())


def affected(gcnsmt: Path, target: str, names: set[str]) -> list[str]:
    """The modelled mnemonics of `target` (from `gcnsmt coverage`) whose semantics entry is one
    of `names` (upper case: the entries some mutant changes). Cross-lane ops get no vectors."""
    cov = json.loads(subprocess.run(
        [str(gcnsmt), "coverage", "--target", target, "--format", "json"],
        capture_output=True, text=True, check=True).stdout)
    return sorted(
        o["mnemonic"] for o in cov["opcodes"]
        if o["status"] != "unsupported" and o["entry"] and "lanes" not in o["depends_on"]
        and (o["entry"]["name"] in names or o["mnemonic"].upper() in names))


def entry_files(doc: dict, groups: set[frozenset[str]], work: Path) -> dict[frozenset[str], Path]:
    """For each group of entry names (a mutant's entry: upper case), a vector file in `work`
    holding the vectors `gcnsmt vectors --check FILE NAME...` would select from `doc` (mnemonic
    or entry in the group), or none when no vector is: what a mutant's check reads."""
    out = {}
    for k, g in enumerate(sorted(groups, key=sorted)):
        vs = [v for v in doc["vectors"] if v["entry"].upper() in g or v["mnemonic"].upper() in g]
        if vs:
            f = work / f"entry{k}.json"
            f.write_text(json.dumps(dict(doc, vectors=vs, skipped=[])))
            out[g] = f
    return out


ALIASES = re.compile(r"\b([A-Z][A-Z0-9_]+)\s*\{([^}]*)\}")


def names_of(m) -> list[str]:
    """The instruction names a mutant changes: for a change inside a header's alias lists
    (`DS_CMPST_B32 { CMP = DATA0, SRC = DATA1 }, DS_CMPSTORE_B32 { ... }:`), only the names
    whose list changed (a target without those names cannot tell the mutant from the original:
    it is not applicable there); else every name of the entry."""
    before, after = dict(ALIASES.findall(m.before)), dict(ALIASES.findall(m.after))
    changed = [n for n in m.names if before.get(n) != after.get(n)]
    return changed if changed and before else list(m.names)


def run_one(gcnsmt: Path, vectors: Path, m, work: Path, k: int) -> tuple[str, str]:
    """(status, detail): killed, invalid or survived."""
    d = work / f"m{k}"
    d.mkdir(parents=True, exist_ok=True)
    (d / m.file).write_text(m.text)
    env = dict(os.environ, GCNSMT_PCODE_DIR=str(d))
    env.pop("RUST_LOG", None)
    names = [n.lower() for n in names_of(m)]
    r = subprocess.run(
        [str(gcnsmt), "vectors", "--check", str(vectors), *names],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    (d / m.file).unlink()
    if r.returncode == 1:
        first = r.stdout.splitlines()[0] if r.stdout else ""
        return "killed", first
    if r.returncode == 0:
        return "survived", r.stdout.strip().splitlines()[-1] if r.stdout else ""
    return "invalid", (r.stderr.strip().splitlines() or ["exit %d" % r.returncode])[-1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--target", required=True)
    ap.add_argument("--vectors")
    ap.add_argument("--binary")
    ap.add_argument("--files", nargs="*")
    ap.add_argument("--sample", type=int, default=1)
    ap.add_argument("--min-rate", type=float, default=95.0)
    ap.add_argument("--json")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--instr", nargs="*", default=[],
                    help="generate vectors for these mnemonics only (a sample; the rate then covers "
                    "the mutants of their entries)")
    ap.add_argument("--one-per-entry", action="store_true",
                    help="generate vectors for one mnemonic per semantics entry (a returning form "
                    "where there is one): every entry's mutants still meet vectors, at less cost")
    ap.add_argument("--defaults-only", action="store_true",
                    help="generate the vectors under the target's default settings only (faster)")
    ap.add_argument("--buffer-defaults-only", action="store_true",
                    help="the buffer vectors under the default settings only (a subset of the "
                    "full set, made with the same seeds: the rate is then a lower bound)")
    ap.add_argument("--keep", help="write the generated vectors to this file too")
    ap.add_argument("--timeout", help="per solver query, in seconds (`gcnsmt vectors --timeout`)")
    args = ap.parse_args()
    mutate = load_mutate()
    gcnsmt = binary(args.binary)
    files = args.files or sorted(
        p.name for p in mutate.PCODE.glob("*.pcode") if p.name.startswith(("ds_", "buffer_"))
    )
    start = time.time()
    all_m = [m for f in files for m in mutate.mutants(f, None)]
    with tempfile.TemporaryDirectory(prefix="gcnsmt-vkill-") as tmp:
        work = Path(tmp)
        if args.vectors:
            vfile = Path(args.vectors)
        else:
            vfile = Path(args.keep) if args.keep else work / "vectors.json"
            extra = ["--timeout", args.timeout] if args.timeout else []
            instr = list(args.instr)
            if args.one_per_entry and not instr:
                instr = one_per_entry(gcnsmt, args.target, mutate)
            if not instr:
                instr = affected(gcnsmt, args.target, {n for m in all_m for n in m.names})
            # (mnemonics, defaults only?) per `gcnsmt vectors` run.
            runs = [(instr, args.defaults_only)]
            if args.buffer_defaults_only and not args.defaults_only:
                ds = [i for i in instr if i.startswith("ds_")]
                runs = [(ds, False), ([i for i in instr if i not in ds], True)]
            doc = None
            for names, only in [(n, o) for n, o in runs if n]:
                r = subprocess.run(
                    [str(gcnsmt), "vectors", "--target", args.target, *extra,
                     *(["--defaults-only"] if only else []), *names],
                    stdout=subprocess.PIPE, text=True)
                if r.returncode != 0:
                    print("error: gcnsmt vectors failed", file=sys.stderr)
                    return 2
                part = json.loads(r.stdout)
                if doc is None:
                    doc = part
                else:
                    doc["vectors"] += part["vectors"]
                    doc["skipped"] += part["skipped"]
            vfile.write_text(json.dumps(doc, indent=1) + "\n")
        gen_seconds = time.time() - start
        doc = json.loads(vfile.read_text())
        if doc.get("target") != args.target:
            print(f"error: {vfile} is for {doc.get('target')}, not {args.target}", file=sys.stderr)
            return 2
        of = entry_files(doc, {frozenset(names_of(m)) for m in all_m}, work)
        equivalent = mutate.load_equivalent(mutate.EQUIVALENT)
        applicable = [m for m in all_m if frozenset(names_of(m)) in of][:: max(args.sample, 1)]
        results = []
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
            futs = {ex.submit(run_one, gcnsmt, of[frozenset(names_of(m))], m, work, k): m
                    for k, m in enumerate(applicable)}
            for fut in concurrent.futures.as_completed(futs):
                m = futs[fut]
                status, detail = fut.result()
                if status == "survived" and m.id in equivalent:
                    status = "equivalent"
                results.append((m, status, detail))
    rows = {}
    for m, status, _ in results:
        row = rows.setdefault(m.file, {"killed": 0, "invalid": 0, "survived": 0, "equivalent": 0})
        row[status] += 1
    total = {k: sum(r[k] for r in rows.values()) for k in ("killed", "invalid", "survived", "equivalent")}
    rows["total"] = total

    def rate(r):
        live = r["killed"] + r["invalid"] + r["survived"]
        return 100.0 * (r["killed"] + r["invalid"]) / live if live else 100.0

    print(f"{args.target}: {len(doc['vectors'])} vectors; {len(applicable)} applicable mutants "
          f"of {len(all_m)} ({', '.join(files)})")
    print(f"{'file':<22} {'killed':>7} {'invalid':>7} {'survived':>8} {'equiv.':>7} {'kill rate':>9}")
    for f, r in rows.items():
        print(f"{f:<22} {r['killed']:>7} {r['invalid']:>7} {r['survived']:>8} {r['equivalent']:>7} {rate(r):>8.1f}%")
    surv = [(m, d) for m, s, d in results if s == "survived"]
    if surv:
        print(f"\nsurvivors ({len(surv)}):")
        for m, d in sorted(surv, key=lambda x: (x[0].file, x[0].line)):
            print(f"  {m.id} {m.file}:{m.line} [{m.kind}] {m.before!r} -> {m.after!r}")
    print(f"[{time.time() - start:.0f}s: {gen_seconds:.0f}s generating, "
          f"{time.time() - start - gen_seconds:.0f}s checking]")
    if args.json:
        out = {
            "target": args.target,
            "vectors": len(doc["vectors"]),
            "summary": rows,
            "kill_rate": round(rate(total), 2),
            "mutants": [
                {"id": m.id, "file": m.file, "line": m.line, "kind": m.kind, "before": m.before,
                 "after": m.after, "status": s, "detail": d}
                for m, s, d in results
            ],
        }
        Path(args.json).write_text(json.dumps(out, indent=1) + "\n")
    return 0 if rate(total) >= args.min_rate else 1


if __name__ == "__main__":
    sys.exit(main())
