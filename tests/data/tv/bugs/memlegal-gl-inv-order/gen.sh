#!/bin/sh
# Regenerates before.mir and good.mir from input.ll (llc-22 22.1.8 has the fix).
set -e
cd "$(dirname "$0")"
F="-mtriple=amdgcn -mcpu=gfx1030"
tmp=$(mktemp -d)
cp input.ll "$tmp/input.ll"
(cd "$tmp" && llc-22 $F -stop-before=si-memory-legalizer input.ll -o stop.mir \
  && llc-22 $F -run-pass=none stop.mir -o before.mir \
  && llc-22 $F -run-pass=si-memory-legalizer stop.mir -o good.mir)
sed '/^# .*\/tmp\//d' "$tmp/before.mir" > before.mir
sed '/^# .*\/tmp\//d' "$tmp/good.mir" > good.mir
rm -rf "$tmp"
