#!/bin/sh
# Regenerates before.mir and buggy.mir with llc-22 from input.mir.
# llc-22 (22.1.8) still has this bug: its si-fix-sgpr-copies output rewrites the add's
# operand `%4` (= COPY %3.hi16) to `%3.lo16`, so it is written to buggy.mir. good.mir is
# that output with the subregister the copy named, `%3.hi16` (what a correct lowering of
# the V2S copy reads), made here by sed.
set -e
cd "$(dirname "$0")"
F="-mtriple=amdgcn -mcpu=gfx1100"
llc-22 $F -run-pass=none input.mir -o before.mir
llc-22 $F -run-pass=si-fix-sgpr-copies input.mir -o buggy.mir
sed 's/V_ADD_NC_U16_t16_e64 0, %3.lo16, 0/V_ADD_NC_U16_t16_e64 0, %3.hi16, 0/' buggy.mir > good.mir
