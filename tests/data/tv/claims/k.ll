; Source of the borrowed-claim pairs (tests/data/tv/claims/README.md): an `!invariant.load`
; 64-bit load of p and a plain 32-bit load of q.
define amdgpu_kernel void @two_loads(ptr addrspace(1) %p, ptr addrspace(1) %q, ptr addrspace(1) %out) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %pp = getelementptr i64, ptr addrspace(1) %p, i32 %tid
  %qq = getelementptr i32, ptr addrspace(1) %q, i32 %tid
  %a = load i64, ptr addrspace(1) %pp, align 8, !invariant.load !0
  %b = load i32, ptr addrspace(1) %qq, align 4
  %a32 = trunc i64 %a to i32
  %s = add i32 %a32, %b
  store i32 %s, ptr addrspace(1) %out
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
!0 = !{}
