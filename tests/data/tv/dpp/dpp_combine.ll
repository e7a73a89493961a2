; Our own kernels for gcn-dpp-combine (tests/data/tv/dpp/README.md). Each folds a DPP move into
; the add/or/and/xor/sub that uses it; llc-22's fold is correct for all of them.
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
declare i32 @llvm.amdgcn.mov.dpp.i32(i32, i32, i32, i32, i1)

; LDS source, quad_perm:[1,0,3,2], bound_ctrl: lane's value plus its quad neighbour's.
define amdgpu_kernel void @lds_quad_add(ptr addrspace(3) %buf) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) %buf, i32 %tid
  %v = load i32, ptr addrspace(3) %p, align 4
  %nb = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %v, i32 177, i32 15, i32 15, i1 true)
  %d = add i32 %v, %nb
  store i32 %d, ptr addrspace(3) %p, align 4
  ret void
}

; LDS source, row_shr:1 without bound_ctrl and old = 0 (the identity of add): the fold keeps
; the lanes without a neighbour at src1.
define amdgpu_kernel void @lds_row_shr_add(ptr addrspace(3) %buf) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) %buf, i32 %tid
  %v = load i32, ptr addrspace(3) %p, align 4
  %nb = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %v, i32 273, i32 15, i32 15, i1 false)
  %d = add i32 %v, %nb
  store i32 %d, ptr addrspace(3) %p, align 4
  ret void
}

; Live-in VGPR source (the work-item id), row_ror:3, or.
define amdgpu_kernel void @livein_row_ror_or(ptr addrspace(3) %buf) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %nb = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %tid, i32 291, i32 15, i32 15, i1 true)
  %d = or i32 %tid, %nb
  %p = getelementptr i32, ptr addrspace(3) %buf, i32 %tid
  store i32 %d, ptr addrspace(3) %p, align 4
  ret void
}

; LDS source, row_mirror, xor.
define amdgpu_kernel void @lds_mirror_xor(ptr addrspace(3) %buf) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) %buf, i32 %tid
  %v = load i32, ptr addrspace(3) %p, align 4
  %nb = call i32 @llvm.amdgcn.mov.dpp.i32(i32 %v, i32 320, i32 15, i32 15, i1 true)
  %d = xor i32 %nb, %v
  store i32 %d, ptr addrspace(3) %p, align 4
  ret void
}

; Global source, row_shl:2, and; the DPP value is src0 of the sub.
define amdgpu_kernel void @global_row_shl_sub(ptr addrspace(1) %buf) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(1) %buf, i32 %tid
  %v = load i32, ptr addrspace(1) %p, align 4
  %nb = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %v, i32 258, i32 15, i32 15, i1 true)
  %d = sub i32 %nb, %v
  store i32 %d, ptr addrspace(1) %p, align 4
  ret void
}
