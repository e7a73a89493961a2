; gfx10+ controls: row_share:5 (0x155) and row_xmask:3 (0x163).
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)

define amdgpu_kernel void @lds_row_share_add(ptr addrspace(3) %buf) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) %buf, i32 %tid
  %v = load i32, ptr addrspace(3) %p, align 4
  %nb = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %v, i32 341, i32 15, i32 15, i1 true)
  %d = add i32 %v, %nb
  store i32 %d, ptr addrspace(3) %p, align 4
  ret void
}

define amdgpu_kernel void @livein_row_xmask_xor(ptr addrspace(3) %buf) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %nb = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %tid, i32 355, i32 15, i32 15, i1 true)
  %d = xor i32 %nb, %tid
  %p = getelementptr i32, ptr addrspace(3) %buf, i32 %tid
  store i32 %d, ptr addrspace(3) %p, align 4
  ret void
}
