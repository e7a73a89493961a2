#!/bin/sh
# Planted register-allocation bugs: each NAME.after.mir is ../BASE.after.mir (a correct llc-22
# allocation, see ../make.sh) with ONE hand edit, checked against ../BASE.before.mir. Every edit
# makes the after-function read a value the before-function does not read there, or clobber
# one it still needs, so none of them may be proved (tv_alloc.rs). Why each is wrong, by hand:
set -eu
bug() { # name base sed-script
  sed "$3" "../$2.after.mir" > "$1.after.mir"
  if cmp -s "$1.after.mir" "../$2.after.mir"; then echo "$1: edit did not apply" >&2; exit 1; fi
}
# --- SGPR assignment (virtregrewriter, spill_pressure) ---
# The trip-count test reads s3 (the loop counter, 0 here) instead of s2 (the kernarg `iters`).
bug s01-cmp-wrong-sgpr sp_sgpr 's/S_CMP_EQ_U32 renamable \$sgpr2, 0/S_CMP_EQ_U32 renamable $sgpr3, 0/'
# The high half of the 64-bit pointer is copied from s6 (its low half) instead of s7.
bug s02-copy-wrong-half sp_sgpr 's/%258:vgpr_32 = COPY renamable \$sgpr7/%258:vgpr_32 = COPY renamable $sgpr6/'
# The loop's exit compare has its operands swapped (counter and bound).
bug s03-cmp-operands-swapped sp_sgpr 's/S_CMP_LT_U32 renamable \$sgpr3, renamable \$sgpr2/S_CMP_LT_U32 renamable $sgpr2, renamable $sgpr3/'
# The output pointer is loaded into s4:s5, the kernarg pointer still read at bb.2's load.
bug s04-def-into-live-sgpr sp_sgpr 's/early-clobber renamable \$sgpr0_sgpr1 = S_LOAD_DWORDX2_IMM_ec renamable \$sgpr4_sgpr5, 36/early-clobber renamable $sgpr4_sgpr5 = S_LOAD_DWORDX2_IMM_ec renamable $sgpr4_sgpr5, 36/'
# A clobbered tuple half: s7 (high half of the loaded pointer) overwritten before its copy.
bug s05-clobbered-tuple-half sp_sgpr '/S_LOAD_DWORDX2_IMM_ec killed renamable \$sgpr4_sgpr5, 44/a\    $sgpr7 = S_MOV_B32 0'
# The carry-in of the 64-bit add is read from s0:s1 (the output pointer) instead of VCC.
bug s06-carry-from-wrong-sgpr sp_sgpr '0,/V_ADDC_U32_e64 0, %258, killed \$vcc/s//V_ADDC_U32_e64 0, %258, $sgpr0_sgpr1/'
# The loop counter's increment is written into s2, the trip count still live.
bug s07-increment-into-live-sgpr sp_sgpr 's/renamable \$sgpr3 = nuw S_ADD_I32 killed renamable \$sgpr3, 1/renamable $sgpr2 = nuw S_ADD_I32 killed renamable $sgpr3, 1/'
# The last store's base is s2:s3 (trip count and counter) instead of the output pointer.
bug s08-store-base-wrong sp_sgpr 's/%249, killed renamable \$sgpr0_sgpr1, 112/%249, killed renamable $sgpr2_sgpr3, 112/'
# --- VGPR assignment with spills (virtregrewriter,2, spill_pressure) ---
# The second store writes v[8:11] (the first store's data) instead of v[17:20].
bug v01-store-wrong-tuple sp_vgpr 's/GLOBAL_STORE_DWORDX4_SADDR renamable \$vgpr16, killed renamable \$vgpr17_vgpr18_vgpr19_vgpr20, renamable \$sgpr0_sgpr1, 16/GLOBAL_STORE_DWORDX4_SADDR renamable $vgpr16, killed renamable $vgpr8_vgpr9_vgpr10_vgpr11, renamable $sgpr0_sgpr1, 16/'
# A reload from the wrong slot (%stack.4 holds another accumulator).
bug v02-reload-wrong-slot sp_vgpr '0,/SI_SPILL_V128_RESTORE %stack.2,/s//SI_SPILL_V128_RESTORE %stack.4,/'
# The first spill saves v[4:7] instead of v[0:3].
bug v03-spill-wrong-register sp_vgpr '0,/SI_SPILL_V128_SAVE killed \$vgpr0_vgpr1_vgpr2_vgpr3, %stack.1/s//SI_SPILL_V128_SAVE killed $vgpr4_vgpr5_vgpr6_vgpr7, %stack.1/'
# A reload into v[21:24] while the use still reads v[17:20].
bug v04-reload-into-wrong-register sp_vgpr '0,/renamable \$vgpr17_vgpr18_vgpr19_vgpr20 = SI_SPILL_V128_RESTORE %stack.2/s//renamable $vgpr21_vgpr22_vgpr23_vgpr24 = SI_SPILL_V128_RESTORE %stack.2/'
# A clobbered tuple half: v18 overwritten between a reload of v[17:20] and its store.
bug v05-clobbered-tuple-half sp_vgpr '0,/SI_SPILL_V128_RESTORE %stack.2, .*$/s//&\n    $vgpr18 = V_MOV_B32_e32 0, implicit $exec/'
# A missing reload: the store reads v[17:20] as left by the previous store's data.
bug v06-missing-reload sp_vgpr '0,/^.*SI_SPILL_V128_RESTORE %stack.2, .*$/{//d}'
# The store address is v15 instead of v16.
bug v07-address-wrong-vgpr sp_vgpr '0,/GLOBAL_STORE_DWORDX4_SADDR renamable \$vgpr16,/s//GLOBAL_STORE_DWORDX4_SADDR renamable $vgpr15,/'
# EXEC left at zero lanes before the stores (an EXEC save/restore dropped).
bug v08-exec-not-restored sp_vgpr '0,/GLOBAL_STORE_DWORDX4_SADDR/s//$exec = S_MOV_B64 0\n    &/'
# --- live-range splitting and spilling on virtual registers (greedy,2, spill_pressure) ---
# A split copy reads %360 where the before reads %357.
bug p01-split-copy-wrong-vreg sp_split 's/%355:vreg_128 = COPY %357/%355:vreg_128 = COPY %360/'
# A spill of %399 saves %387's slot-mate instead (wrong register spilled to %stack.4).
bug p02-spill-wrong-vreg sp_split 's/SI_SPILL_V128_SAVE %399, %stack.4/SI_SPILL_V128_SAVE %387, %stack.4/'
# A reload from %stack.7 into %392 is taken from %stack.6 (another value).
bug p03-reload-wrong-slot sp_split 's/%392:vreg_64 = SI_SPILL_V64_RESTORE %stack.7/%392:vreg_64 = SI_SPILL_V64_RESTORE %stack.6/'
# A copy of the reloaded value reads sub1 instead of sub0.
bug p04-copy-wrong-subregister sp_split 's/%37:vgpr_32 = COPY %385.sub0/%37:vgpr_32 = COPY %385.sub1/'
# --- coalescing (register-coalescer, gfx90a) ---
