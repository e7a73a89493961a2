target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @ifc(ptr addrspace(1) %out, ptr addrspace(1) %in) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(1) %in, i32 %tid
  %a = load i32, ptr addrspace(1) %p, align 4
  %c = icmp slt i32 %tid, %a
  br i1 %c, label %then, label %exit
then:
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %a, ptr addrspace(1) %q, align 4
  br label %exit
exit:
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
