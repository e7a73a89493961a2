#!/bin/sh
# Regenerate before.mir and good.mir with llc-22 from input.ll (buggy.mir is hand-written).
set -e
cd "$(dirname "$0")"
FLAGS="-mtriple=amdgcn -mcpu=gfx900"
PASS=si-wqm
TMP=$(mktemp -d)
llc-22 $FLAGS -stop-before=$PASS input.ll -o "$TMP/stop.mir"
llc-22 $FLAGS -run-pass=none "$TMP/stop.mir" -o before.mir
llc-22 $FLAGS -run-pass=$PASS "$TMP/stop.mir" -o good.mir
# strip the temporary path llc writes into the ModuleID line
sed -i "s|^  ; ModuleID = .*|  ; ModuleID = 'input.ll'|" before.mir good.mir
rm -rf "$TMP"
