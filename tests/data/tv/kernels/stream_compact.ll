; Written for gcnsmt (issue 28, tv --pipeline): wave-level stream compaction: each lane tests
; its element, a ballot gives the wave's mask, mbcnt the lane's rank among the kept lanes,
; the first lane reserves space with one global atomic add and broadcasts the base with
; readfirstlane, and kept lanes store at base + rank. The ballot is i64 on every target (on
; the wave32 targets gfx1100/gfx1200 its high half is zero, and mbcnt.hi adds nothing).
define amdgpu_kernel void @stream_compact(ptr addrspace(1) noalias %out, ptr addrspace(1) noalias %count, ptr addrspace(1) noalias readonly %in, i32 %threshold) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %wg = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %wg, 8
  %gi = add i32 %base, %tid
  %gi64 = zext i32 %gi to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %gi64
  %v = load i32, ptr addrspace(1) %p, align 4
  %keep = icmp sgt i32 %v, %threshold
  %mask = call i64 @llvm.amdgcn.ballot.i64(i1 %keep)
  %lo = trunc i64 %mask to i32
  %hi64 = lshr i64 %mask, 32
  %hi = trunc i64 %hi64 to i32
  %r0 = call i32 @llvm.amdgcn.mbcnt.lo(i32 %lo, i32 0)
  %rank = call i32 @llvm.amdgcn.mbcnt.hi(i32 %hi, i32 %r0)
  %n64 = call i64 @llvm.ctpop.i64(i64 %mask)
  %n = trunc i64 %n64 to i32
  %l0 = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %lane = call i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %l0)
  %first = icmp eq i32 %lane, 0
  %nz = icmp ne i32 %n, 0
  %lead = and i1 %first, %nz
  br i1 %lead, label %reserve, label %joined

reserve:
  %b = atomicrmw add ptr addrspace(1) %count, i32 %n syncscope("agent") monotonic, align 4
  br label %joined

joined:
  %bb = phi i32 [ poison, %entry ], [ %b, %reserve ]
  %wbase = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %bb)
  br i1 %keep, label %write, label %exit

write:
  %slot = add i32 %wbase, %rank
  %s64 = zext i32 %slot to i64
  %q = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %s64
  store i32 %v, ptr addrspace(1) %q, align 4
  br label %exit

exit:
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare i64 @llvm.amdgcn.ballot.i64(i1)
declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32)
declare i32 @llvm.amdgcn.mbcnt.hi(i32, i32)
declare i64 @llvm.ctpop.i64(i64)
declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
