; Our own reproducer for si-memory-legalizer (gcnsmt bug corpus): an
; agent-scope acquire load on gfx10. After the load the legalizer must
; invalidate the L1 (GL1) before the per-CU L0 (GL0).
define amdgpu_kernel void @acquire_load_agent(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %v = load atomic i32, ptr addrspace(1) %in syncscope("agent") acquire, align 4
  store i32 %v, ptr addrspace(1) %out
  ret void
}
