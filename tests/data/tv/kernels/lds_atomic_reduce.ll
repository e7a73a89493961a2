; Written for gcnsmt (issue 28, tv --pipeline): a workgroup sum with LDS atomics. Each
; work-item adds a grid-stride partial sum into one LDS word per wave with a workgroup-scope
; `atomicrmw add` on addrspace(3); after a barrier the first work-item of the group folds the
; per-wave words and adds the result to the global total with an agent-scope atomic.
@wave_sums = internal addrspace(3) global [16 x i32] poison, align 4

define amdgpu_kernel void @lds_atomic_reduce(ptr addrspace(1) %total, ptr addrspace(1) %in, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %wg = call i32 @llvm.amdgcn.workgroup.id.x()
  %nwg = call i32 @llvm.amdgcn.num.workgroups.x()
  %base = shl i32 %wg, 8
  %gi = add i32 %base, %tid
  %stride = shl i32 %nwg, 8
  %wave = lshr i32 %tid, 6
  %slot = getelementptr [16 x i32], ptr addrspace(3) @wave_sums, i32 0, i32 %wave
  %first_in_wave = and i32 %tid, 63
  %is_first = icmp eq i32 %first_in_wave, 0
  br i1 %is_first, label %zero, label %zeroed

zero:
  store i32 0, ptr addrspace(3) %slot, align 4
  br label %zeroed

zeroed:
  call void @llvm.amdgcn.s.barrier()
  %any = icmp ult i32 %gi, %n
  br i1 %any, label %loop, label %accum

loop:
  %i = phi i32 [ %gi, %zeroed ], [ %i.next, %loop ]
  %acc = phi i32 [ 0, %zeroed ], [ %acc.next, %loop ]
  %i64 = zext i32 %i to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %i64
  %v = load i32, ptr addrspace(1) %p, align 4
  %acc.next = add i32 %acc, %v
  %i.next = add i32 %i, %stride
  %more = icmp ult i32 %i.next, %n
  br i1 %more, label %loop, label %accum

accum:
  %part = phi i32 [ 0, %zeroed ], [ %acc.next, %loop ]
  %old = atomicrmw add ptr addrspace(3) %slot, i32 %part syncscope("workgroup") monotonic, align 4
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %fold, label %exit

fold:
  %w0 = load i32, ptr addrspace(3) @wave_sums, align 4
  %p1 = getelementptr [16 x i32], ptr addrspace(3) @wave_sums, i32 0, i32 1
  %w1 = load i32, ptr addrspace(3) %p1, align 4
  %p2 = getelementptr [16 x i32], ptr addrspace(3) @wave_sums, i32 0, i32 2
  %w2 = load i32, ptr addrspace(3) %p2, align 4
  %p3 = getelementptr [16 x i32], ptr addrspace(3) @wave_sums, i32 0, i32 3
  %w3 = load i32, ptr addrspace(3) %p3, align 4
  %s01 = add i32 %w0, %w1
  %s23 = add i32 %w2, %w3
  %s = add i32 %s01, %s23
  %r = atomicrmw add ptr addrspace(1) %total, i32 %s syncscope("agent") monotonic, align 4
  br label %exit

exit:
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.num.workgroups.x()
declare void @llvm.amdgcn.s.barrier()

attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }
