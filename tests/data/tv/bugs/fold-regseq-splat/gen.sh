#!/bin/sh
# Regenerates before.mir and good.mir with llc-22 from input.mir.
set -e
cd "$(dirname "$0")"
F="-mtriple=amdgcn -mcpu=gfx900"
llc-22 $F -run-pass=none input.mir -o - > before.mir
llc-22 $F -run-pass=si-fold-operands input.mir -o - > good.mir
