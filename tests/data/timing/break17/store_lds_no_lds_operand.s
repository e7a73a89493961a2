	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
	.globl k1
	.type k1,@function
k1:
	s_mov_b32 m0, 0
	buffer_store_lds_dword s[0:3], 0
	ds_write_b32 v1, v2
	s_endpgm
.Lend1:
	.size k1, .Lend1-k1
	.amdhsa_kernel k1
		.amdhsa_next_free_vgpr 8
		.amdhsa_next_free_sgpr 8
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
