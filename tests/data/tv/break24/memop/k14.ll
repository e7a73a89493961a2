target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @ctr(ptr addrspace(1) %a, ptr addrspace(1) %c, ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %src = getelementptr i32, ptr addrspace(1) %a, i32 %tid
  %v = load i32, ptr addrspace(1) %src, align 4
  %x = mul i32 %v, 3
  %old = atomicrmw add ptr addrspace(1) %c, i32 %x syncscope("agent") monotonic
  %s = add i32 %old, %x
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %s, ptr addrspace(1) %o
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
