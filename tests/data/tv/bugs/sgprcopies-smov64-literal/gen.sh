#!/bin/sh
# Regenerate before.mir and the llc-22 output with llc-22 from input.mir.
# llc-22 (22.1.8) still has this bug: its si-fix-sgpr-copies output is the BUGGY form,
# so it is written to buggy.mir; good.mir is that output with the fixed opcode
# (S_MOV_B64_IMM_PSEUDO, which is what the fix emits), made here by sed.
set -e
cd "$(dirname "$0")"
FLAGS="-mtriple=amdgcn -mcpu=gfx900"
PASS=si-fix-sgpr-copies
llc-22 $FLAGS -run-pass=none input.mir -o before.mir
llc-22 $FLAGS -run-pass=$PASS input.mir -o buggy.mir
sed 's/= S_MOV_B64 81604378629/= S_MOV_B64_IMM_PSEUDO 81604378629/' buggy.mir > good.mir
