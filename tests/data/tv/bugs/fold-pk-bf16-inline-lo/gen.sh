#!/bin/sh
# Regenerates before.mir and buggy.mir with llc-22 from input.ll: llc-22 22.1.8 still has the
# bug (it folds the splat as 16256, bf16 1.0, with src1_modifiers 0). good.mir is that output
# with src1_modifiers 12 (OP_SEL_0 | OP_SEL_1: both halves read bits 31:16), what the fix
# (#209861) emits for gfx1250 packed bf16; made here by sed.
set -e
cd "$(dirname "$0")"
F="-mtriple=amdgcn-amd-amdhsa -mcpu=gfx1250"
llc-22 $F -stop-before=si-fold-operands input.ll -o stop.mir
llc-22 $F -run-pass=none stop.mir -o before.mir
llc-22 $F -run-pass=si-fold-operands stop.mir -o buggy.mir
rm stop.mir
sed 's/V_PK_ADD_BF16 8, killed %8, 0, 16256,/V_PK_ADD_BF16 8, killed %8, 12, 16256,/' buggy.mir > good.mir
