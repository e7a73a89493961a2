	.amdgcn_target "amdgcn-amd-amdhsa--gfx1200"
	.text
	.globl k
	.p2align 8
	.type k,@function
k:
	ds_bvh_stack_push8_pop1_rtn_b32 v0, v2, v3, v[4:11]
	v_mov_b32 v12, v2
	s_endpgm
.Lfunc_end0:
	.size k, .Lfunc_end0-k
	.rodata
	.p2align 6
	.amdhsa_kernel k
		.amdhsa_next_free_vgpr 32
		.amdhsa_next_free_sgpr 32
	.end_amdhsa_kernel
