#!/bin/sh
# Regenerate tests/data/tv/gen/*.{before,after}.mir from tests/data/tv/*.ll with llc.
# Committed files were made with Debian llvm-22 22.1.8 (`llc-22 --version`).
# Both files of a pair come from ONE -stop-before MIR (-run-pass none / -run-pass PASS), so
# virtual register numbers correspond. -amdgpu-load-store-vectorizer=0 keeps the IR
# vectorizer from merging the accesses before SILoadStoreOptimizer sees them.
# Usage: scripts/tv-gen.sh [LLC] (from the repository root; default llc-22).
set -eu
LLC=${1:-llc-22}
PASS=si-load-store-opt
TARGETS="gfx802 gfx900 gfx1100"
DIR=tests/data/tv
mkdir -p "$DIR/gen"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$LLC" --version | grep -i 'llvm version' > "$DIR/gen/LLC_VERSION"
for ll in "$DIR"/*.ll; do
  name=$(basename "$ll" .ll)
  for t in $TARGETS; do
    common="-mtriple=amdgcn -mcpu=$t -amdgpu-load-store-vectorizer=0"
    "$LLC" $common -stop-before=$PASS "$ll" -o "$tmp/$name.mir"
    "$LLC" $common -run-pass=none "$tmp/$name.mir" -o "$DIR/gen/$name.$t.before.mir"
    "$LLC" $common -run-pass=$PASS "$tmp/$name.mir" -o "$DIR/gen/$name.$t.after.mir"
    sed -i "s|$tmp/||g" "$DIR/gen/$name.$t.before.mir" "$DIR/gen/$name.$t.after.mir"
  done
done
echo "regenerated $(ls "$DIR"/gen/*.before.mir | wc -l) pairs"
