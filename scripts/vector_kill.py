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
                         [--instr MNEMONIC ...]

Without --vectors the vectors are generated first (`gcnsmt vectors --target T`). The default
files are the DS and buffer semantics (ds_*.pcode, buffer_*.pcode): the families the vectors
cover. --sample N runs every Nth applicable mutant only. Exit code: 0 the rate is at least
--min-rate; 1 it is not; 2 a usage or tool error.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import importlib.util
import json
import os
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


def run_one(gcnsmt: Path, vectors: Path, m, work: Path, k: int) -> tuple[str, str]:
    """(status, detail): killed, invalid or survived."""
    d = work / f"m{k}"
    d.mkdir(parents=True, exist_ok=True)
    (d / m.file).write_text(m.text)
    env = dict(os.environ, GCNSMT_PCODE_DIR=str(d))
    env.pop("RUST_LOG", None)
    names = [n.lower() for n in m.names]
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
    args = ap.parse_args()
    mutate = load_mutate()
    gcnsmt = binary(args.binary)
    files = args.files or sorted(
        p.name for p in mutate.PCODE.glob("*.pcode") if p.name.startswith(("ds_", "buffer_"))
    )
    start = time.time()
    with tempfile.TemporaryDirectory(prefix="gcnsmt-vkill-") as tmp:
        work = Path(tmp)
        if args.vectors:
            vfile = Path(args.vectors)
        else:
            vfile = work / "vectors.json"
            with open(vfile, "w") as f:
                extra = ["--defaults-only"] if args.defaults_only else []
                instr = list(args.instr)
                if args.one_per_entry and not instr:
                    instr = one_per_entry(gcnsmt, args.target, mutate)
                r = subprocess.run(
                    [str(gcnsmt), "vectors", "--target", args.target, *extra, *instr], stdout=f
                )
            if r.returncode != 0:
                print("error: gcnsmt vectors failed", file=sys.stderr)
                return 2
        doc = json.loads(vfile.read_text())
        if doc.get("target") != args.target:
            print(f"error: {vfile} is for {doc.get('target')}, not {args.target}", file=sys.stderr)
            return 2
        entries = {v["entry"] for v in doc["vectors"]}
        equivalent = mutate.load_equivalent(mutate.EQUIVALENT)
        all_m = [m for f in files for m in mutate.mutants(f, None)]
        applicable = [m for m in all_m if set(m.names) & entries][:: max(args.sample, 1)]
        results = []
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
            futs = {ex.submit(run_one, gcnsmt, vfile, m, work, k): m for k, m in enumerate(applicable)}
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
    print(f"[{time.time() - start:.0f}s]")
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
