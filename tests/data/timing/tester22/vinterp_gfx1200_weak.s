	.amdgcn_target "amdgcn-amd-amdpal--gfx1200"
	.text
	.globl	interp                          ; -- Begin function interp
	.p2align	8
	.type	interp,@function
interp:                                 ; @interp
; %bb.0:                                ; %main_body
	s_mov_b32 s1, exec_lo
	s_wqm_b32 exec_lo, exec_lo
	s_mov_b32 m0, s0
	ds_param_load v2, attr0.x wait_va_vdst:15 wait_vm_vsrc:1
	ds_param_load v3, attr0.y wait_va_vdst:15 wait_vm_vsrc:1
	ds_param_load v4, attr1.x wait_va_vdst:15 wait_vm_vsrc:1
	ds_param_load v5, attr1.y wait_va_vdst:15 wait_vm_vsrc:1
	s_mov_b32 exec_lo, s1
	v_interp_p10_f32 v6, v2, v0, v2 wait_exp:3
	v_interp_p10_f32 v7, v3, v0, v3 wait_exp:2
	v_interp_p10_f32 v8, v4, v0, v4 wait_exp:1
	v_interp_p10_f32 v0, v5, v0, v5 wait_exp:1
	s_delay_alu instid0(VALU_DEP_4) | instskip(NEXT) | instid1(VALU_DEP_4)
	v_interp_p2_f32 v6, v2, v1, v6 wait_exp:7
	v_interp_p2_f32 v7, v3, v1, v7 wait_exp:7
	s_delay_alu instid0(VALU_DEP_4) | instskip(NEXT) | instid1(VALU_DEP_4)
	v_interp_p2_f32 v8, v4, v1, v8 wait_exp:7
	v_interp_p2_f32 v0, v5, v1, v0 wait_exp:7
	export mrt0 v6, v7, v8, v0 done
	s_endpgm
.Lfunc_end0:
	.size	interp, .Lfunc_end0-interp
                                        ; -- End function
	.set interp.num_vgpr, 9
	.set interp.num_agpr, 0
	.set interp.numbered_sgpr, 2
	.set interp.num_named_barrier, 0
	.set interp.private_seg_size, 0
	.set interp.uses_vcc, 0
	.set interp.uses_flat_scratch, 0
	.set interp.has_dyn_sized_stack, 0
	.set interp.has_recursion, 0
	.set interp.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 116
; TotalNumSgprs: 2
; NumVgprs: 9
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 0
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 0
; VGPRBlocks: 1
; NumSGPRsForWavesPerEU: 2
; NumVGPRsForWavesPerEU: 9
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
        .entry_point_symbol: interp
        .scratch_memory_size: 0
        .sgpr_count:     0x2
        .vgpr_count:     0x9
    .registers:
      '0x2c0a (SPI_SHADER_PGM_RSRC1_PS)': 0x20f0001
      '0x2c0b (SPI_SHADER_PGM_RSRC2_PS)': 0
      '0xa1b3 (SPI_PS_INPUT_ENA)': 0x3
      '0xa1b4 (SPI_PS_INPUT_ADDR)': 0x3
      '0xa1b6 (SPI_PS_IN_CONTROL)': 0x8000
...
	.end_amdgpu_pal_metadata
