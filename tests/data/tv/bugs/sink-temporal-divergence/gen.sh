#!/bin/sh
# Regenerates before.mir and good.mir (llc-22 22.1.8 keeps the add in the loop).
set -e
cd "$(dirname "$0")"
F="-mtriple=amdgcn -mcpu=gfx900"
llc-22 $F -run-pass=none input.mir -o - | sed '/^# .*\/tmp\//d' > before.mir
llc-22 $F -run-pass=machine-sink input.mir -o - | sed '/^# .*\/tmp\//d' > good.mir
