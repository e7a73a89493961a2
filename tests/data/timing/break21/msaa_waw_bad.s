	.amdgcn_target "amdgcn-amd-amdpal--gfx1100"
	.text
	.globl	k                               ; -- Begin function k
	.p2align	8
	.type	k,@function
k:                                      ; @k
; %bb.0:
	image_msaa_load v[4:7], v[0:2], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D_MSAA unorm
	buffer_load_b32 v4, v3, s[8:11], 0 offen
	s_waitcnt vmcnt(0)
	v_mul_f32_e32 v1, 0x40400000, v5
	s_waitcnt vmcnt(0)
	s_delay_alu instid0(VALU_DEP_1)
	v_add_f32_e32 v0, v1, v4
	; return to shader part epilog
.Lfunc_end0:
	.size	k, .Lfunc_end0-k
                                        ; -- End function
	.set k.num_vgpr, 8
	.set k.num_agpr, 0
	.set k.numbered_sgpr, 12
	.set k.num_named_barrier, 0
	.set k.private_seg_size, 0
	.set k.uses_vcc, 0
	.set k.uses_flat_scratch, 0
	.set k.has_dyn_sized_stack, 0
	.set k.has_recursion, 0
	.set k.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 40
; TotalNumSgprs: 12
; NumVgprs: 8
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 0
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 0
; VGPRBlocks: 0
; NumSGPRsForWavesPerEU: 12
; NumVGPRsForWavesPerEU: 8
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
	.amd_amdgpu_isa "amdgcn-amd-amdpal--gfx1100"
	.amdgpu_pal_metadata
---
amdpal.pipelines:
  - .hardware_stages:
      .ps:
        .entry_point:    _amdgpu_ps_main
        .entry_point_symbol: k
        .scratch_memory_size: 0
        .sgpr_count:     0xc
        .vgpr_count:     0x8
    .registers:
      '0x2c0a (SPI_SHADER_PGM_RSRC1_PS)': 0x22f0000
      '0x2c0b (SPI_SHADER_PGM_RSRC2_PS)': 0
      '0xa1b3 (SPI_PS_INPUT_ENA)': 0xf
      '0xa1b4 (SPI_PS_INPUT_ADDR)': 0xf
      '0xa1b6 (SPI_PS_IN_CONTROL)': 0x8000
...
	.end_amdgpu_pal_metadata
