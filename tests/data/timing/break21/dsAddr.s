	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.text
	.globl k
	.p2align 8
	.type k,@function
k:
	ds_read_b32 v0, v2
	ds_read_b32 v0, v0
	s_waitcnt lgkmcnt(0)
	v_mov_b32 v5, v0
	s_endpgm
.Lfunc_end0:
	.size k, .Lfunc_end0-k
	.rodata
	.p2align 6
	.amdhsa_kernel k
		.amdhsa_next_free_vgpr 32
		.amdhsa_next_free_sgpr 32
	.end_amdhsa_kernel
