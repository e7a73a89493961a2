#!/bin/sh
# Run `gcnsmt tv` over LLVM's own AMDGPU CodeGen tests as their RUN lines spell them
# (folded triples `-mtriple=amdgpu9.00-amd-amdhsa` and `-mcpu=` processor names), from a local
# copy of the tests (never copied into this repository). See scripts/tv_llvm_tests.py.
#   scripts/tv-llvm-tests.sh run [--shard K/N] --out DIR [--gcnsmt G] [--llc L] FILE|DIR...
#   scripts/tv-llvm-tests.sh merge DIR...     (the per-pass table of all shards' DIRs)
#   scripts/tv-llvm-tests.sh plan FILE|DIR... (the jobs a run would do)
# Or across machines: python3 scripts/ray_verify.py --tv -- FILE|DIR...
exec python3 "$(dirname "$0")/tv_llvm_tests.py" "$@"
