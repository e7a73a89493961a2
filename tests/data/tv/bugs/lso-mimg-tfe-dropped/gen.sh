#!/bin/sh
# Regenerates before.mir and good.mir with llc-22 from input.ll.
set -e
cd "$(dirname "$0")"
F="-mtriple=amdgcn -mcpu=gfx900"
T=$(mktemp --suffix=.mir)
llc-22 $F -amdgpu-load-store-vectorizer=0 -stop-before=si-load-store-opt input.ll -o "$T"
llc-22 $F -run-pass=none "$T" -o - | sed "s|$T|stop.mir|g" > before.mir
llc-22 $F -run-pass=si-load-store-opt "$T" -o - | sed "s|$T|stop.mir|g" > good.mir
rm -f "$T"
