; Written for gcnsmt (issue 28, tv --pipeline): 64-bit addressing past 4 GiB: a 64-bit
; element index from a 64-bit argument and the work-item id, element offsets of +2^31, -2^31
; and +2^33 bytes (beyond the 12/13/24-bit immediate of global/flat instructions, so
; V_ADD_CO/V_ADDC or V_LSHL_ADD_U64 carry chains), a generic (flat) pointer access, and a
; small negative immediate offset.
define amdgpu_kernel void @addr64_large(ptr addrspace(1) %base, ptr %flat, i64 %start) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %t64 = zext i32 %tid to i64
  %i = add i64 %start, %t64
  %p = getelementptr inbounds i32, ptr addrspace(1) %base, i64 %i
  %v0 = load i32, ptr addrspace(1) %p, align 4
  %pa = getelementptr inbounds i8, ptr addrspace(1) %p, i64 2147483648
  %v1 = load i32, ptr addrspace(1) %pa, align 4
  %pb = getelementptr inbounds i8, ptr addrspace(1) %p, i64 -2147483648
  %v2 = load i32, ptr addrspace(1) %pb, align 4
  %pc = getelementptr inbounds i8, ptr addrspace(1) %p, i64 8589934592
  %v3 = load i64, ptr addrspace(1) %pc, align 8
  %pn = getelementptr inbounds i8, ptr addrspace(1) %p, i64 -64
  %v4 = load i32, ptr addrspace(1) %pn, align 4
  %s0 = add i32 %v0, %v1
  %s1 = sub i32 %v2, %v4
  %s = add i32 %s0, %s1
  %s64 = zext i32 %s to i64
  %r = add i64 %v3, %s64
  %pf = getelementptr inbounds i64, ptr %flat, i64 %i
  store i64 %r, ptr %pf, align 8
  %pf2 = getelementptr inbounds i8, ptr %pf, i64 4294967296
  %fl = load i32, ptr %pf2, align 4
  %pst = getelementptr inbounds i8, ptr addrspace(1) %pc, i64 4092
  store i32 %fl, ptr addrspace(1) %pst, align 4
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
