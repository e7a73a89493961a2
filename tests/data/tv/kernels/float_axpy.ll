; Written for gcnsmt (issue 28, tv --pipeline): float code around memory: y[i] = a * x[i] +
; y[i], then a clamp to [0, 1] and a half-precision copy of the result.
define amdgpu_kernel void @float_axpy(ptr addrspace(1) %y, ptr addrspace(1) %x, ptr addrspace(1) %h, float %a) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %i64 = zext i32 %tid to i64
  %px = getelementptr float, ptr addrspace(1) %x, i64 %i64
  %py = getelementptr float, ptr addrspace(1) %y, i64 %i64
  %vx = load float, ptr addrspace(1) %px, align 4
  %vy = load float, ptr addrspace(1) %py, align 4
  %m = fmul float %a, %vx
  %s = fadd float %m, %vy
  %lo = call float @llvm.maxnum.f32(float %s, float 0.0)
  %c = call float @llvm.minnum.f32(float %lo, float 1.0)
  store float %c, ptr addrspace(1) %py, align 4
  %hv = fptrunc float %c to half
  %ph = getelementptr half, ptr addrspace(1) %h, i64 %i64
  store half %hv, ptr addrspace(1) %ph, align 2
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare float @llvm.maxnum.f32(float, float)
declare float @llvm.minnum.f32(float, float)
