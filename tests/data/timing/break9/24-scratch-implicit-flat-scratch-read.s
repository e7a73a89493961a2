	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.text
	.globl k
	.p2align 8
	.type k,@function
k:
	s_load_dwordx2 flat_scratch, s[0:1], 0x0
	scratch_load_dword v1, off, s4
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_endpgm
	.amdhsa_kernel k
	.amdhsa_next_free_vgpr 32
	.amdhsa_next_free_sgpr 32
	.end_amdhsa_kernel
