#!/usr/bin/env python3
"""The table of a `scripts/tv-kernels.sh` run: DIR holds, per kernel K, K.json (the JSON lines
of `gcnsmt tv --pipeline --format json`), K.meta (exit code, wall time) and K.time
(`/usr/bin/time -v` output, or the peak RSS from python's resource module).

Prints, as markdown: per pass summed over kernels and targets (only passes with a changed
block or an error, in pipeline order), totals up to and including `si-form-memory-clauses`
(before register allocation) and after it, the check time per changed block (median, p99),
and per kernel its exit code, wall time, peak RSS and verdict counts."""
import glob
import json
import os
import re
import sys

KINDS = ["proved", "refuted", "unknown", "unsupported", "inapplicable", "error"]
SPLIT = "si-form-memory-clauses"


def records(path):
    out = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                try:
                    out.append(json.loads(line))
                except json.JSONDecodeError:
                    pass
    return out


def percentile(xs, q):
    """The q-th percentile (nearest rank) of xs; None if empty."""
    if not xs:
        return None
    xs = sorted(xs)
    k = max(0, min(len(xs) - 1, -(-len(xs) * q // 100) - 1))
    return xs[int(k)]


def peak_rss_kb(path):
    try:
        text = open(path).read()
    except OSError:
        return None
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
    return int(m.group(1)) if m else None


def zero():
    return dict({"changed": 0, "time_ms": 0.0}, **{k: 0 for k in KINDS})


def add(acc, rec):
    acc["changed"] += rec.get("changed", 0)
    for k in KINDS:
        acc[k] += rec.get(k, 0)
    acc["time_ms"] += rec.get("time_ms", 0.0)


def row(name, a):
    cells = [name, str(a["changed"])] + [str(a[k]) for k in KINDS]
    return "| " + " | ".join(cells) + f" | {a['time_ms'] / 1e3:.1f} |"


def main(d):
    kernels = sorted(glob.glob(os.path.join(d, "*.json")))
    if not kernels:
        sys.exit(f"{d}: no *.json (a scripts/tv-kernels.sh output directory?)")
    passes = {}  # name -> totals
    position = {}  # name -> list of index/of (its place in the pipelines)
    pre, post = zero(), zero()
    block_ms = []
    pairs = identical = 0
    per_kernel = []
    for path in kernels:
        name = os.path.basename(path)[:-5]
        recs = records(path)
        split_at = {}  # target -> index of SPLIT
        for r in recs:
            if r.get("type") == "pass" and r.get("pass", "").split("+")[-1] == SPLIT:
                split_at[r["target"]] = r["index"]
        kacc = zero()
        for r in recs:
            if r.get("type") != "pass":
                continue
            pairs += 1
            identical += bool(r.get("identical"))
            p = r["pass"]
            position.setdefault(p, []).append(r["index"] / max(r["of"], 1))
            add(passes.setdefault(p, zero()), r)
            add(kacc, r)
            limit = split_at.get(r["target"])
            add(pre if limit is not None and r["index"] <= limit else post, r)
            block_ms.extend(b["time_ms"] for b in r.get("blocks", []))
        meta = {}
        try:
            meta = json.load(open(os.path.join(d, name + ".meta")))
        except (OSError, ValueError):
            pass
        rss = peak_rss_kb(os.path.join(d, name + ".time"))
        per_kernel.append((name, meta, rss, kacc))

    print(f"{len(kernels)} kernels, {pairs} pairs, {identical} identical\n")
    print("| pass | changed | " + " | ".join(KINDS) + " | time (s) |")
    print("|---|" + "---:|" * (len(KINDS) + 2))
    total = zero()
    order = sorted(passes, key=lambda p: sum(position[p]) / len(position[p]))
    for p in order:
        a = passes[p]
        add(total, a)
        if a["changed"] or a["error"]:
            print(row(f"`{p}`", a))
    print(row("**total**", total))
    print()
    print(f"| part | changed | " + " | ".join(KINDS) + " | time (s) |")
    print("|---|" + "---:|" * (len(KINDS) + 2))
    print(row(f"before RA (through `{SPLIT}`)", pre))
    print(row("after it", post))
    print()
    med, p99 = percentile(block_ms, 50), percentile(block_ms, 99)
    if med is not None:
        print(f"check time per changed block ({len(block_ms)} blocks): median {med:.1f} ms, "
              f"p99 {p99:.1f} ms, max {max(block_ms):.1f} ms\n")
    print("| kernel | exit | wall (s) | peak RSS (MB) | changed | " + " | ".join(KINDS) + " |")
    print("|---|" + "---:|" * (len(KINDS) + 4))
    for name, meta, rss, a in per_kernel:
        wall = meta.get("wall_ms")
        cells = [f"`{name}`", str(meta.get("exit_code", "?")),
                 f"{wall / 1e3:.0f}" if wall is not None else "?",
                 f"{rss / 1024:.0f}" if rss is not None else "?", str(a["changed"])]
        cells += [str(a[k]) for k in KINDS]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: tv_kernels_table.py DIR")
    main(sys.argv[1])
