#!/bin/sh
# Regenerates before.mir and buggy.mir with llc-22 from input.mir.
# llc-22 (22.1.8) still has this bug: its si-fold-operands output folds `COPY %0.hi16`
# into the add as plain `%0` (the low half), so it is written to buggy.mir. The fix makes
# the fold give up on a hi16 copy, so the fixed pass leaves the function as it is:
# good.mir is before.mir.
set -e
cd "$(dirname "$0")"
F="-mtriple=amdgcn -mcpu=gfx1100"
llc-22 $F -run-pass=none input.mir -o before.mir
llc-22 $F -run-pass=si-fold-operands input.mir -o buggy.mir
cp before.mir good.mir
