; Written for gcnsmt (issue 28, tv --pipeline): y = A x for a CSR matrix (row_ptr, col_idx,
; vals), one row per work-item (the "scalar" CSR kernel): a data-dependent trip count per
; lane, so the loop is divergent and its exit is a lane mask.
define amdgpu_kernel void @spmv_csr(ptr addrspace(1) noalias %y, ptr addrspace(1) noalias readonly %row_ptr, ptr addrspace(1) noalias readonly %col_idx, ptr addrspace(1) noalias readonly %vals, ptr addrspace(1) noalias readonly %x, i32 %nrows) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %wg = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %wg, 6
  %row = add i32 %base, %tid
  %ok = icmp ult i32 %row, %nrows
  br i1 %ok, label %head, label %exit

head:
  %row64 = zext i32 %row to i64
  %prs = getelementptr inbounds i32, ptr addrspace(1) %row_ptr, i64 %row64
  %start = load i32, ptr addrspace(1) %prs, align 4
  %pre = getelementptr inbounds i32, ptr addrspace(1) %prs, i64 1
  %end = load i32, ptr addrspace(1) %pre, align 4
  %empty = icmp sge i32 %start, %end
  br i1 %empty, label %store, label %loop

loop:
  %j = phi i32 [ %start, %head ], [ %j.next, %loop ]
  %sum = phi float [ 0.0, %head ], [ %sum.next, %loop ]
  %j64 = sext i32 %j to i64
  %pc = getelementptr inbounds i32, ptr addrspace(1) %col_idx, i64 %j64
  %col = load i32, ptr addrspace(1) %pc, align 4
  %pv = getelementptr inbounds float, ptr addrspace(1) %vals, i64 %j64
  %a = load float, ptr addrspace(1) %pv, align 4
  %col64 = sext i32 %col to i64
  %px = getelementptr inbounds float, ptr addrspace(1) %x, i64 %col64
  %xv = load float, ptr addrspace(1) %px, align 4
  %sum.next = call float @llvm.fma.f32(float %a, float %xv, float %sum)
  %j.next = add nsw i32 %j, 1
  %more = icmp slt i32 %j.next, %end
  br i1 %more, label %loop, label %store

store:
  %r = phi float [ 0.0, %head ], [ %sum.next, %loop ]
  %py = getelementptr inbounds float, ptr addrspace(1) %y, i64 %row64
  store float %r, ptr addrspace(1) %py, align 4
  br label %exit

exit:
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare float @llvm.fma.f32(float, float, float)
