target triple = "amdgcn-amd-amdhsa"
@lds = internal addrspace(3) global [256 x i32] poison
define amdgpu_kernel void @k17(i32 %x) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  store i32 %x, ptr addrspace(3) %p
  %q = getelementptr i32, ptr addrspace(3) %p, i32 64
  %v = load i32, ptr addrspace(3) %q
  %r = getelementptr i32, ptr addrspace(3) %p, i32 128
  store i32 %v, ptr addrspace(3) %r
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
