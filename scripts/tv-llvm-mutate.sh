#!/bin/sh
# Mutation testing of `gcnsmt tv` (scripts/tv_mutate.py) over LLVM's own AMDGPU CodeGen tests
# for the memory passes (si-load-store-opt, machine-scheduler, si-form-memory-clauses), read
# from a local llvm-project checkout or copy (never copied into this repository).
# Usage: scripts/tv-llvm-mutate.sh LLVM_DIR [GCNSMT] [LLC]
# Environment: LIMIT (mutants, 1000), JOBS (1), SEED (1), TIMEOUT (tv's per-query timeout in s,
# 20; a timeout is `unknown`, never `proved`), OUT (JSON report, /tmp/tv-llvm-mutate.json),
# KEEP (a directory to keep the MIR pairs in).
# Each file x pass x target becomes one BEFORE/AFTER MIR pair made with llc as
# `gcnsmt tv --pass` makes it (verifier/src/tv/llc.rs): a .ll file through
# `-stop-before=PASS`, then `-run-pass=none` (before) and `-run-pass=PASS` (after) of that MIR;
# a .mir file directly. A pair's first line, `# gcnsmt tv --target CPU`, names its target for
# tv_mutate.py (MIR made from a .mir test has no "target-cpu"). Targets: gfx900, gfx90a,
# gfx1100, gfx1200 for .ll files; the RUN line's CPUs for .mir files (gfx902, not a gcnsmt
# target, as gfx900; bonaire as gfx700). File x pass x target combinations llc fails on are
# counted and skipped.
# The llvm-project commit of each file is printed (git, or a `llvm/llvm-project COMMIT` note in
# the file's first lines when LLVM_DIR is not a checkout).
set -eu
LLVM=${1:?usage: scripts/tv-llvm-mutate.sh LLVM_DIR [GCNSMT] [LLC]}
G=${2:-target/release/gcnsmt}
LLC=${3:-llc-22}
LIMIT=${LIMIT:-1000}
JOBS=${JOBS:-1}
SEED=${SEED:-1}
TIMEOUT=${TIMEOUT:-20}
OUT=${OUT:-/tmp/tv-llvm-mutate.json}
T="$LLVM/llvm/test/CodeGen/AMDGPU"
HERE=$(dirname "$0")
LL_TARGETS="gfx900 gfx90a gfx1100 gfx1200"
LSO="-mattr=+load-store-opt -amdgpu-load-store-vectorizer=0"
if [ -n "${KEEP:-}" ]; then
  out=$KEEP
  mkdir -p "$out"
else
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi
: > "$out/pairs.txt"
: > "$out/llc-failures.txt"
: > "$out/files.txt"
"$LLC" --version 2>/dev/null | sed -n 's/^ *\(.*LLVM version.*\)/llc: \1/p' | head -n 1

# make_pair FILE PASS CPU EXTRA...: one BEFORE/AFTER pair into $out, listed in pairs.txt
make_pair() {
  mf=$1 mp=$2 mc=$3
  shift 3
  stem="$out/$(basename "$mf").$mp.$mc"
  src=$mf
  case $mf in
    *.ll)
      src="$stem.in.mir"
      if ! "$LLC" -mtriple=amdgcn -mcpu="$mc" "$@" -stop-before="$mp" "$mf" -o "$src" 2> "$stem.err"; then
        echo "$(basename "$mf") $mp $mc: $(grep -m 1 -i error "$stem.err" | cut -c 1-200)" >> "$out/llc-failures.txt"
        return 0
      fi ;;
  esac
  if ! "$LLC" -mtriple=amdgcn -mcpu="$mc" "$@" -run-pass=none "$src" -o "$stem.b" 2> "$stem.err" ||
     ! "$LLC" -mtriple=amdgcn -mcpu="$mc" "$@" -run-pass="$mp" "$src" -o "$stem.a" 2> "$stem.err"; then
    echo "$(basename "$mf") $mp $mc: $(grep -m 1 -i error "$stem.err" | cut -c 1-200)" >> "$out/llc-failures.txt"
    return 0
  fi
  { echo "# gcnsmt tv --target $mc"; cat "$stem.b"; } > "$stem.before.mir"
  { echo "# gcnsmt tv --target $mc"; cat "$stem.a"; } > "$stem.after.mir"
  rm -f "$stem.b" "$stem.a" "$stem.in.mir"
  echo "$stem.before.mir $stem.after.mir" >> "$out/pairs.txt"
}

# .ll files: the machine passes each exercises (the RUN lines run the whole pipeline).
while read -r f pass extra; do
  [ -f "$T/$f" ] || { echo "missing $T/$f"; continue; }
  echo "$f" >> "$out/files.txt"
  for cpu in $LL_TARGETS; do
    # shellcheck disable=SC2086
    make_pair "$T/$f" "$pass" "$cpu" $extra
  done
done <<EOF
ds_read2.ll si-load-store-opt $LSO
ds_write2.ll si-load-store-opt $LSO
ds-combine-large-stride.ll si-load-store-opt $LSO
merge-stores.ll si-load-store-opt $LSO
ds-combine-with-dependence.ll si-load-store-opt $LSO
ds-combine-with-dependence.ll machine-scheduler $LSO
si-triv-disjoint-mem-access.ll si-load-store-opt $LSO
si-triv-disjoint-mem-access.ll machine-scheduler -amdgpu-scalarize-global-loads=false -enable-amdgpu-aa=0 -enable-misched -enable-aa-sched-mi
EOF
# .mir files: the pass of their RUN line, on the RUN line's CPUs.
for pass in si-load-store-opt machine-scheduler si-form-memory-clauses; do
  for f in $(grep -l "run-pass[= ]$pass" "$T"/*.mir 2>/dev/null); do
    basename "$f" >> "$out/files.txt"
    cpus=$(grep -o 'mcpu=[a-z0-9]*' "$f" | sort -u | sed 's/mcpu=//; s/^gfx902$/gfx900/; s/^bonaire$/gfx700/' | sort -u)
    for cpu in ${cpus:-gfx900}; do
      make_pair "$f" "$pass" "$cpu"
    done
  done
done

echo "llvm-project commits:"
for b in $(sort -u "$out/files.txt"); do
  c=$(git -C "$LLVM" log -1 --format=%H -- "llvm/test/CodeGen/AMDGPU/$b" 2>/dev/null || true)
  [ -n "$c" ] || c=$(head -n 3 "$T/$b" | grep -o 'llvm/llvm-project [0-9a-f]\{40\}' | head -n 1 | cut -d' ' -f2)
  echo "  $b ${c:-unknown}"
done
echo "pairs: $(wc -l < "$out/pairs.txt") (file x pass x target); llc failures: $(wc -l < "$out/llc-failures.txt")"
sed 's/^/  llc failure: /' "$out/llc-failures.txt"
# shellcheck disable=SC2046
python3 "$HERE/tv_mutate.py" --gcnsmt "$G" --json "$OUT" --seed "$SEED" --limit "$LIMIT" \
  --jobs "$JOBS" --timeout "$TIMEOUT" $(cat "$out/pairs.txt")
