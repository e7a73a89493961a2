target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @fif(ptr addrspace(1) %out, ptr addrspace(1) %in, ptr addrspace(1) %in2) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr float, ptr addrspace(1) %in, i32 %tid
  %a = load float, ptr addrspace(1) %p, align 4
  %p2 = getelementptr float, ptr addrspace(1) %in2, i32 %tid
  %b = load float, ptr addrspace(1) %p2, align 4
  %c = fcmp olt float %a, %b
  br i1 %c, label %then, label %exit
then:
  %q = getelementptr float, ptr addrspace(1) %out, i32 %tid
  store float %a, ptr addrspace(1) %q, align 4
  br label %exit
exit:
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
