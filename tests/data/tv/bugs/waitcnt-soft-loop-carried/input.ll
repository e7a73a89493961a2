; gcnsmt's own kernel in the shape of llvm/llvm-project PR #220357: a release store inside a
; loop whose body also stores, so the previous iteration's store is still pending (vmcnt) when
; the next iteration's release store issues.
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %flag, i32 %n) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  br label %loop
loop:
  %i = phi i32 [0, %entry], [%i1, %loop]
  store atomic i32 %i, ptr addrspace(1) %flag syncscope("agent") release, align 4
  %idx = add i32 %tid, %i
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %idx
  store i32 %i, ptr addrspace(1) %q
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
