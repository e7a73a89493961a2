#!/usr/bin/env python3
"""Measure spec-check on a blind set against its KEY.md (docs/spec-check.md, "Blind set N").

Usage: spec_blind_measure.py GCNSMT DIR [-v]
Per page: run `gcnsmt spec-check PAGE --format json`; a faulty page is found when it has a
finding, found at the key's line when a finding is within +-1 of the KEY's line; a clean page
counts when it has any finding. Prints a per-format table and the per-page detail with -v.
"""
import json
import os
import subprocess
import sys


def key(dir_):
    rows = []
    for line in open(os.path.join(dir_, "KEY.md")):
        cols = [c.strip() for c in line.split("|")]
        if len(cols) > 5 and cols[3] in ("clean", "faulty"):
            page, status, kline = cols[1], cols[3], cols[4]
            num = "".join(ch for ch in kline.split("(")[0] if ch.isdigit())
            rows.append((page, status == "clean", int(num) if num else None))
    return rows


def fmt(page):
    if page.endswith(".json"):
        return "json"
    if page.startswith(("clrx", "b")):
        return "clrx"
    return "ref"


def main():
    gcnsmt, dir_ = sys.argv[1], sys.argv[2]
    verbose = "-v" in sys.argv
    table = {}
    for page, clean, kline in key(dir_):
        out = subprocess.run([gcnsmt, "spec-check", page, "--format", "json"],
                             cwd=dir_, capture_output=True, text=True)
        try:
            rep = json.loads(out.stdout)
        except json.JSONDecodeError:
            rep = {"findings": [], "errors": [{"message": out.stderr.strip()}]}
        finds = rep.get("findings", [])
        lines = [f["line"] for f in finds]
        row = table.setdefault(fmt(page), [0, 0, 0, 0, 0, 0])
        row[0] += 1
        if clean:
            row[4] += bool(finds)
        else:
            row[1] += 1
            row[2] += bool(finds)
            row[3] += any(abs(l - kline) <= 1 for l in lines)
        row[5] += bool(rep.get("errors"))
        if verbose:
            st = "clean" if clean else f"key {kline}"
            mark = ("FP" if finds else "ok") if clean else (
                "AT" if any(abs(l - kline) <= 1 for l in lines) else ("OFF" if finds else "MISS"))
            print(f"{mark:4} {page:45} {st:8} findings at {lines} "
                  + " ".join(f["kind"] for f in finds))
    tot = [0] * 6
    print("format | pages | faulty | found | at line +-1 | clean with finding | errors")
    for k in ("ref", "clrx", "json"):
        if k in table:
            r = table[k]
            tot = [a + b for a, b in zip(tot, r)]
            print(f"{k} | {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4]} | {r[5]}")
    print(f"total | {tot[0]} | {tot[1]} | {tot[2]} | {tot[3]} | {tot[4]} | {tot[5]}")


main()
