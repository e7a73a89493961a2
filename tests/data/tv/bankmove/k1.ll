target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %in, float %a, float %b, i32 %n) {
entry:
  %s = fadd float %a, %b
  %i = fptosi float %s to i32
  %j = shl i32 %i, 2
  %k = add i32 %j, %n
  %m = mul i32 %k, 3
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %idx = add i32 %tid, %m
  %p = getelementptr i32, ptr addrspace(1) %in, i32 %idx
  %v = load i32, ptr addrspace(1) %p
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %v, ptr addrspace(1) %q
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
