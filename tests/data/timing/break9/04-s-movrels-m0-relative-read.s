	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.text
	.globl k
	.p2align 8
	.type k,@function
k:
	s_load_dword s5, s[0:1], 0x0
	s_mov_b32 m0, 4
	s_movrels_b32 s2, s1
	s_waitcnt lgkmcnt(0)
	s_endpgm
	.amdhsa_kernel k
	.amdhsa_next_free_vgpr 32
	.amdhsa_next_free_sgpr 32
	.end_amdhsa_kernel
