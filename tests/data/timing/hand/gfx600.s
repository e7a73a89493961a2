; Hand-written cases for gfx600 (Southern Islands): a buffer store holds its data VGPRs until
; expcnt says they were read (LLVM vmemWriteNeedsExpWaitcnt: generation < SEA_ISLANDS).
;   store_data:  buffer_store v1; v_mov v1. The store may not have read v1 yet.
;                1 hazard (overwrite-source v1).
;   store_wait:  the same with s_waitcnt expcnt(0) first. No hazard.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx600"
	.text
	.type	store_data,@function
store_data:
	buffer_store_dword v1, off, s[0:3], 0
	v_mov_b32_e32 v1, 0
	s_endpgm
.Lfunc_end0:
	.type	store_wait,@function
store_wait:
	buffer_store_dword v1, off, s[0:3], 0
	s_waitcnt expcnt(0)
	v_mov_b32_e32 v1, 0
	s_endpgm
.Lfunc_end1:
	.amdhsa_kernel store_data
	.end_amdhsa_kernel
	.amdhsa_kernel store_wait
	.end_amdhsa_kernel
