#!/bin/sh
# Regenerates before.mir and good.mir with llc-22 from input.ll.
set -e
cd "$(dirname "$0")"
F="-mtriple=amdgcn -mcpu=gfx900"
T=$(mktemp --suffix=.mir)
llc-22 $F -stop-before=si-fold-operands input.ll -o "$T"
llc-22 $F -run-pass=none "$T" -o - | sed "s|$T|stop.mir|g" > before.mir
llc-22 $F -run-pass=si-fold-operands "$T" -o - | sed "s|$T|stop.mir|g" > good.mir
rm -f "$T"
