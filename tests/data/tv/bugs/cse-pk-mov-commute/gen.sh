#!/bin/sh
# Regenerates before.mir and buggy.mir. llc-22 22.1.8 still has this bug: its
# machine-cse output is the buggy one. good.mir is written by hand: the fixed
# pass (V_PK_MOV_B32 not commutable) leaves the function as it is.
set -e
cd "$(dirname "$0")"
F="-mtriple=amdgcn -mcpu=gfx90a"
llc-22 $F -run-pass=none input.mir -o - | sed '/^# .*\/tmp\//d' > before.mir
llc-22 $F -run-pass=machine-cse input.mir -o - | sed '/^# .*\/tmp\//d' > buggy.mir
