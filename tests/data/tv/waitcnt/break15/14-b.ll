define amdgpu_kernel void @k(ptr addrspace(1) %p, ptr addrspace(1) %q) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %a = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  store i32 1, ptr addrspace(1) %a
  call void @llvm.amdgcn.s.barrier()
  %b = getelementptr i32, ptr addrspace(1) %q, i32 %tid
  store i32 2, ptr addrspace(1) %b
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()
