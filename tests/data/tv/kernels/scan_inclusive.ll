; Written for gcnsmt (issue 28, tv --pipeline): an inclusive prefix sum of 256 ints per
; work-group (Hillis-Steele): log2(256) = 8 steps, each reading the partner at distance %d
; from one LDS buffer and writing the other (double buffering), a barrier per step.
@buf = internal addrspace(3) global [2 x [256 x i32]] poison, align 4

define amdgpu_kernel void @scan_inclusive(ptr addrspace(1) %out, ptr addrspace(1) readonly %in) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %wg = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %wg, 8
  %gi = add i32 %base, %tid
  %gi64 = zext i32 %gi to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %gi64
  %v = load i32, ptr addrspace(1) %p, align 4
  %l0 = getelementptr [2 x [256 x i32]], ptr addrspace(3) @buf, i32 0, i32 0, i32 %tid
  store i32 %v, ptr addrspace(3) %l0, align 4
  call void @llvm.amdgcn.s.barrier()
  br label %step

step:
  %d = phi i32 [ 1, %entry ], [ %d.next, %step ]
  %src = phi i32 [ 0, %entry ], [ %dst, %step ]
  %x = phi i32 [ %v, %entry ], [ %y, %step ]
  %dst = xor i32 %src, 1
  %has = icmp uge i32 %tid, %d
  %j = sub i32 %tid, %d
  %jj = select i1 %has, i32 %j, i32 %tid
  %pj = getelementptr [2 x [256 x i32]], ptr addrspace(3) @buf, i32 0, i32 %src, i32 %jj
  %vj = load i32, ptr addrspace(3) %pj, align 4
  %add = select i1 %has, i32 %vj, i32 0
  %y = add i32 %x, %add
  %pd = getelementptr [2 x [256 x i32]], ptr addrspace(3) @buf, i32 0, i32 %dst, i32 %tid
  store i32 %y, ptr addrspace(3) %pd, align 4
  call void @llvm.amdgcn.s.barrier()
  %d.next = shl i32 %d, 1
  %done = icmp eq i32 %d.next, 256
  br i1 %done, label %exit, label %step

exit:
  %q = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %gi64
  store i32 %y, ptr addrspace(1) %q, align 4
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare void @llvm.amdgcn.s.barrier()

attributes #0 = { "amdgpu-flat-work-group-size"="256,256" }
