#!/bin/sh
# Regenerates before.mir and good.mir with llc-22 from input.mir (llc-22 has the fix: it
# keeps the S_CBRANCH_EXECZ). buggy.mir is good.mir with the branch and its edge to bb.3
# removed, which is what the buggy mustRetainExeczBranch let the pass do; made here by sed.
set -e
cd "$(dirname "$0")"
F="-mtriple=amdgcn -mcpu=gfx900"
llc-22 $F -run-pass=none input.mir -o before.mir
llc-22 $F -run-pass=si-pre-emit-peephole input.mir -o good.mir
sed -e '/^    S_CBRANCH_EXECZ %bb.3, implicit \$exec$/d' \
    -e 's/^    successors: %bb.1(0x40000000), %bb.3(0x40000000)$/    successors: %bb.1(0x80000000)/' good.mir > buggy.mir
