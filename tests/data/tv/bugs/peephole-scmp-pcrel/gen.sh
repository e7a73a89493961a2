#!/bin/sh
# Regenerates before.mir and good.mir (llc-22 22.1.8 has the fix: the compare stays).
set -e
cd "$(dirname "$0")"
F="-mtriple=amdgcn-amd-amdhsa -mcpu=gfx900"
llc-22 $F -run-pass=none input.mir -o - | sed '/^# .*\/tmp\//d' > before.mir
llc-22 $F -run-pass=peephole-opt input.mir -o - | sed '/^# .*\/tmp\//d' > good.mir
