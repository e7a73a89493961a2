	.amdgcn_target "amdgcn-amd-amdpal--gfx1200"
	.text
	.globl	k                               ; -- Begin function k
	.p2align	8
	.type	k,@function
k:                                      ; @k
; %bb.0:
	v_dual_mov_b32 v21, v9 :: v_dual_mov_b32 v20, v8
	v_dual_mov_b32 v19, v7 :: v_dual_mov_b32 v18, v6
	v_dual_mov_b32 v17, v5 :: v_dual_mov_b32 v16, v4
	image_bvh_dual_intersect_ray v[0:9], [v[0:1], v[2:3], v[16:18], v[19:21], v[10:11]], s[0:3]
	s_wait_bvhcnt 0x0
	s_clause 0x1
	global_store_b96 v[12:13], v[16:18], off
	global_store_b96 v[12:13], v[19:21], off offset:16
	; return to shader part epilog
.Lfunc_end0:
	.size	k, .Lfunc_end0-k
                                        ; -- End function
	.set k.num_vgpr, 22
	.set k.num_agpr, 0
	.set k.numbered_sgpr, 4
	.set k.num_named_barrier, 0
	.set k.private_seg_size, 0
	.set k.uses_vcc, 0
	.set k.uses_flat_scratch, 0
	.set k.has_dyn_sized_stack, 0
	.set k.has_recursion, 0
	.set k.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 68
; TotalNumSgprs: 4
; NumVgprs: 22
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 0
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 0
; VGPRBlocks: 2
; NumSGPRsForWavesPerEU: 4
; NumVGPRsForWavesPerEU: 22
; Occupancy: 16
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 0
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
	.text
	.p2alignl 7, 3214868480
	.fill 96, 4, 3214868480
	.section	.AMDGPU.gpr_maximums,"",@progbits
	.set amdgpu.max_num_vgpr, 0
	.set amdgpu.max_num_agpr, 0
	.set amdgpu.max_num_sgpr, 0
	.set amdgpu.max_num_named_barrier, 0
	.text
	.section	".note.GNU-stack","",@progbits
	.amd_amdgpu_isa "amdgcn-amd-amdpal--gfx1200"
	.amdgpu_pal_metadata
---
amdpal.pipelines:
  - .hardware_stages:
      .ps:
        .entry_point:    _amdgpu_ps_main
        .entry_point_symbol: k
        .scratch_memory_size: 0
        .sgpr_count:     0x4
        .vgpr_count:     0x16
    .registers:
      '0x2c0a (SPI_SHADER_PGM_RSRC1_PS)': 0x20f0002
      '0x2c0b (SPI_SHADER_PGM_RSRC2_PS)': 0
      '0xa1b3 (SPI_PS_INPUT_ENA)': 0x7f
      '0xa1b4 (SPI_PS_INPUT_ADDR)': 0x7f
      '0xa1b6 (SPI_PS_IN_CONTROL)': 0x8000
...
	.end_amdgpu_pal_metadata
