target triple = "amdgcn-amd-amdhsa"
@lds = internal addrspace(3) global [512 x i32] poison, align 16
define amdgpu_kernel void @k2(ptr addrspace(1) %out, ptr addrspace(1) %in, i64 %off, i32 %n) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %tid64 = zext i32 %tid to i64
  %idx = add i64 %tid64, %off
  %p = getelementptr i32, ptr addrspace(1) %in, i64 %idx
  %a = load i32, ptr addrspace(1) %p, align 4
  %lp = getelementptr [512 x i32], ptr addrspace(3) @lds, i32 0, i32 %tid
  store i32 %a, ptr addrspace(3) %lp, align 4
  call void @llvm.amdgcn.s.barrier()
  %c = icmp ult i32 %tid, 17
  br i1 %c, label %then, label %else
then:
  %t1 = xor i32 %tid, 1
  %lp1 = getelementptr [512 x i32], ptr addrspace(3) @lds, i32 0, i32 %t1
  %v1 = load i32, ptr addrspace(3) %lp1, align 4
  %lp2 = getelementptr i32, ptr addrspace(3) %lp1, i32 1
  %v2 = load i32, ptr addrspace(3) %lp2, align 4
  %s1 = add i32 %v1, %v2
  br label %join
else:
  %s2 = mul i32 %a, 3
  br label %join
join:
  %s = phi i32 [ %s1, %then ], [ %s2, %else ]
  br label %loop
loop:
  %i = phi i32 [ 0, %join ], [ %inext, %loop ]
  %acc = phi i32 [ %s, %join ], [ %acc2, %loop ]
  %li = add i32 %i, %tid
  %li2 = and i32 %li, 511
  %lq = getelementptr [512 x i32], ptr addrspace(3) @lds, i32 0, i32 %li2
  %lv = load i32, ptr addrspace(3) %lq, align 4
  %acc2 = add i32 %acc, %lv
  %inext = add i32 %i, 1
  %cc = icmp slt i32 %inext, %n
  br i1 %cc, label %loop, label %exit
exit:
  %q = getelementptr i32, ptr addrspace(1) %out, i64 %idx
  store i32 %acc2, ptr addrspace(1) %q, align 4
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()
