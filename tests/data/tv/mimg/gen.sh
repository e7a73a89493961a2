#!/bin/sh
# Regenerates mimg.TARGET.{before,after}.mir with llc-22 from mimg.ll (TFE is rejected on
# gfx90a, so there the kernels without tfe_both are used: mimg_notfe.ll is mimg.ll without it).
set -e
cd "$(dirname "$0")"
for t in gfx900 gfx90a gfx1030 gfx1100; do
  F="-mtriple=amdgcn -mcpu=$t"
  IN=mimg.ll
  if [ $t = gfx90a ]; then
    awk '/^define .*@tfe_both/{skip=1} skip&&/^}/{skip=0;next} !skip' mimg.ll > mimg_notfe.ll
    IN=mimg_notfe.ll
  fi
  T=$(mktemp --suffix=.mir)
  llc-22 $F -amdgpu-load-store-vectorizer=0 -stop-before=si-load-store-opt $IN -o "$T"
  llc-22 $F -run-pass=none "$T" -o - | sed "s|$T|stop.mir|g" > mimg.$t.before.mir
  llc-22 $F -run-pass=si-load-store-opt "$T" -o - | sed "s|$T|stop.mir|g" > mimg.$t.after.mir
  rm -f "$T"
done
rm -f mimg_notfe.ll
