@lds = addrspace(3) global [64 x i32] poison
declare void @g(ptr addrspace(1))
define amdgpu_kernel void @k(ptr addrspace(1) %p) {
  call void @g(ptr addrspace(1) %p)
  %v = load i32, ptr addrspace(1) %p
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr [64 x i32], ptr addrspace(3) @lds, i32 0, i32 %tid
  store i32 %v, ptr addrspace(3) %q
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
