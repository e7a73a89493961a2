; Acquire fences then a workgroup barrier, at workgroup and at agent scope: the memory
; legalizer emits a cache invalidate for the acquire (buffer_wbinvl1_vol, buffer_gl0_inv,
; global_inv), which may still be pending at s_barrier. load_acquire_barrier pairs the fence
; with a monotonic atomic load, whose wait must come before the invalidate.
define amdgpu_kernel void @acquire_wg_barrier(ptr addrspace(1) %p, ptr addrspace(1) %q) {
  %v = load i32, ptr addrspace(1) %p
  fence syncscope("workgroup") acquire
  call void @llvm.amdgcn.s.barrier()
  %w = load i32, ptr addrspace(1) %q
  %s = add i32 %v, %w
  store i32 %s, ptr addrspace(1) %p
  ret void
}
define amdgpu_kernel void @acquire_agent_barrier(ptr addrspace(1) %p, ptr addrspace(1) %q) {
  %v = load i32, ptr addrspace(1) %p
  fence syncscope("agent") acquire
  call void @llvm.amdgcn.s.barrier()
  %w = load i32, ptr addrspace(1) %q
  %s = add i32 %v, %w
  store i32 %s, ptr addrspace(1) %p
  ret void
}
define amdgpu_kernel void @release_acquire_agent_barrier(ptr addrspace(1) %p, ptr addrspace(1) %q) {
  store i32 1, ptr addrspace(1) %q
  fence syncscope("agent") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("agent") acquire
  %w = load i32, ptr addrspace(1) %q
  store i32 %w, ptr addrspace(1) %p
  ret void
}
define amdgpu_kernel void @load_acquire_barrier(ptr addrspace(1) %p, ptr addrspace(1) %q, ptr addrspace(1) %out) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %pp = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %v = load atomic i32, ptr addrspace(1) %pp syncscope("agent") monotonic, align 4
  fence syncscope("agent") acquire
  call void @llvm.amdgcn.s.barrier()
  %qq = getelementptr i32, ptr addrspace(1) %q, i32 %tid
  %w = load i32, ptr addrspace(1) %qq
  %s = add i32 %v, %w
  %oo = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %s, ptr addrspace(1) %oo
  ret void
}
declare void @llvm.amdgcn.s.barrier()
declare i32 @llvm.amdgcn.workitem.id.x()
