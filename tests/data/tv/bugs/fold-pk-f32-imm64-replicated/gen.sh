#!/bin/sh
# Regenerates before.mir and good.mir with llc-22 from input.ll. llc-22 has the fix (it
# materializes <1.0, 2.0> with V_MOV_B64_PSEUDO into %12). buggy.mir is good.mir with the
# 64-bit constant folded into V_PK_ADD_F32's src1, the fold #168458 stops; made here by sed.
set -e
cd "$(dirname "$0")"
F="-mtriple=amdgcn-amd-amdhsa -mcpu=gfx1250"
llc-22 $F -stop-before=si-fold-operands input.ll -o stop.mir
llc-22 $F -run-pass=none stop.mir -o before.mir
llc-22 $F -run-pass=si-fold-operands stop.mir -o good.mir
rm stop.mir
sed 's/V_PK_ADD_F32 8, killed %8, 8, %12,/V_PK_ADD_F32 8, killed %8, 8, 4611686019492741120,/' good.mir > buggy.mir
