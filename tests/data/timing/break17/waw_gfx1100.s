	.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
	.text
	.globl waw
	.type waw,@function
waw:
	s_load_b128 s[0:3], s[4:5], 0x0
	v_mov_b32_e32 v0, 0
	s_waitcnt lgkmcnt(0)
	global_load_b32 v1, v0, s[0:1]
	global_load_b32 v1, v0, s[0:1] offset:4
	s_waitcnt vmcnt(0)
	global_store_b32 v0, v1, s[2:3]
	s_endpgm
.Lend:
	.size waw, .Lend-waw
	.amdhsa_kernel waw
		.amdhsa_next_free_vgpr 8
		.amdhsa_next_free_sgpr 8
	.end_amdhsa_kernel
