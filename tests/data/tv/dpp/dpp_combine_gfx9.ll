; gfx9-only controls (wave_shl:1 and row_bcast:15 do not exist from gfx10 on).
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)

define amdgpu_kernel void @lds_wave_shl_add(ptr addrspace(3) %buf) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) %buf, i32 %tid
  %v = load i32, ptr addrspace(3) %p, align 4
  %nb = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %v, i32 304, i32 15, i32 15, i1 true)
  %d = add i32 %v, %nb
  store i32 %d, ptr addrspace(3) %p, align 4
  ret void
}

define amdgpu_kernel void @lds_row_bcast15_and(ptr addrspace(3) %buf) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) %buf, i32 %tid
  %v = load i32, ptr addrspace(3) %p, align 4
  %nb = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %v, i32 322, i32 15, i32 15, i1 true)
  %d = and i32 %v, %nb
  store i32 %d, ptr addrspace(3) %p, align 4
  ret void
}
