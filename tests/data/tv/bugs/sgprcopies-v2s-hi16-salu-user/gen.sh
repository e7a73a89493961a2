#!/bin/sh
# Regenerates before.mir and buggy.mir with llc-22 from input.mir.
# llc-22 (22.1.8) still has this bug: its si-fix-sgpr-copies output is
# `V_XOR_B32_e64 %1, %2` (the hi16 of %1 dropped), so it is written to buggy.mir.
# good.mir keeps the hi16 half, as the fix does: the 16-bit value is placed in the low half
# of a 32-bit VGPR with REG_SEQUENCE (high half undefined, as the COPY into sreg_32 left
# it) and the XOR reads that; made here by sed.
set -e
cd "$(dirname "$0")"
F="-mtriple=amdgcn -mcpu=gfx1100"
llc-22 $F -run-pass=none input.mir -o before.mir
llc-22 $F -run-pass=si-fix-sgpr-copies input.mir -o buggy.mir
sed 's/^    %6:vgpr_32 = V_XOR_B32_e64 %1, %2, implicit \$exec$/    %7:vgpr_16 = IMPLICIT_DEF\n    %8:vgpr_32 = REG_SEQUENCE %1.hi16, %subreg.lo16, %7, %subreg.hi16\n    %6:vgpr_32 = V_XOR_B32_e64 %8, %2, implicit $exec/' buggy.mir > good.mir
