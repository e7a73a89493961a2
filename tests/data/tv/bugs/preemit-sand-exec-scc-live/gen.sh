#!/bin/sh
# Regenerates before.mir and buggy.mir (llc-22 22.1.8 still has this bug, so its
# si-pre-emit-peephole output is the buggy one). good.mir is the fixed pass's
# output written by hand: the fix keeps the S_AND_B64 (its SCC def is live), and
# nothing else in the block changes, so it equals before.mir.
set -e
cd "$(dirname "$0")"
F="-mtriple=amdgcn -mcpu=gfx900"
llc-22 $F -run-pass=none input.mir -o - | sed '/^# .*\/tmp\//d' > before.mir
llc-22 $F -run-pass=si-pre-emit-peephole input.mir -o - | sed '/^# .*\/tmp\//d' > buggy.mir
