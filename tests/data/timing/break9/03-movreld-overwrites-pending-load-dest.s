	.amdgcn_target "amdgcn-amd-amdhsa--gfx1030"
	.text
	.globl k
	.p2align 8
	.type k,@function
k:
	s_mov_b32 m0, 4
	global_load_dword v5, v0, s[0:1]
	v_movreld_b32_e32 v1, v2
	s_waitcnt vmcnt(0)
	v_add_nc_u32_e32 v3, v5, v5
	s_endpgm
	.amdhsa_kernel k
	.amdhsa_next_free_vgpr 32
	.amdhsa_next_free_sgpr 32
	.end_amdhsa_kernel
