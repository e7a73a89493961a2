#!/bin/sh
# Regenerates before.mir and buggy.mir with llc-22 from input.mir.
# llc-22 (22.1.8) still has this bug: its prologepilog output materialises %stack.1 with
# `$sgpr4 = S_ADD_I32 $sgpr32, 4, implicit-def $scc` between the compare and the
# S_CSELECT_B32, so it is written to buggy.mir. good.mir replaces that one instruction by
# the SCC-preserving sequence the fix emits; its exact form is the one llc-22 itself emits
# for this function when SCC is also read after the S_CSELECT (so the scavenger already
# sees SCC live), made here by sed.
set -e
cd "$(dirname "$0")"
F="-mtriple=amdgcn -mcpu=gfx1100"
llc-22 $F -run-pass=none input.mir -o before.mir
llc-22 $F -run-pass=prologepilog input.mir -o buggy.mir
sed 's/^    \$sgpr4 = S_ADD_I32 \$sgpr32, 4, implicit-def \$scc$/    $sgpr4 = S_ADDC_U32 $sgpr32, 4, implicit-def $scc, implicit $scc\n    S_BITCMP1_B32 $sgpr4, 0, implicit-def $scc\n    $sgpr4 = S_BITSET0_B32 0, $sgpr4/' buggy.mir > good.mir
