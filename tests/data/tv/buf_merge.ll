; gcnsmt tv kernels: buffer accesses that SILoadStoreOptimizer merges (or must not).
; Written for gcnsmt (not from LLVM's tests) by scripts/tv-kernels.py. amdgpu_ps functions
; take the V# in SGPRs and the offset in a VGPR, so each function is one block of MUBUF and
; VALU code.
declare i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8), i32, i32, i32)
declare void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32, ptr addrspace(8), i32, i32, i32)

define amdgpu_ps void @buf_load_x2_offen(ptr addrspace(8) inreg %r, i32 %o, i32 inreg %so) {
  %v0 = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %r, i32 %o, i32 0, i32 0)
  %o1 = add i32 %o, 4
  %v1 = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %r, i32 %o1, i32 0, i32 0)
  %a1 = add i32 %v0, %v1
  call void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32 %a1, ptr addrspace(8) %r, i32 %o, i32 0, i32 0)
  ret void
}

define amdgpu_ps void @buf_load_x3_offen(ptr addrspace(8) inreg %r, i32 %o, i32 inreg %so) {
  %v0 = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %r, i32 %o, i32 0, i32 0)
  %o1 = add i32 %o, 4
  %v1 = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %r, i32 %o1, i32 0, i32 0)
  %o2 = add i32 %o, 8
  %v2 = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %r, i32 %o2, i32 0, i32 0)
  %a1 = add i32 %v0, %v1
  %a2 = add i32 %a1, %v2
  call void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32 %a2, ptr addrspace(8) %r, i32 %o, i32 0, i32 0)
  ret void
}

define amdgpu_ps void @buf_load_x4_offen(ptr addrspace(8) inreg %r, i32 %o, i32 inreg %so) {
  %v0 = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %r, i32 %o, i32 0, i32 0)
  %o1 = add i32 %o, 4
  %v1 = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %r, i32 %o1, i32 0, i32 0)
  %o2 = add i32 %o, 8
  %v2 = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %r, i32 %o2, i32 0, i32 0)
  %o3 = add i32 %o, 12
  %v3 = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %r, i32 %o3, i32 0, i32 0)
  %a1 = add i32 %v0, %v1
  %a2 = add i32 %a1, %v2
  %a3 = add i32 %a2, %v3
  call void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32 %a3, ptr addrspace(8) %r, i32 %o, i32 0, i32 0)
  ret void
}

define amdgpu_ps void @buf_load_x2_offset_imm(ptr addrspace(8) inreg %r, i32 %o, i32 inreg %so) {
  %v0 = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %r, i32 16, i32 0, i32 0)
  %v1 = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %r, i32 20, i32 0, i32 0)
  %a1 = add i32 %v0, %v1
  call void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32 %a1, ptr addrspace(8) %r, i32 %o, i32 0, i32 0)
  ret void
}

define amdgpu_ps void @buf_load_x2_soffset(ptr addrspace(8) inreg %r, i32 %o, i32 inreg %so) {
  %v0 = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %r, i32 %o, i32 %so, i32 0)
  %o1 = add i32 %o, 4
  %v1 = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %r, i32 %o1, i32 %so, i32 0)
  %a1 = add i32 %v0, %v1
  call void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32 %a1, ptr addrspace(8) %r, i32 %o, i32 0, i32 0)
  ret void
}

define amdgpu_ps void @buf_load_x2_base_offset(ptr addrspace(8) inreg %r, i32 %o, i32 inreg %so) {
  %o0 = add i32 %o, 64
  %v0 = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %r, i32 %o0, i32 0, i32 0)
  %o1 = add i32 %o, 68
  %v1 = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %r, i32 %o1, i32 0, i32 0)
  %a1 = add i32 %v0, %v1
  call void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32 %a1, ptr addrspace(8) %r, i32 %o, i32 0, i32 0)
  ret void
}

define amdgpu_ps void @buf_store_x2_offen(ptr addrspace(8) inreg %r, i32 %o, i32 inreg %so) {
  call void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32 %o, ptr addrspace(8) %r, i32 %o, i32 0, i32 0)
  %w1 = add i32 %o, 4
  call void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32 %so, ptr addrspace(8) %r, i32 %w1, i32 0, i32 0)
  ret void
}

define amdgpu_ps void @buf_store_x4_offen(ptr addrspace(8) inreg %r, i32 %o, i32 inreg %so) {
  call void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32 %o, ptr addrspace(8) %r, i32 %o, i32 0, i32 0)
  %w1 = add i32 %o, 4
  call void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32 %so, ptr addrspace(8) %r, i32 %w1, i32 0, i32 0)
  %w2 = add i32 %o, 8
  call void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32 7, ptr addrspace(8) %r, i32 %w2, i32 0, i32 0)
  %w3 = add i32 %o, 12
  call void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32 %o, ptr addrspace(8) %r, i32 %w3, i32 0, i32 0)
  ret void
}

define amdgpu_ps void @buf_store_x2_offset_imm(ptr addrspace(8) inreg %r, i32 %o, i32 inreg %so) {
  call void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32 %o, ptr addrspace(8) %r, i32 8, i32 0, i32 0)
  call void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32 %so, ptr addrspace(8) %r, i32 12, i32 0, i32 0)
  ret void
}

define amdgpu_ps void @buf_load_across_aliasing_store(ptr addrspace(8) inreg %r, i32 %o, i32 inreg %so) {
  %v0 = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %r, i32 %o, i32 0, i32 0)
  %w5 = add i32 %o, 4
  call void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32 %so, ptr addrspace(8) %r, i32 %w5, i32 0, i32 0)
  %o1 = add i32 %o, 4
  %v1 = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %r, i32 %o1, i32 0, i32 0)
  %a1 = add i32 %v0, %v1
  call void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32 %a1, ptr addrspace(8) %r, i32 %o, i32 0, i32 0)
  ret void
}

define amdgpu_ps void @buf_load_across_disjoint_store(ptr addrspace(8) inreg %r, i32 %o, i32 inreg %so) {
  %v0 = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %r, i32 %o, i32 0, i32 0)
  %w5 = add i32 %o, 8
  call void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32 %so, ptr addrspace(8) %r, i32 %w5, i32 0, i32 0)
  %o1 = add i32 %o, 4
  %v1 = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %r, i32 %o1, i32 0, i32 0)
  %a = add i32 %v0, %v1
  %w6 = add i32 %o, 12
  call void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32 %a, ptr addrspace(8) %r, i32 %w6, i32 0, i32 0)
  ret void
}

define amdgpu_ps void @buf_load_x2_reversed(ptr addrspace(8) inreg %r, i32 %o, i32 inreg %so) {
  %o0 = add i32 %o, 4
  %v0 = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %r, i32 %o0, i32 0, i32 0)
  %v1 = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %r, i32 %o, i32 0, i32 0)
  %a1 = add i32 %v0, %v1
  call void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32 %a1, ptr addrspace(8) %r, i32 %o, i32 0, i32 0)
  ret void
}

define amdgpu_ps void @buf_store_then_load_x2(ptr addrspace(8) inreg %r, i32 %o, i32 inreg %so) {
  call void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32 %so, ptr addrspace(8) %r, i32 %o, i32 0, i32 0)
  %w1 = add i32 %o, 4
  call void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32 %o, ptr addrspace(8) %r, i32 %w1, i32 0, i32 0)
  %o2 = add i32 %o, 8
  %v2 = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %r, i32 %o2, i32 0, i32 0)
  %o3 = add i32 %o, 12
  %v3 = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %r, i32 %o3, i32 0, i32 0)
  %a = add i32 %v2, %v3
  %w4 = add i32 %o, 16
  call void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32 %a, ptr addrspace(8) %r, i32 %w4, i32 0, i32 0)
  ret void
}
