@lds = addrspace(3) global [256 x i32] poison
define amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %n) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(1) %in, i32 %tid
  %v = load i32, ptr addrspace(1) %p
  %l = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %tid
  store i32 %v, ptr addrspace(3) %l
  call void @llvm.amdgcn.s.barrier()
  %c = icmp ult i32 %tid, %n
  br i1 %c, label %loop, label %exit
loop:
  %i = phi i32 [ 0, %entry ], [ %i2, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc2, %loop ]
  %idx = and i32 %i, 255
  %lp = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %idx
  %x = load i32, ptr addrspace(3) %lp
  %acc2 = add i32 %acc, %x
  %i2 = add i32 %i, 1
  %d = icmp ult i32 %i2, %n
  br i1 %d, label %loop, label %exit
exit:
  %r = phi i32 [ 0, %entry ], [ %acc2, %loop ]
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %r, ptr addrspace(1) %o
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()
