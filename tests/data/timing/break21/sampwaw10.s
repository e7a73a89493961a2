	.amdgcn_target "amdgcn-amd-amdhsa--gfx1030"
	.text
	.globl k
	.p2align 8
	.type k,@function
k:
	image_sample v[0:3], v[4:5], s[8:15], s[16:19] dmask:0xf
	buffer_load_dword v0, v7, s[20:23], 0 offen
	s_waitcnt vmcnt(0)
	v_mov_b32 v9, v0
	s_endpgm
.Lfunc_end0:
	.size k, .Lfunc_end0-k
	.rodata
	.p2align 6
	.amdhsa_kernel k
		.amdhsa_next_free_vgpr 32
		.amdhsa_next_free_sgpr 32
	.end_amdhsa_kernel
