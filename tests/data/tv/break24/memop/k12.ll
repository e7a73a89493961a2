target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @alias(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %out, i32 %n) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %src = getelementptr i32, ptr addrspace(1) %a, i32 %tid
  %dst = getelementptr i32, ptr addrspace(1) %b, i32 %tid
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i2, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc2, %loop ]
  %v = load i32, ptr addrspace(1) %src, align 4
  %acc2 = add i32 %acc, %v
  store i32 %acc2, ptr addrspace(1) %dst, align 4
  %i2 = add i32 %i, 1
  %c = icmp slt i32 %i2, %n
  br i1 %c, label %loop, label %exit
exit:
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %acc2, ptr addrspace(1) %o
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
