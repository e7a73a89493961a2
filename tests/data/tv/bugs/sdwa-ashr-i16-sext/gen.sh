#!/bin/sh
# Regenerate before.mir, buggy.mir and good.mir with llc-22 from input.mir.
# llc-22 (22.1.8) still has this bug: its si-peephole-sdwa output is the BUGGY form and is
# written to buggy.mir. The fix makes the pass leave this function alone, so good.mir is
# the pass input itself (-run-pass=none), i.e. every block "unchanged".
set -e
cd "$(dirname "$0")"
FLAGS="-mtriple=amdgcn -mcpu=gfx900"
PASS=si-peephole-sdwa
llc-22 $FLAGS -run-pass=none input.mir -o before.mir
llc-22 $FLAGS -run-pass=$PASS input.mir -o buggy.mir
cp before.mir good.mir
