; Written for gcnsmt (issue 28, tv --pipeline): a 1D 7-point stencil (radius 3) with the
; work-group's 256 points and a 3-point halo on each side staged in LDS; the first and last
; three work-items load the halo, a barrier, then a weighted sum of seven LDS reads.
@tile = internal addrspace(3) global [262 x float] poison, align 4

define amdgpu_kernel void @stencil_1d(ptr addrspace(1) noalias %out, ptr addrspace(1) noalias readonly %in, float %w0, float %w1, float %w2, float %w3) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %wg = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %wg, 8
  %gi = add i32 %base, %tid
  %gi64 = zext i32 %gi to i64
  %pin = getelementptr inbounds float, ptr addrspace(1) %in, i64 %gi64
  %v = load float, ptr addrspace(1) %pin, align 4
  %li = add nuw nsw i32 %tid, 3
  %lp = getelementptr [262 x float], ptr addrspace(3) @tile, i32 0, i32 %li
  store float %v, ptr addrspace(3) %lp, align 4
  %lo = icmp ult i32 %tid, 3
  br i1 %lo, label %halo_lo, label %check_hi

halo_lo:
  %plo = getelementptr inbounds float, ptr addrspace(1) %pin, i64 -3
  %vlo = load float, ptr addrspace(1) %plo, align 4
  %llo = getelementptr [262 x float], ptr addrspace(3) @tile, i32 0, i32 %tid
  store float %vlo, ptr addrspace(3) %llo, align 4
  br label %check_hi

check_hi:
  %hi = icmp ugt i32 %tid, 252
  br i1 %hi, label %halo_hi, label %compute

halo_hi:
  %phi_ = getelementptr inbounds float, ptr addrspace(1) %pin, i64 3
  %vhi = load float, ptr addrspace(1) %phi_, align 4
  %lhi_i = add nuw nsw i32 %tid, 6
  %lhi = getelementptr [262 x float], ptr addrspace(3) @tile, i32 0, i32 %lhi_i
  store float %vhi, ptr addrspace(3) %lhi, align 4
  br label %compute

compute:
  call void @llvm.amdgcn.s.barrier()
  %pm3 = getelementptr [262 x float], ptr addrspace(3) @tile, i32 0, i32 %tid
  %m3 = load float, ptr addrspace(3) %pm3, align 4
  %pm2 = getelementptr float, ptr addrspace(3) %pm3, i32 1
  %m2 = load float, ptr addrspace(3) %pm2, align 4
  %pm1 = getelementptr float, ptr addrspace(3) %pm3, i32 2
  %m1 = load float, ptr addrspace(3) %pm1, align 4
  %c0 = load float, ptr addrspace(3) %lp, align 4
  %pp1 = getelementptr float, ptr addrspace(3) %pm3, i32 4
  %p1 = load float, ptr addrspace(3) %pp1, align 4
  %pp2 = getelementptr float, ptr addrspace(3) %pm3, i32 5
  %p2 = load float, ptr addrspace(3) %pp2, align 4
  %pp3 = getelementptr float, ptr addrspace(3) %pm3, i32 6
  %p3 = load float, ptr addrspace(3) %pp3, align 4
  %s1 = fadd float %m1, %p1
  %s2 = fadd float %m2, %p2
  %s3 = fadd float %m3, %p3
  %r0 = fmul float %c0, %w0
  %r1 = call float @llvm.fma.f32(float %s1, float %w1, float %r0)
  %r2 = call float @llvm.fma.f32(float %s2, float %w2, float %r1)
  %r3 = call float @llvm.fma.f32(float %s3, float %w3, float %r2)
  %pout = getelementptr inbounds float, ptr addrspace(1) %out, i64 %gi64
  store float %r3, ptr addrspace(1) %pout, align 4
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare void @llvm.amdgcn.s.barrier()
declare float @llvm.fma.f32(float, float, float)

attributes #0 = { "amdgpu-flat-work-group-size"="256,256" }
