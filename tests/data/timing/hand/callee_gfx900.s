; A callable function (not a kernel) on gfx900: LLVM's convention makes every callee wait for
; all counters at entry and before it returns (SIInsertWaitcnts callWaitsOnFunctionEntry /
; callWaitsOnFunctionReturn), and callers rely on it.
;   no_entry_wait:  its first instruction reads v0 and writes v1 before any wait. The caller
;                   may have left one access pending per counter: on vmcnt and lgkmcnt a load
;                   into any register, on expcnt an LDS parameter load into any register and an
;                   export still reading any register. So: read v0 on vmcnt, expcnt and
;                   lgkmcnt (3 hazards) and overwrite of a held source on expcnt (1): 4 hazards.
;   returns_pending: waits at entry, loads v1 and returns without a wait: 1 return-pending.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.text
	.type	no_entry_wait,@function
no_entry_wait:
	v_add_u32_e32 v1, v0, v0
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
	s_setpc_b64 s[30:31]
.Lfunc_end0:
	.type	returns_pending,@function
returns_pending:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
	global_load_dword v1, v0, s[4:5]
	s_setpc_b64 s[30:31]
.Lfunc_end1:
