#!/bin/sh
# Regenerates before.mir and buggy.mir (llc-22 22.1.8 still has this bug, so its
# si-fold-operands output is the buggy one; good.mir is written by hand).
set -e
cd "$(dirname "$0")"
F="-mtriple=amdgcn -mcpu=gfx900"
llc-22 $F -run-pass=none input.mir -o - | sed '/^# .*\/tmp\//d' > before.mir
llc-22 $F -run-pass=si-fold-operands input.mir -o - | sed '/^# .*\/tmp\//d' > buggy.mir
