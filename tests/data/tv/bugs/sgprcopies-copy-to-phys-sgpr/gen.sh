#!/bin/sh
# Regenerate before.mir and good.mir with llc-22 from input.mir (buggy.mir is hand-written).
set -e
cd "$(dirname "$0")"
FLAGS="-mtriple=amdgcn -mcpu=gfx900"
PASS=si-fix-sgpr-copies
llc-22 $FLAGS -run-pass=none input.mir -o before.mir
llc-22 $FLAGS -run-pass=$PASS input.mir -o good.mir
