; Hand-written cases for gfx1100 (RDNA 3): stores count on vscnt, not vmcnt.
;   split:       load v1; store; vmcnt(1). vmcnt counts only the load (the store is on vscnt),
;                so "at most 1 pending" is met with the load pending. 1 hazard (read v1).
;   vscnt_only:  load v1; s_waitcnt_vscnt null, 0x0; read v1. A store-counter wait does not
;                complete a load. 1 hazard (read v1).
;   both:        load v1; store; vmcnt(0); vscnt 0; read v1. No hazard.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
	.text
	.type	split,@function
split:
	global_load_b32 v1, v0, s[0:1]
	global_store_b32 v0, v2, s[0:1]
	s_waitcnt vmcnt(1)
	v_add_nc_u32_e32 v3, v1, v1
	s_endpgm
.Lfunc_end0:
	.type	vscnt_only,@function
vscnt_only:
	global_load_b32 v1, v0, s[0:1]
	s_waitcnt_vscnt null, 0x0
	v_add_nc_u32_e32 v3, v1, v1
	s_endpgm
.Lfunc_end1:
	.type	both,@function
both:
	global_load_b32 v1, v0, s[0:1]
	global_store_b32 v0, v2, s[0:1]
	s_waitcnt vmcnt(0)
	s_waitcnt_vscnt null, 0x0
	v_add_nc_u32_e32 v3, v1, v1
	s_endpgm
.Lfunc_end2:
	.amdhsa_kernel split
	.end_amdhsa_kernel
	.amdhsa_kernel vscnt_only
	.end_amdhsa_kernel
	.amdhsa_kernel both
	.end_amdhsa_kernel
