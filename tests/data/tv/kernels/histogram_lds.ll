; Written for gcnsmt (issue 28, tv --pipeline): a 256-bin byte histogram. Bins are zeroed in
; LDS, each work-item counts four bytes of one dword with `atomicrmw add` on addrspace(3)
; (ds_add_u32), and after a barrier each work-item adds one bin to the global histogram
; (agent-scope atomic, skipped for empty bins).
@bins = internal addrspace(3) global [256 x i32] poison, align 4

define amdgpu_kernel void @histogram_lds(ptr addrspace(1) %hist, ptr addrspace(1) readonly %data, i32 %ndwords) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %wg = call i32 @llvm.amdgcn.workgroup.id.x()
  %bin = getelementptr [256 x i32], ptr addrspace(3) @bins, i32 0, i32 %tid
  store i32 0, ptr addrspace(3) %bin, align 4
  call void @llvm.amdgcn.s.barrier()
  %base = shl i32 %wg, 8
  %gi = add i32 %base, %tid
  %in = icmp ult i32 %gi, %ndwords
  br i1 %in, label %count, label %merge

count:
  %gi64 = zext i32 %gi to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %data, i64 %gi64
  %w = load i32, ptr addrspace(1) %p, align 4
  %b0 = and i32 %w, 255
  %s1 = lshr i32 %w, 8
  %b1 = and i32 %s1, 255
  %s2 = lshr i32 %w, 16
  %b2 = and i32 %s2, 255
  %b3 = lshr i32 %w, 24
  %q0 = getelementptr [256 x i32], ptr addrspace(3) @bins, i32 0, i32 %b0
  %q1 = getelementptr [256 x i32], ptr addrspace(3) @bins, i32 0, i32 %b1
  %q2 = getelementptr [256 x i32], ptr addrspace(3) @bins, i32 0, i32 %b2
  %q3 = getelementptr [256 x i32], ptr addrspace(3) @bins, i32 0, i32 %b3
  %o0 = atomicrmw add ptr addrspace(3) %q0, i32 1 syncscope("workgroup") monotonic, align 4
  %o1 = atomicrmw add ptr addrspace(3) %q1, i32 1 syncscope("workgroup") monotonic, align 4
  %o2 = atomicrmw add ptr addrspace(3) %q2, i32 1 syncscope("workgroup") monotonic, align 4
  %o3 = atomicrmw add ptr addrspace(3) %q3, i32 1 syncscope("workgroup") monotonic, align 4
  br label %merge

merge:
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %c = load i32, ptr addrspace(3) %bin, align 4
  %nz = icmp ne i32 %c, 0
  br i1 %nz, label %publish, label %exit

publish:
  %tid64 = zext i32 %tid to i64
  %h = getelementptr inbounds i32, ptr addrspace(1) %hist, i64 %tid64
  %old = atomicrmw add ptr addrspace(1) %h, i32 %c syncscope("agent") monotonic, align 4
  br label %exit

exit:
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare void @llvm.amdgcn.s.barrier()

attributes #0 = { "amdgpu-flat-work-group-size"="256,256" }
