#!/bin/sh
# Run `gcnsmt tv --pass si-load-store-opt` over LLVM's own AMDGPU CodeGen tests for that pass,
# read from a local llvm-project checkout (never copied into this repository), and print the
# verdicts by kind.  Usage: scripts/tv-llvm-tests.sh LLVM_DIR [GCNSMT] [LLC]
# Record the checkout's commit (git -C LLVM_DIR rev-parse HEAD) with the numbers.
# A test written for a newer LLVM may need spelling changes for llc-22 (`$sgpr0_128` ->
# `$sgpr0_sgpr1_sgpr2_sgpr3`); llc's error for such a file is listed at the end, none is applied.
set -eu
LLVM=${1:?usage: scripts/tv-llvm-tests.sh LLVM_DIR [GCNSMT] [LLC]}
G=${2:-target/release/gcnsmt}
LLC=${3:-llc-22}
T="$LLVM/llvm/test/CodeGen/AMDGPU"
TARGETS=gfx600,gfx700,gfx802,gfx900,gfx90a,gfx942,gfx1030,gfx1100,gfx1200
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
git -C "$LLVM" rev-parse HEAD 2>/dev/null | sed 's/^/llvm-project commit: /' || true
for f in ds_read2.ll ds_write2.ll ds_read2st64.ll ds_write2st64.ll ds-combine-large-stride.ll merge-stores.ll; do
  [ -f "$T/$f" ] || { echo "missing $T/$f"; continue; }
  "$G" tv --format json --llc "$LLC" --pass si-load-store-opt "$T/$f" --target "$TARGETS" \
    -- -mattr=+load-store-opt -amdgpu-load-store-vectorizer=0 > "$out/$f.jsonl" 2> "$out/$f.err" || true
done
for f in $(grep -l 'run-pass[= ]si-load-store-opt' "$T"/*.mir 2>/dev/null); do
  b=$(basename "$f")
  cpus=$(grep -o 'mcpu=[a-z0-9]*' "$f" | sort -u | sed 's/mcpu=//' | paste -sd, -)
  "$G" tv --format json --llc "$LLC" --pass si-load-store-opt "$f" --target "${cpus:-gfx900}" \
    > "$out/$b.jsonl" 2> "$out/$b.err" || true
done
python3 - "$out" <<'PY'
import json, os, sys, collections
d = sys.argv[1]
kinds = collections.Counter(); files = 0; fns = set(); errs = []; times = []
for n in sorted(os.listdir(d)):
    if not n.endswith(".jsonl"):
        continue
    files += 1
    for line in open(os.path.join(d, n)):
        r = json.loads(line)
        if r.get("type") != "block":
            continue
        kinds[r["verdict"]] += 1
        fns.add((n, r["function"]))
        if r["changed"]:
            times.append(r["time_ms"])
        if r["verdict"] in ("refuted", "unknown", "error"):
            print(f"{n} {r['function']} {r['block']} {r['target']}: {r['verdict']}: {r['reason']}")
    err = open(os.path.join(d, n[:-6] + ".err")).read().strip()
    if err:
        errs.append(f"{n[:-6]}: {err.splitlines()[0][:200]}")
times.sort()
med = times[len(times) // 2] if times else 0
p99 = times[int(len(times) * 0.99)] if times else 0
print(f"files {files}, functions {len(fns)}, changed blocks {len(times)}, median {med:.0f} ms, p99 {p99:.0f} ms")
print("verdicts: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))
for e in errs:
    print("error: " + e)
PY
