#!/bin/sh
# Regenerates before.mir and good.mir with llc-22 from input.mir (llc-22 has the fix and
# keeps both subtractions). buggy.mir is good.mir with the second subtraction CSE'd into the
# first (its use rewritten to %3 and the instruction deleted), which is what machine-cse
# did when it took the commuted `V_SUB_U32_sdwa 0, %1, 0, %2, ..., 6, 5` for %4; made by sed.
set -e
cd "$(dirname "$0")"
F="-mtriple=amdgcn -mcpu=gfx900"
llc-22 $F -run-pass=none input.mir -o before.mir
llc-22 $F -run-pass=machine-cse input.mir -o good.mir
sed -e '/^    %4:vgpr_32 = V_SUB_U32_sdwa /d' \
    -e 's/DS_WRITE2_B32_gfx9 %0, %3, %4, 0, 1, 0/DS_WRITE2_B32_gfx9 %0, %3, %3, 0, 1, 0/' good.mir > buggy.mir
