	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.text
	.globl k
	.p2align 8
	.type k,@function
k:
	s_load_dwordx2 vcc, s[0:1], 0x0
	v_div_fmas_f32 v0, v1, v2, v3
	s_waitcnt lgkmcnt(0)
	s_endpgm
	.amdhsa_kernel k
	.amdhsa_next_free_vgpr 32
	.amdhsa_next_free_sgpr 32
	.end_amdhsa_kernel
