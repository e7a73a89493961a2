define amdgpu_kernel void @k(ptr addrspace(1) %p, ptr addrspace(1) %flag) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  store i32 1, ptr addrspace(1) %q
  call void @llvm.amdgcn.s.waitcnt(i32 0)
  store atomic i32 1, ptr addrspace(1) %flag monotonic, align 4
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.waitcnt(i32)
