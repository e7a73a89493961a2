#!/bin/sh
# Regenerates before.mir and buggy.mir from input.ll (llc-22 22.1.8 still has the bug: its
# si-insert-waitcnts output is buggy.mir; good.mir is buggy.mir with the fixed pass's wait
# written in by hand, see bug.toml).
set -e
cd "$(dirname "$0")"
F="-mtriple=amdgcn-amd-amdhsa -mcpu=gfx900"
tmp=$(mktemp -d)
cp input.ll "$tmp/input.ll"
(cd "$tmp" && llc-22 $F -stop-before=si-insert-waitcnts input.ll -o stop.mir \
  && llc-22 $F -run-pass=none stop.mir -o before.mir \
  && llc-22 $F -run-pass=si-insert-waitcnts stop.mir -o buggy.mir)
sed '/^# .*\/tmp\//d' "$tmp/before.mir" > before.mir
sed '/^# .*\/tmp\//d' "$tmp/buggy.mir" > buggy.mir
rm -rf "$tmp"
