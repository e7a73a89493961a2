	.amdgcn_target "amdgcn-amd-amdpal--gfx1030"
	.text
	.globl	ps2                             ; -- Begin function ps2
	.p2align	8
	.type	ps2,@function
ps2:                                    ; @ps2
; %bb.0:
	s_mov_b32 s16, exec_lo
	s_wqm_b32 exec_lo, exec_lo
	v_mov_b32_e32 v5, v3
	v_mov_b32_e32 v4, v2
	s_and_b32 exec_lo, exec_lo, s16
	v_mov_b32_e32 v6, 1
	s_clause 0x1
	image_sample v[7:10], v[0:1], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
	image_gather4 v[0:3], v[0:1], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D
	buffer_atomic_add v6, v4, s[12:15], 0 offen glc
	s_waitcnt vmcnt(1)
	v_add_f32_e32 v3, v10, v3
	v_add_f32_e32 v2, v9, v2
	v_add_f32_e32 v1, v8, v1
	v_add_f32_e32 v0, v7, v0
	s_waitcnt vmcnt(0)
	image_atomic_add v6, v[4:5], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm glc
	image_store v[0:3], v[4:5], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D unorm
	s_waitcnt vmcnt(0)
	v_mov_b32_e32 v0, v6
	; return to shader part epilog
.Lfunc_end0:
	.size	ps2, .Lfunc_end0-ps2
                                        ; -- End function
	.set ps2.num_vgpr, 11
	.set ps2.num_agpr, 0
	.set ps2.numbered_sgpr, 17
	.set ps2.num_named_barrier, 0
	.set ps2.private_seg_size, 0
	.set ps2.uses_vcc, 0
	.set ps2.uses_flat_scratch, 0
	.set ps2.has_dyn_sized_stack, 0
	.set ps2.has_recursion, 0
	.set ps2.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 100
; TotalNumSgprs: 17
; NumVgprs: 11
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 0
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 0
; VGPRBlocks: 1
; NumSGPRsForWavesPerEU: 17
; NumVGPRsForWavesPerEU: 11
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
	.p2alignl 6, 3214868480
	.fill 48, 4, 3214868480
	.section	.AMDGPU.gpr_maximums,"",@progbits
	.set amdgpu.max_num_vgpr, 0
	.set amdgpu.max_num_agpr, 0
	.set amdgpu.max_num_sgpr, 0
	.set amdgpu.max_num_named_barrier, 0
	.text
	.section	".note.GNU-stack","",@progbits
	.amd_amdgpu_isa "amdgcn-amd-amdpal--gfx1030"
	.amdgpu_pal_metadata
---
amdpal.pipelines:
  - .hardware_stages:
      .ps:
        .entry_point:    _amdgpu_ps_main
        .entry_point_symbol: ps2
        .scratch_memory_size: 0
        .sgpr_count:     0x11
        .vgpr_count:     0xb
    .registers:
      '0x2c0a (SPI_SHADER_PGM_RSRC1_PS)': 0x22f0001
      '0x2c0b (SPI_SHADER_PGM_RSRC2_PS)': 0
      '0xa1b3 (SPI_PS_INPUT_ENA)': 0xf
      '0xa1b4 (SPI_PS_INPUT_ADDR)': 0xf
      '0xa1b6 (SPI_PS_IN_CONTROL)': 0x8000
...
	.end_amdgpu_pal_metadata
