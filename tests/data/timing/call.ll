define i32 @dev(ptr addrspace(1) %p, ptr addrspace(3) %l) noinline {
  %v = load i32, ptr addrspace(1) %p
  %w = load i32, ptr addrspace(3) %l
  %s = add i32 %v, %w
  ret i32 %s
}
define amdgpu_kernel void @caller(ptr addrspace(1) %out, ptr addrspace(1) %in, ptr addrspace(3) %l) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(1) %in, i32 %tid
  %x = load i32, ptr addrspace(1) %p
  %r = call i32 @dev(ptr addrspace(1) %p, ptr addrspace(3) %l)
  %s = add i32 %r, %x
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %s, ptr addrspace(1) %o
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
