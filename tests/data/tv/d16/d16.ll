target triple = "amdgcn-amd-amdhsa"
@lds = internal addrspace(3) global [64 x i16] poison
define amdgpu_kernel void @k(ptr addrspace(1) %out, i32 %a, i32 %b) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i16, ptr addrspace(3) @lds, i32 %id
  %x = load i16, ptr addrspace(3) %p
  %q = getelementptr i16, ptr addrspace(3) %p, i32 2
  %y = load i16, ptr addrspace(3) %q
  %v0 = insertelement <2 x i16> poison, i16 %x, i32 0
  %v1 = insertelement <2 x i16> %v0, i16 %y, i32 1
  %o = getelementptr <2 x i16>, ptr addrspace(1) %out, i32 %id
  store <2 x i16> %v1, ptr addrspace(1) %o
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
