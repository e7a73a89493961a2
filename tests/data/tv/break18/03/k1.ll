target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @k1(ptr addrspace(1) %out, ptr addrspace(1) %in, ptr addrspace(4) %c, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %c0 = load i32, ptr addrspace(4) %c, align 4, !invariant.load !0
  %cp1 = getelementptr i32, ptr addrspace(4) %c, i32 1
  %c1 = load i32, ptr addrspace(4) %cp1, align 4
  %s = add i32 %c0, %c1
  %p = getelementptr i32, ptr addrspace(1) %in, i32 %tid
  %a = load i32, ptr addrspace(1) %p, align 4
  %p1 = getelementptr i32, ptr addrspace(1) %p, i32 1
  %b = load i32, ptr addrspace(1) %p1, align 4
  %x = add i32 %a, %b
  %y = add i32 %x, %s
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %y, ptr addrspace(1) %q, align 4
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
attributes #0 = { "target-cpu"="gfx900" }
!0 = !{}
