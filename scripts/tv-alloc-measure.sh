#!/bin/sh
# Measure `gcnsmt tv` on the register-allocation passes (docs/tv.md, "Register-allocation
# checker"): for each kernel x target x pass, the MIR of -stop-before=PASS and of the next stop
# point (both from the one .ll input), checked as `gcnsmt tv BEFORE AFTER --format json`.
# Prints one line per pass with changed/proved/refuted/unknown/unsupported/error counts.
# Usage: scripts/tv-alloc-measure.sh GCNSMT OUTDIR KERNEL.ll...
set -u
bin=$1; out=$2; shift 2
mkdir -p "$out"
# pass (as -stop-before) and the next stop point
pairs="register-coalescer:rename-independent-subregs greedy:virtregrewriter virtregrewriter:stack-slot-coloring greedy,1:virtregrewriter,1 virtregrewriter,1:amdgpu-reserve-wwm-regs greedy,2:virtregrewriter,2 virtregrewriter,2:amdgpu-mark-last-scratch-load"
for k in "$@"; do
  stem=$(basename "$k" .ll)
  for t in gfx900 gfx90a gfx1100 gfx1200; do
    for pq in $pairs; do
      p=${pq%%:*}; q=${pq#*:}
      b="$out/$stem@$t.$p.before.mir"; a="$out/$stem@$t.$p.after.mir"
      llc-22 -mtriple=amdgcn -mcpu=$t -O3 -stop-before="$p" "$k" -o "$b" 2>/dev/null || continue
      llc-22 -mtriple=amdgcn -mcpu=$t -O3 -stop-before="$q" "$k" -o "$a" 2>/dev/null || continue
      if cmp -s "$b" "$a"; then echo "$stem $t $p identical"; continue; fi
      "$bin" tv "$b" "$a" --target "$t" --format json > "$out/$stem@$t.$p.json" 2>/dev/null
      s=$(tail -1 "$out/$stem@$t.$p.json")
      ch=$(grep -c '"changed":true' "$out/$stem@$t.$p.json")
      echo "$stem $t $p changed=$ch $s"
    done
  done
done
