declare i32 @llvm.amdgcn.workitem.id.x()
define void @callee(ptr addrspace(1) %p, i32 %v) {
  store i32 %v, ptr addrspace(1) %p
  ret void
}
define amdgpu_kernel void @k5(ptr addrspace(1) %a, ptr addrspace(1) %f) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr i32, ptr addrspace(1) %a, i32 %tid
  %v = load i32, ptr addrspace(1) %pa
  call void @callee(ptr addrspace(1) %f, i32 %v)
  ret void
}
