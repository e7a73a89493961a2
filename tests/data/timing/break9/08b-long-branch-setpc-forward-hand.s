	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.text
	.globl k
	.p2align 8
	.type k,@function
k:
	v_mov_b32_e32 v1, 0
	global_load_dword v2, v1, s[0:1]
	s_getpc_b64 s[6:7]
.Lpost_getpc0:
	s_add_u32 s6, s6, (.LBB0_2-.Lpost_getpc0)&4294967295
	s_addc_u32 s7, s7, (.LBB0_2-.Lpost_getpc0)>>32
	s_setpc_b64 s[6:7]
.LBB0_1:
	s_waitcnt vmcnt(0)
	s_endpgm
.LBB0_2:
	v_add_u32_e32 v3, v2, v2
	global_store_dword v1, v3, s[2:3]
	s_endpgm
	.amdhsa_kernel k
	.amdhsa_next_free_vgpr 32
	.amdhsa_next_free_sgpr 32
	.end_amdhsa_kernel
