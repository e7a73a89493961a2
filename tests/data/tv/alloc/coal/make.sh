#!/bin/sh
# Regenerate the register-coalescer pairs of this folder from our kernels with llc-22 (Debian
# LLVM 22.1.8): each pair is the MIR of two consecutive -stop-before points of one llc -O3
# pipeline (as `gcnsmt tv --pipeline` takes them): NAME.before.mir = -stop-before=
# register-coalescer, NAME.after.mir = -stop-before=rename-independent-subregs. The planted
# wrong after-files (*.wrong*.after.mir) are hand edits of these, explained in README.md.
set -eu
K=../../kernels
pair() { # name kernel cpu
  for p in before:register-coalescer after:rename-independent-subregs; do
    llc-22 -mtriple=amdgcn-amd-amdhsa -mcpu="$3" -O3 -stop-before="${p#*:}" "$K/$2.ll" \
      -o "$1.${p%%:*}.mir"
  done
}
pair af atomics_fences gfx900
pair gemm gemm_tiled gfx900
pair sc stream_compact gfx1100
pair vc vector_copy_x4 gfx900
pair br buffer_raw_mixed gfx900
pair dl divergent_loop gfx900
