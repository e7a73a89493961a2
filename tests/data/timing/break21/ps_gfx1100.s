	.amdgcn_target "amdgcn-amd-amdpal--gfx1100"
	.text
	.globl	ps                              ; -- Begin function ps
	.p2align	8
	.type	ps,@function
ps:                                     ; @ps
; %bb.0:
	s_mov_b32 s16, exec_lo
	s_wqm_b32 exec_lo, exec_lo
	s_delay_alu instid0(SALU_CYCLE_1)
	s_and_b32 exec_lo, exec_lo, s16
	image_sample v[0:1], v[0:1], s[0:7], s[8:11] dmask:0x5 dim:SQ_RSRC_IMG_2D
	image_load v[3:4], v[2:3], s[0:7] dmask:0xa dim:SQ_RSRC_IMG_2D unorm
	buffer_load_b32 v2, v2, s[12:15], 0 offen
	s_buffer_load_b32 s0, s[12:15], 0x10
	s_waitcnt vmcnt(2) lgkmcnt(0)
	v_mul_f32_e32 v0, s0, v0
	s_waitcnt vmcnt(0)
	v_add_f32_e32 v2, v3, v2
	exp mrt0 v0, v2, v1, v4 done
	s_endpgm
.Lfunc_end0:
	.size	ps, .Lfunc_end0-ps
                                        ; -- End function
	.set ps.num_vgpr, 5
	.set ps.num_agpr, 0
	.set ps.numbered_sgpr, 17
	.set ps.num_named_barrier, 0
	.set ps.private_seg_size, 0
	.set ps.uses_vcc, 0
	.set ps.uses_flat_scratch, 0
	.set ps.has_dyn_sized_stack, 0
	.set ps.has_recursion, 0
	.set ps.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 76
; TotalNumSgprs: 17
; NumVgprs: 5
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 0
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 0
; VGPRBlocks: 0
; NumSGPRsForWavesPerEU: 17
; NumVGPRsForWavesPerEU: 5
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
        .entry_point_symbol: ps
        .scratch_memory_size: 0
        .sgpr_count:     0x11
        .vgpr_count:     0x5
    .registers:
      '0x2c0a (SPI_SHADER_PGM_RSRC1_PS)': 0x22f0000
      '0x2c0b (SPI_SHADER_PGM_RSRC2_PS)': 0
      '0xa1b3 (SPI_PS_INPUT_ENA)': 0xf
      '0xa1b4 (SPI_PS_INPUT_ADDR)': 0xf
      '0xa1b6 (SPI_PS_IN_CONTROL)': 0x8000
...
	.end_amdgpu_pal_metadata
