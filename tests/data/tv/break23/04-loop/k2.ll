target triple = "amdgcn-amd-amdhsa"
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @brk(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %n) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %cont ]
  %acc = phi i32 [ 0, %entry ], [ %acc1, %cont ]
  %p = getelementptr i32, ptr addrspace(1) %in, i32 %i
  %v = load i32, ptr addrspace(1) %p
  %c = icmp eq i32 %v, %tid
  br i1 %c, label %exit, label %cont
cont:
  %acc1 = add i32 %acc, %v
  %i1 = add i32 %i, 1
  %d = icmp ult i32 %i1, %n
  br i1 %d, label %loop, label %exit
exit:
  %r = phi i32 [ %acc, %loop ], [ %acc1, %cont ]
  %c2 = icmp ugt i32 %r, 100
  %s = select i1 %c2, i32 %r, i32 %tid
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %s, ptr addrspace(1) %q
  ret void
}
