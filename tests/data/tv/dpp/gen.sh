#!/bin/sh
# Regenerates the before/after MIR of our DPP kernels with llc-22 (gcn-dpp-combine).
set -e
cd "$(dirname "$0")"
gen() { # file cpu
  b=$(basename "$1" .ll)
  T=$(mktemp --suffix=.mir)
  llc-22 -mtriple=amdgcn -mcpu=$2 -stop-before=gcn-dpp-combine "$1" -o "$T"
  llc-22 -mtriple=amdgcn -mcpu=$2 -run-pass=none "$T" -o - | sed "s|$T|stop.mir|g" > gen/$b.$2.before.mir
  llc-22 -mtriple=amdgcn -mcpu=$2 -run-pass=gcn-dpp-combine "$T" -o - | sed "s|$T|stop.mir|g" > gen/$b.$2.after.mir
  rm -f "$T"
}
mkdir -p gen
for c in gfx900 gfx90a gfx1100; do gen dpp_combine.ll $c; done
for c in gfx900 gfx90a; do gen dpp_combine_gfx9.ll $c; done
gen dpp_combine_gfx10.ll gfx1100
