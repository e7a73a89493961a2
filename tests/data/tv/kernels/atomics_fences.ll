; Written for gcnsmt (issue 28, tv --pipeline): the memory model at work: a float atomic max
; done as a compare-exchange loop (agent scope, acq_rel/monotonic), a work-group counter with
; an acquire/release fence pair and a seq_cst agent-scope exchange, a system-scope atomic OR,
; and an atomic load/store pair on LDS at workgroup scope.
@flag = internal addrspace(3) global i32 poison, align 4

define amdgpu_kernel void @atomics_fences(ptr addrspace(1) %maxp, ptr addrspace(1) %counter, ptr addrspace(1) %bits, ptr addrspace(1) readonly %in, ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %t64 = zext i32 %tid to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %t64
  %v = load float, ptr addrspace(1) %p, align 4
  %vi = bitcast float %v to i32
  %init = load atomic i32, ptr addrspace(1) %maxp syncscope("agent") monotonic, align 4
  br label %cas

cas:
  %cur = phi i32 [ %init, %entry ], [ %seen, %retry ]
  %curf = bitcast i32 %cur to float
  %bigger = fcmp ogt float %v, %curf
  br i1 %bigger, label %try, label %cas.done

try:
  %pair = cmpxchg ptr addrspace(1) %maxp, i32 %cur, i32 %vi syncscope("agent") acq_rel monotonic, align 4
  %seen = extractvalue { i32, i1 } %pair, 0
  %ok = extractvalue { i32, i1 } %pair, 1
  br i1 %ok, label %cas.done, label %retry

retry:
  br label %cas

cas.done:
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %leader, label %rest

leader:
  fence syncscope("agent") release
  %ticket = atomicrmw add ptr addrspace(1) %counter, i32 1 syncscope("agent") acq_rel, align 4
  fence syncscope("agent") acquire
  %old = atomicrmw xchg ptr addrspace(1) %counter, i32 0 syncscope("agent") seq_cst, align 4
  store atomic i32 %ticket, ptr addrspace(3) @flag syncscope("workgroup") release, align 4
  br label %rest

rest:
  call void @llvm.amdgcn.s.barrier()
  %f = load atomic i32, ptr addrspace(3) @flag syncscope("workgroup") acquire, align 4
  %bit = shl i32 1, %tid
  %ob = atomicrmw or ptr addrspace(1) %bits, i32 %bit seq_cst, align 4
  %r = add i32 %f, %ob
  %q = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %t64
  store i32 %r, ptr addrspace(1) %q, align 4
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()
