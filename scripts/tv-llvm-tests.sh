#!/bin/sh
# Run `gcnsmt tv --pass PASS` over LLVM's own AMDGPU CodeGen tests for the memory passes
# (si-load-store-opt, machine-scheduler, si-form-memory-clauses),
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
LSO="-mattr=+load-store-opt -amdgpu-load-store-vectorizer=0"
# .ll files: the machine pass each exercises (the RUN lines run the whole pipeline).
while read -r f pass extra; do
  [ -f "$T/$f" ] || { echo "missing $T/$f"; continue; }
  "$G" tv --format json --llc "$LLC" --pass "$pass" "$T/$f" --target "$TARGETS" \
    -- $extra > "$out/$f.$pass.jsonl" 2> "$out/$f.$pass.err" || true
done <<EOF
ds_read2.ll si-load-store-opt $LSO
ds_write2.ll si-load-store-opt $LSO
ds_read2st64.ll si-load-store-opt $LSO
ds_write2st64.ll si-load-store-opt $LSO
ds-combine-large-stride.ll si-load-store-opt $LSO
merge-stores.ll si-load-store-opt $LSO
ds-combine-with-dependence.ll si-load-store-opt $LSO
ds-combine-with-dependence.ll machine-scheduler $LSO
ds_read2_offset_order.ll si-load-store-opt $LSO
ds_read2_superreg.ll si-load-store-opt -mattr=+load-store-opt,-enable-ds128 -amdgpu-load-store-vectorizer=0
ds-sub-offset.ll machine-scheduler $LSO
lds-misaligned-bug.ll machine-scheduler $LSO
si-triv-disjoint-mem-access.ll machine-scheduler -amdgpu-scalarize-global-loads=false -enable-amdgpu-aa=0 -enable-misched -enable-aa-sched-mi
EOF
# .mir files: the pass of their RUN line, on the RUN line's CPUs.
for pass in si-load-store-opt machine-scheduler si-form-memory-clauses; do
  for f in $(grep -l "run-pass[= ]$pass" "$T"/*.mir 2>/dev/null); do
    b=$(basename "$f")
    cpus=$(grep -o 'mcpu=[a-z0-9]*' "$f" | sort -u | sed 's/mcpu=//' | paste -sd, -)
    "$G" tv --format json --llc "$LLC" --pass "$pass" "$f" --target "${cpus:-gfx900}" \
      > "$out/$b.$pass.jsonl" 2> "$out/$b.$pass.err" || true
  done
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
