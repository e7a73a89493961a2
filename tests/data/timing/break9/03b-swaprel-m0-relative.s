	.amdgcn_target "amdgcn-amd-amdhsa--gfx1030"
	.text
	.globl k
	.p2align 8
	.type k,@function
k:
	s_mov_b32 m0, 4
	global_load_dword v5, v0, s[0:1]
	v_swaprel_b32 v1, v2
	s_waitcnt vmcnt(0)
	s_endpgm
	.amdhsa_kernel k
	.amdhsa_next_free_vgpr 32
	.amdhsa_next_free_sgpr 32
	.end_amdhsa_kernel
