#!/bin/sh
# Regenerates before.mir and good.mir with llc-22 from input.ll. llc-22 has the fix (it
# keeps the splat in the SGPR %15 on gfx942). buggy.mir is good.mir with the splat folded
# as the f16 inline constant 1.0 (15360) while src1_modifiers stays 8 (op_sel_hi set), the
# shape #73589 describes; made here by sed.
set -e
cd "$(dirname "$0")"
F="-mtriple=amdgcn-amd-amdhsa -mcpu=gfx942"
llc-22 $F -stop-before=si-fold-operands input.ll -o stop.mir
llc-22 $F -run-pass=none stop.mir -o before.mir
llc-22 $F -run-pass=si-fold-operands stop.mir -o good.mir
rm stop.mir
sed 's/V_DOT2_F32_F16 8, killed %13, 8, killed %15, 8, 0,/V_DOT2_F32_F16 8, killed %13, 8, 15360, 8, 0,/' good.mir > buggy.mir
