	.amdgcn_target "amdgcn-amd-amdpal--gfx900"
	.text
	.globl	ps                              ; -- Begin function ps
	.p2align	8
	.type	ps,@function
ps:                                     ; @ps
; %bb.0:
	s_mov_b64 s[16:17], exec
	s_wqm_b64 exec, exec
	s_and_b64 exec, exec, s[16:17]
	image_sample v[4:5], v[0:1], s[0:7], s[8:11] dmask:0x5
	image_load v[6:7], v[2:3], s[0:7] dmask:0xa unorm
	buffer_load_dword v8, v2, s[12:15], 0 offen
                                        ; kill: killed $sgpr0_sgpr1_sgpr2_sgpr3_sgpr4_sgpr5_sgpr6 killed $sgpr7
	s_buffer_load_dword s0, s[12:15], 0x10
                                        ; kill: killed $vgpr0 killed $vgpr1
                                        ; kill: killed $sgpr8_sgpr9_sgpr10 killed $sgpr11
                                        ; kill: killed $vgpr2 killed $vgpr3
	s_waitcnt vmcnt(3) lgkmcnt(0)
	v_mul_f32_e32 v0, s0, v4
	s_waitcnt vmcnt(0)
	v_add_f32_e32 v1, v6, v8
	exp mrt0 v0, v1, v5, v7 done vm
	s_endpgm
.Lfunc_end0:
	.size	ps, .Lfunc_end0-ps
                                        ; -- End function
	.set ps.num_vgpr, 9
	.set ps.num_agpr, 0
	.set ps.numbered_sgpr, 18
	.set ps.num_named_barrier, 0
	.set ps.private_seg_size, 0
	.set ps.uses_vcc, 0
	.set ps.uses_flat_scratch, 0
	.set ps.has_dyn_sized_stack, 0
	.set ps.has_recursion, 0
	.set ps.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 72
; TotalNumSgprs: 22
; NumVgprs: 9
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 0
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 2
; VGPRBlocks: 2
; NumSGPRsForWavesPerEU: 22
; NumVGPRsForWavesPerEU: 9
; Occupancy: 10
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 0
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
	.section	.AMDGPU.gpr_maximums,"",@progbits
	.set amdgpu.max_num_vgpr, 0
	.set amdgpu.max_num_agpr, 0
	.set amdgpu.max_num_sgpr, 0
	.set amdgpu.max_num_named_barrier, 0
	.section	.AMDGPU.csdata,"",@progbits
	.section	".note.GNU-stack","",@progbits
	.amd_amdgpu_isa "amdgcn-amd-amdpal--gfx900"
	.amdgpu_pal_metadata
---
amdpal.pipelines:
  - .hardware_stages:
      .ps:
        .entry_point:    _amdgpu_ps_main
        .entry_point_symbol: ps
        .scratch_memory_size: 0
        .sgpr_count:     0x16
        .vgpr_count:     0x9
    .registers:
      '0x2c0a (SPI_SHADER_PGM_RSRC1_PS)': 0x2f0082
      '0x2c0b (SPI_SHADER_PGM_RSRC2_PS)': 0
      '0xa1b3 (SPI_PS_INPUT_ENA)': 0xf
      '0xa1b4 (SPI_PS_INPUT_ADDR)': 0xf
...
	.end_amdgpu_pal_metadata
