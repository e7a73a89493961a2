#!/bin/sh
# Regenerates before.mir and good.mir with llc-22 from input.ll. llc-22 has the fix (it
# keeps <1.0, 2.0> in the SGPR %17). buggy.mir is good.mir with the constant folded as the
# f16 inline constant 1.0 (15360) and op_sel_hi set in src0_modifiers (8), which a VOP3
# instruction ignores: the shape #142142 describes ("lose 2.0 imm"); made here by sed.
set -e
cd "$(dirname "$0")"
F="-mtriple=amdgcn-amd-amdhsa -mcpu=gfx950"
llc-22 $F -stop-before=si-fold-operands input.ll -o stop.mir
llc-22 $F -run-pass=none stop.mir -o before.mir
llc-22 $F -run-pass=si-fold-operands stop.mir -o good.mir
rm stop.mir
sed 's/V_CVT_SCALEF32_PK_FP8_F16_e64 0, killed %17, 0,/V_CVT_SCALEF32_PK_FP8_F16_e64 8, 15360, 0,/' good.mir > buggy.mir
