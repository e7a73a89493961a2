#!/usr/bin/env python3
"""Not a test: the corpus under each --solver in one run, as ratios against z3.

    python3 scripts/solver-bench.py [--bin target/release/gcnsmt] [--timeout S] [PATHS...]

Runs `gcnsmt verify PATHS --format json --solver S` for z3, bitwuzla and portfolio one after
the other (default PATHS: proofs/), and prints per solver the wall time, the median, p99, max
and sum of the per-check times (`time_ms`), each as a ratio to z3's, then every check whose
verdict differs from z3's (none expected). docs/benchmarks.md, "Second solver".
"""
import argparse
import json
import statistics
import subprocess
import sys
import time

SOLVERS = ["z3", "bitwuzla", "portfolio"]


def run(binary, paths, solver, timeout):
    cmd = [binary, "verify", *paths, "--format", "json", "--solver", solver,
           "--timeout", str(timeout)]
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - t0
    if p.returncode == 2:
        sys.exit(f"{' '.join(cmd)}: exit 2\n{p.stderr}")
    checks = {}
    for line in p.stdout.splitlines():
        try:
            j = json.loads(line)
        except json.JSONDecodeError:
            continue
        if j.get("type") == "verdict":
            checks[(j["rule"], j["target"])] = (j["verdict"], float(j.get("time_ms") or 0))
    return wall, checks


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else 0.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/gcnsmt")
    ap.add_argument("--timeout", type=float, default=10)
    ap.add_argument("paths", nargs="*", default=["proofs/"])
    a = ap.parse_args()
    res = {s: run(a.bin, a.paths, s, a.timeout) for s in SOLVERS}
    rows = {}
    for s, (wall, checks) in res.items():
        t = [ms for _, ms in checks.values()]
        rows[s] = dict(wall=wall, median=statistics.median(t) if t else 0, p99=pct(t, 0.99),
                       max=max(t, default=0), total=sum(t) / 1000, n=len(t),
                       unknown=sum(v == "unknown" for v, _ in checks.values()))
    base = rows["z3"]
    print("| solver | checks | wall s | median ms | p99 ms | max ms | sum s | unknown |")
    print("|---|---|---|---|---|---|---|---|")
    for s, r in rows.items():
        def cell(k, fmt):
            v = fmt.format(r[k])
            return v if s == "z3" else f"{v} ({r[k] / base[k]:.2f}x)" if base[k] else v
        print(f"| {s} | {r['n']} | {cell('wall', '{:.1f}')} | {cell('median', '{:.1f}')} | "
              f"{cell('p99', '{:.0f}')} | {cell('max', '{:.0f}')} | {cell('total', '{:.1f}')} | "
              f"{r['unknown']} |")
    z3 = res["z3"][1]
    for s in SOLVERS[1:]:
        other = res[s][1]
        diff = [(k, z3.get(k, ("-",))[0], other.get(k, ("-",))[0])
                for k in sorted(set(z3) | set(other))
                if z3.get(k, ("-",))[0] != other.get(k, ("-",))[0]]
        print(f"{s}: {len(diff)} verdicts differ from z3's")
        for (rule, target), x, y in diff:
            print(f"  {rule} on {target}: z3 {x}, {s} {y}")


if __name__ == "__main__":
    main()
