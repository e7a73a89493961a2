; Written for gcnsmt (issue 28, tv --pipeline): a workgroup sum in LDS with a barrier per
; step of a halving loop; thread 0 writes the workgroup's sum.
@lds = internal addrspace(3) global [256 x i32] poison, align 4

define amdgpu_kernel void @lds_reduce(ptr addrspace(1) %out, ptr addrspace(1) %in) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %wg = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %wg, 8
  %gi = add i32 %base, %tid
  %gi64 = zext i32 %gi to i64
  %p = getelementptr i32, ptr addrspace(1) %in, i64 %gi64
  %v = load i32, ptr addrspace(1) %p, align 4
  %l = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %tid
  store i32 %v, ptr addrspace(3) %l, align 4
  call void @llvm.amdgcn.s.barrier()
  br label %loop

loop:
  %s = phi i32 [ 128, %entry ], [ %s.next, %latch ]
  %active = icmp ult i32 %tid, %s
  br i1 %active, label %add, label %latch

add:
  %t2 = add i32 %tid, %s
  %l2 = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %t2
  %a = load i32, ptr addrspace(3) %l, align 4
  %b = load i32, ptr addrspace(3) %l2, align 4
  %sum = add i32 %a, %b
  store i32 %sum, ptr addrspace(3) %l, align 4
  br label %latch

latch:
  call void @llvm.amdgcn.s.barrier()
  %s.next = lshr i32 %s, 1
  %more = icmp ne i32 %s.next, 0
  br i1 %more, label %loop, label %done

done:
  %first = icmp eq i32 %tid, 0
  br i1 %first, label %write, label %exit

write:
  %r = load i32, ptr addrspace(3) getelementptr ([256 x i32], ptr addrspace(3) @lds, i32 0, i32 0), align 4
  %wg64 = zext i32 %wg to i64
  %q = getelementptr i32, ptr addrspace(1) %out, i64 %wg64
  store i32 %r, ptr addrspace(1) %q, align 4
  br label %exit

exit:
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare void @llvm.amdgcn.s.barrier()
