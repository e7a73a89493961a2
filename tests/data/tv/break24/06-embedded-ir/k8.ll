target triple = "amdgcn-amd-amdhsa"
@tab = internal addrspace(4) constant [4 x i32] [i32 10, i32 20, i32 30, i32 40], align 4
define amdgpu_kernel void @lut(ptr addrspace(1) %out, i32 %k) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %i = and i32 %tid, 3
  %p = getelementptr [4 x i32], ptr addrspace(4) @tab, i32 0, i32 %i
  %v = load i32, ptr addrspace(4) %p
  %s = add i32 %v, %k
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %s, ptr addrspace(1) %o
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
