#!/usr/bin/env bash
# Measure `gcnsmt tv --pipeline` on gcnsmt's own kernels (issue 28; docs/tv.md, "The whole
# pipeline"): one run per kernel on all targets, its JSON lines kept, then one table summed
# over kernels and targets (scripts/tv_kernels_table.py).
#
#   scripts/tv-kernels.sh [-o DIR] [KERNEL.ll ...]   # default: tests/data/tv/kernels/*.ll
#   scripts/tv-kernels.sh --table DIR                # only the table of an earlier run
#
# Environment: GCNSMT=path (else the release binary is built and used), TARGETS (default
# gfx900,gfx90a,gfx1100,gfx1200), TRIPLE (default amdgcn-amd-amdhsa, the HIP/OpenCL one;
# empty: gcnsmt's default -mtriple=amdgcn), TV_ARGS (more gcnsmt arguments, e.g.
# "--timeout 10"). Run from the repository root. Kernels run one after another (each
# `--pipeline` already runs its llc points in parallel); the peak RSS is that of the largest
# process in the run's tree (gcnsmt or one llc), from /usr/bin/time -v when installed.
set -euo pipefail
cd "$(dirname "$0")/.."

out=""
if [ "${1:-}" = "--table" ]; then
  exec python3 scripts/tv_kernels_table.py "${2:?--table needs the directory of a run}"
fi
if [ "${1:-}" = "-o" ]; then
  out="${2:?-o needs a directory}"
  shift 2
fi
out="${out:-$(mktemp -d "${TMPDIR:-/tmp}/tv-kernels.XXXXXX")}"
mkdir -p "$out"
if [ $# -eq 0 ]; then
  set -- tests/data/tv/kernels/*.ll
fi

if [ -z "${GCNSMT:-}" ]; then
  cargo build --release -q -p gcnsmt-verifier
  GCNSMT="${CARGO_TARGET_DIR:-target}/release/gcnsmt"
fi
targets="${TARGETS:-gfx900,gfx90a,gfx1100,gfx1200}"
triple="${TRIPLE-amdgcn-amd-amdhsa}"
extra=()
if [ -n "$triple" ]; then
  extra=(-- "-mtriple=$triple")
fi
timer=()
if [ -x /usr/bin/time ]; then
  timer=(/usr/bin/time -v)
fi

echo "gcnsmt: $GCNSMT; targets: $targets; triple: ${triple:-amdgcn}; output: $out" >&2
for k in "$@"; do
  name="$(basename "$k" .ll)"
  echo "== $name" >&2
  start=$(date +%s%N)
  set +e
  if [ ${#timer[@]} -gt 0 ]; then
    "${timer[@]}" -o "$out/$name.time" "$GCNSMT" tv --pipeline "$k" --target "$targets" \
      --format json ${TV_ARGS:-} "${extra[@]}" >"$out/$name.json" 2>"$out/$name.err"
  else
    # No /usr/bin/time: python's resource module gives the children's peak RSS (kB).
    python3 - "$out/$name.time" "$GCNSMT" tv --pipeline "$k" --target "$targets" \
      --format json ${TV_ARGS:-} "${extra[@]}" >"$out/$name.json" 2>"$out/$name.err" <<'PY'
import resource, subprocess, sys
rc = subprocess.call(sys.argv[2:])
kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
open(sys.argv[1], "w").write(f"Maximum resident set size (kbytes): {kb}\nExit status: {rc}\n")
sys.exit(rc)
PY
  fi
  rc=$?
  set -e
  end=$(date +%s%N)
  echo "{\"kernel\":\"$name\",\"exit_code\":$rc,\"wall_ms\":$(((end - start) / 1000000))}" \
    >"$out/$name.meta"
  echo "   exit $rc" >&2
done
python3 scripts/tv_kernels_table.py "$out"
