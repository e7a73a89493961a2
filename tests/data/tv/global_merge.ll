; gcnsmt tv kernels: GLOBAL and scalar loads that SILoadStoreOptimizer merges, next to LDS and
; buffer code. Written by hand for gcnsmt (not from LLVM's tests). On gfx802 the global
; accesses are FLAT instructions, which gcnsmt does not model (those blocks are unsupported).
@lds = addrspace(3) global [4096 x i32] undef, align 16
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8), i32, i32, i32)

; Two adjacent global loads (SADDR form) -> global_load_dwordx2; two LDS stores -> write2.
define amdgpu_kernel void @global_load_pair(ptr addrspace(1) %in) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(1) %in, i32 %tid
  %a = load i32, ptr addrspace(1) %p
  %p1 = getelementptr i32, ptr addrspace(1) %p, i32 1
  %b = load i32, ptr addrspace(1) %p1
  %q = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  store i32 %a, ptr addrspace(3) %q
  %q1 = getelementptr i32, ptr addrspace(3) %q, i32 1
  store i32 %b, ptr addrspace(3) %q1
  ret void
}

; Four adjacent global loads -> global_load_dwordx4.
define amdgpu_kernel void @global_load_quad(ptr addrspace(1) %in, ptr addrspace(1) %out) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(1) %in, i32 %tid
  %a = load i32, ptr addrspace(1) %p
  %p1 = getelementptr i32, ptr addrspace(1) %p, i32 1
  %b = load i32, ptr addrspace(1) %p1
  %p2 = getelementptr i32, ptr addrspace(1) %p, i32 2
  %c = load i32, ptr addrspace(1) %p2
  %p3 = getelementptr i32, ptr addrspace(1) %p, i32 3
  %d = load i32, ptr addrspace(1) %p3
  %s1 = add i32 %a, %b
  %s2 = add i32 %c, %d
  %s = xor i32 %s1, %s2
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %s, ptr addrspace(1) %o
  ret void
}

; Two adjacent global stores -> global_store_dwordx2.
define amdgpu_kernel void @global_store_pair(ptr addrspace(1) %out) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  %a = load i32, ptr addrspace(3) %q
  %q1 = getelementptr i32, ptr addrspace(3) %q, i32 64
  %b = load i32, ptr addrspace(3) %q1
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %a, ptr addrspace(1) %o
  %o1 = getelementptr i32, ptr addrspace(1) %o, i32 1
  store i32 %b, ptr addrspace(1) %o1
  ret void
}

; A global store between two buffer loads of the same record: they may alias, so the pass
; must not merge the loads across it.
define amdgpu_kernel void @buffer_loads_around_global_store(ptr addrspace(8) inreg %r, ptr addrspace(1) %out, i32 %o) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %a = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %r, i32 %o, i32 0, i32 0)
  %g = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %tid, ptr addrspace(1) %g
  %o4 = add i32 %o, 4
  %b = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %r, i32 %o4, i32 0, i32 0)
  %q = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  store i32 %a, ptr addrspace(3) %q
  %q1 = getelementptr i32, ptr addrspace(3) %q, i32 1
  store i32 %b, ptr addrspace(3) %q1
  ret void
}

attributes #0 = { nounwind }
