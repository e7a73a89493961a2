; Hand-written cases for `gcnsmt waitcnt` on gfx900 (vmcnt, expcnt, lgkmcnt; stores on vmcnt).
; Each kernel's expected result is worked out by hand from the counter rules in
; docs/timing.md (AMD Vega ISA "Data dependency resolution"; LLVM SIInsertWaitcnts):
;   vm_in_order:  load v1; store; vmcnt(1). vmcnt counts the load and the store in issue order,
;                 so "at most 1 pending" leaves only the store: v1 is written. No hazard.
;   smem_ooo:     two s_load; lgkmcnt(1). Scalar loads complete out of order: the second may be
;                 the one that finished, so s4 may be unwritten when read. 1 hazard (read s4).
;   lds_in_order: two ds_read; lgkmcnt(1). LDS returns in order: the first has finished.
;                 No hazard.
;   lgkm_mixed:   ds_read v1; s_load s4; lgkmcnt(1). The s_load may finish first and leave the
;                 ds_read pending. 1 hazard (read v1).
;   same_kind_waw: two global loads to v1 then vmcnt(0): the later one lands last (in order),
;                 no hazard; then a third load to v1 and a v_mov to v1 with no wait: the load
;                 may land after the v_mov. 1 hazard (overwrite v1).
;   redundant:    load v1; vmcnt(0); vmcnt(0); read v1. The second wait completes nothing:
;                 1 redundant wait (information), no hazard.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.text
	.type	vm_in_order,@function
vm_in_order:
	global_load_dword v1, v0, s[0:1]
	global_store_dword v0, v2, s[0:1]
	s_waitcnt vmcnt(1)
	v_add_u32_e32 v3, v1, v1
	s_endpgm
.Lfunc_end0:
	.type	smem_ooo,@function
smem_ooo:
	s_load_dword s4, s[0:1], 0x0
	s_load_dword s5, s[0:1], 0x4
	s_waitcnt lgkmcnt(1)
	s_add_u32 s6, s4, 1
	s_endpgm
.Lfunc_end1:
	.type	lds_in_order,@function
lds_in_order:
	ds_read_b32 v1, v0
	ds_read_b32 v2, v0 offset:4
	s_waitcnt lgkmcnt(1)
	v_mov_b32_e32 v3, v1
	s_endpgm
.Lfunc_end2:
	.type	lgkm_mixed,@function
lgkm_mixed:
	ds_read_b32 v1, v0
	s_load_dword s4, s[0:1], 0x0
	s_waitcnt lgkmcnt(1)
	v_mov_b32_e32 v3, v1
	s_endpgm
.Lfunc_end3:
	.type	same_kind_waw,@function
same_kind_waw:
	global_load_dword v1, v0, s[0:1]
	global_load_dword v1, v0, s[0:1] offset:4
	s_waitcnt vmcnt(0)
	v_mov_b32_e32 v3, v1
	global_load_dword v1, v0, s[0:1] offset:8
	v_mov_b32_e32 v1, 0
	s_endpgm
.Lfunc_end4:
	.type	redundant,@function
redundant:
	global_load_dword v1, v0, s[0:1]
	s_waitcnt vmcnt(0)
	s_waitcnt vmcnt(0)
	v_mov_b32_e32 v3, v1
	s_endpgm
.Lfunc_end5:
	.amdhsa_kernel vm_in_order
	.end_amdhsa_kernel
	.amdhsa_kernel smem_ooo
	.end_amdhsa_kernel
	.amdhsa_kernel lds_in_order
	.end_amdhsa_kernel
	.amdhsa_kernel lgkm_mixed
	.end_amdhsa_kernel
	.amdhsa_kernel same_kind_waw
	.end_amdhsa_kernel
	.amdhsa_kernel redundant
	.end_amdhsa_kernel
