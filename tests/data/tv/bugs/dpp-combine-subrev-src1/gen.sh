#!/bin/sh
# Regenerates before.mir and buggy.mir with llc-22 from input.ll (llc-22 22.1.8
# still has this bug, so its gcn-dpp-combine output is the buggy one). good.mir is
# the fixed pass's output written by hand: the fix refuses the fold, the block is
# left as it was, so good.mir equals before.mir.
set -e
cd "$(dirname "$0")"
F="-mtriple=amdgcn -mcpu=gfx900"
T=$(mktemp --suffix=.mir)
llc-22 $F -stop-before=gcn-dpp-combine input.ll -o "$T"
llc-22 $F -run-pass=none "$T" -o - | sed "s|$T|stop.mir|g" > before.mir
llc-22 $F -run-pass=gcn-dpp-combine "$T" -o - | sed "s|$T|stop.mir|g" > buggy.mir
rm -f "$T"
