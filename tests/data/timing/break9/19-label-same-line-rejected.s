	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.text
	.globl k
	.p2align 8
	.type k,@function
k:
	global_load_dword v1, v0, s[0:1]
L1: s_waitcnt vmcnt(0)
	v_add_u32_e32 v2, v1, v1
	s_endpgm
	.amdhsa_kernel k
	.amdhsa_next_free_vgpr 32
	.amdhsa_next_free_sgpr 32
	.end_amdhsa_kernel
