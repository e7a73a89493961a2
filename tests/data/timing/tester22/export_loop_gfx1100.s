	.amdgcn_target "amdgcn-amd-amdpal--gfx1100"
	.text
	.globl	export_loop                     ; -- Begin function export_loop
	.p2align	8
	.type	export_loop,@function
export_loop:                            ; @export_loop
; %bb.0:                                ; %entry
	s_mov_b32 s1, 0
.LBB0_1:                                ; %loop
                                        ; =>This Inner Loop Header: Depth=1
	exp mrt0 v0, off, off, off
	s_waitcnt expcnt(0)
	v_mul_f32_e32 v0, v0, v1
	s_add_i32 s1, s1, 1
	s_delay_alu instid0(SALU_CYCLE_1)
	s_cmp_lt_u32 s1, s0
	s_cbranch_scc1 .LBB0_1
; %bb.2:                                ; %done
	exp mrt0 v0, off, off, off done
	s_endpgm
.Lfunc_end0:
	.size	export_loop, .Lfunc_end0-export_loop
                                        ; -- End function
	.set export_loop.num_vgpr, 2
	.set export_loop.num_agpr, 0
	.set export_loop.numbered_sgpr, 2
	.set export_loop.num_named_barrier, 0
	.set export_loop.private_seg_size, 0
	.set export_loop.uses_vcc, 0
	.set export_loop.uses_flat_scratch, 0
	.set export_loop.has_dyn_sized_stack, 0
	.set export_loop.has_recursion, 0
	.set export_loop.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 48
; TotalNumSgprs: 2
; NumVgprs: 2
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 0
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 0
; VGPRBlocks: 0
; NumSGPRsForWavesPerEU: 2
; NumVGPRsForWavesPerEU: 2
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
        .entry_point_symbol: export_loop
        .scratch_memory_size: 0
        .sgpr_count:     0x2
        .vgpr_count:     0x2
    .registers:
      '0x2c0a (SPI_SHADER_PGM_RSRC1_PS)': 0x22f0000
      '0x2c0b (SPI_SHADER_PGM_RSRC2_PS)': 0
      '0xa1b3 (SPI_PS_INPUT_ENA)': 0x3
      '0xa1b4 (SPI_PS_INPUT_ADDR)': 0x3
      '0xa1b6 (SPI_PS_IN_CONTROL)': 0x8000
...
	.end_amdgpu_pal_metadata
