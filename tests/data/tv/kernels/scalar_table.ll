; Written for gcnsmt (issue 28, tv --pipeline): uniform (scalar) memory: a parameter block
; in constant memory (addrspace(4)) read with s_load at immediate and computed offsets, a
; uniform loop over a small coefficient table (scalar loads in a loop), then per-lane use of
; the scalar results in a polynomial evaluated by Horner's rule.
%params = type { i32, i32, float, float, [8 x float] }

define amdgpu_kernel void @scalar_table(ptr addrspace(1) noalias %out, ptr addrspace(1) noalias readonly %in, ptr addrspace(4) noalias readonly %prm) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %wg = call i32 @llvm.amdgcn.workgroup.id.x()
  %pn = getelementptr inbounds %params, ptr addrspace(4) %prm, i64 0, i32 0
  %n = load i32, ptr addrspace(4) %pn, align 4
  %pdeg = getelementptr inbounds %params, ptr addrspace(4) %prm, i64 0, i32 1
  %deg = load i32, ptr addrspace(4) %pdeg, align 4
  %pmul = getelementptr inbounds %params, ptr addrspace(4) %prm, i64 0, i32 2
  %mul = load float, ptr addrspace(4) %pmul, align 4
  %padd = getelementptr inbounds %params, ptr addrspace(4) %prm, i64 0, i32 3
  %add = load float, ptr addrspace(4) %padd, align 4
  %base = shl i32 %wg, 8
  %gi = add i32 %base, %tid
  %ok = icmp ult i32 %gi, %n
  br i1 %ok, label %body, label %exit

body:
  %gi64 = zext i32 %gi to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %gi64
  %x0 = load float, ptr addrspace(1) %p, align 4
  %x = call float @llvm.fma.f32(float %x0, float %mul, float %add)
  %deg8 = call i32 @llvm.umin.i32(i32 %deg, i32 7)
  br label %horner

horner:
  %k = phi i32 [ %deg8, %body ], [ %k.next, %horner ]
  %acc = phi float [ 0.0, %body ], [ %acc.next, %horner ]
  %k64 = zext i32 %k to i64
  %pc = getelementptr inbounds %params, ptr addrspace(4) %prm, i64 0, i32 4, i64 %k64
  %c = load float, ptr addrspace(4) %pc, align 4
  %acc.next = call float @llvm.fma.f32(float %acc, float %x, float %c)
  %k.next = add i32 %k, -1
  %more = icmp sge i32 %k.next, 0
  br i1 %more, label %horner, label %store

store:
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %gi64
  store float %acc.next, ptr addrspace(1) %q, align 4
  br label %exit

exit:
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.umin.i32(i32, i32)
declare float @llvm.fma.f32(float, float, float)
