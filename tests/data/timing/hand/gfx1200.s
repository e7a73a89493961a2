; Hand-written cases for gfx1200 (RDNA 4): split counters.
;   load_ds:     global load v1; ds_load v2; s_wait_loadcnt_dscnt 0x0001 (loadcnt 0, dscnt 1):
;                the load is complete, the LDS load may be pending. Reading v1 is fine;
;                reading v2 is 1 hazard (read v2, dscnt).
;   kmcnt:       s_load s4; s_wait_loadcnt 0x0; read s4. A loadcnt wait does not cover scalar
;                loads (kmcnt). 1 hazard (read s4).
;   loop:        a loop whose body loads v1 and waits loadcnt 0 before the back edge; the use
;                after the loop is covered. No hazard.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1200"
	.text
	.type	load_ds,@function
load_ds:
	global_load_b32 v1, v0, s[0:1]
	ds_load_b32 v2, v0
	s_wait_loadcnt_dscnt 0x1
	v_mov_b32_e32 v3, v1
	v_mov_b32_e32 v4, v2
	s_endpgm
.Lfunc_end0:
	.type	kmcnt,@function
kmcnt:
	s_load_b32 s4, s[0:1], 0x0
	s_wait_loadcnt 0x0
	s_add_co_u32 s5, s4, 1
	s_endpgm
.Lfunc_end1:
	.type	loop,@function
loop:
	s_mov_b32 s2, 0
.LBB2_1:
	global_load_b32 v1, v0, s[0:1]
	s_add_co_i32 s2, s2, 1
	s_cmp_lt_i32 s2, 8
	s_wait_loadcnt 0x0
	s_cbranch_scc1 .LBB2_1
	v_mov_b32_e32 v3, v1
	s_endpgm
.Lfunc_end2:
	.amdhsa_kernel load_ds
	.end_amdhsa_kernel
	.amdhsa_kernel kmcnt
	.end_amdhsa_kernel
	.amdhsa_kernel loop
	.end_amdhsa_kernel
