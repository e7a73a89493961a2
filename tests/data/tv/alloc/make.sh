#!/bin/sh
# Regenerate the register-allocation pairs of this folder from our kernels with llc-22
# (Debian LLVM 22.1.8): each pair is the MIR of two consecutive -stop-before points of ONE llc
# -O3 run's pipeline on one .ll input (virtual register numbers correspond; no MIR re-read).
#   NAME.before.mir = -stop-before=PASS, NAME.after.mir = -stop-before=NEXT
set -eu
K=../kernels
pair() { # name kernel cpu pass next
  llc-22 -mtriple=amdgcn -mcpu="$3" -O3 -stop-before="$4" "$K/$2.ll" -o "$1.before.mir"
  llc-22 -mtriple=amdgcn -mcpu="$3" -O3 -stop-before="$5" "$K/$2.ll" -o "$1.after.mir"
}
pair sp_sgpr spill_pressure gfx900 virtregrewriter stack-slot-coloring
pair sp_split spill_pressure gfx900 greedy,2 virtregrewriter,2
pair sp_vgpr spill_pressure gfx900 virtregrewriter,2 amdgpu-mark-last-scratch-load
pair dl_sgpr divergent_loop gfx900 virtregrewriter stack-slot-coloring
pair dl_vgpr divergent_loop gfx900 virtregrewriter,2 amdgpu-mark-last-scratch-load
pair lr_vgpr lds_reduce gfx900 virtregrewriter,2 amdgpu-mark-last-scratch-load
pair gemm_vgpr gemm_tiled gfx1100 virtregrewriter,2 amdgpu-mark-last-scratch-load
pair sp_coalesce spill_pressure gfx90a register-coalescer rename-independent-subregs
