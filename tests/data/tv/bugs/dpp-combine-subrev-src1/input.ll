; Our own kernel: a lane subtracts its quad neighbour's value from its own.
define amdgpu_kernel void @dpp_sub_rev(ptr addrspace(3) %buf, i32 %old) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) %buf, i32 %tid
  %v = load i32, ptr addrspace(3) %p, align 4
  %nb = call i32 @llvm.amdgcn.update.dpp.i32(i32 %old, i32 %v, i32 1, i32 15, i32 15, i1 true)
  %d = sub i32 %v, %nb
  store i32 %d, ptr addrspace(3) %p, align 4
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
attributes #0 = { "target-cpu"="gfx900" }
