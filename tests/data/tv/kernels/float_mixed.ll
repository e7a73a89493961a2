; Written for gcnsmt (issue 28, tv --pipeline): f16, f32 and f64 arithmetic as numeric kernels
; emit it: half inputs widened to float, fma, a clamp with minnum/maxnum, a double-precision
; accumulation (fpext, fma.f64, fptrunc), float <-> int conversions, fabs/copysign/floor,
; and a half result stored next to the float one.
define amdgpu_kernel void @float_mixed(ptr addrspace(1) noalias %outf, ptr addrspace(1) noalias %outh, ptr addrspace(1) noalias %outd, ptr addrspace(1) noalias readonly %inh, ptr addrspace(1) noalias readonly %ind, float %scale, double %bias) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %t64 = zext i32 %tid to i64
  %ph = getelementptr inbounds <2 x half>, ptr addrspace(1) %inh, i64 %t64
  %hv = load <2 x half>, ptr addrspace(1) %ph, align 4
  %h0 = extractelement <2 x half> %hv, i32 0
  %h1 = extractelement <2 x half> %hv, i32 1
  %hm = fmul half %h0, %h1
  %hs = call half @llvm.fma.f16(half %h0, half %h1, half 0xH3C00)
  %f0 = fpext half %hm to float
  %f1 = fpext half %hs to float
  %f = call float @llvm.fma.f32(float %f0, float %scale, float %f1)
  %fa = call float @llvm.fabs.f32(float %f)
  %cs = call float @llvm.copysign.f32(float %fa, float %f1)
  %lo = call float @llvm.maxnum.f32(float %cs, float -1.0)
  %cl = call float @llvm.minnum.f32(float %lo, float 1.0)
  %pd = getelementptr inbounds double, ptr addrspace(1) %ind, i64 %t64
  %d = load double, ptr addrspace(1) %pd, align 8
  %de = fpext float %cl to double
  %dacc = call double @llvm.fma.f64(double %d, double %de, double %bias)
  %dm = fmul double %dacc, 0x3FE0000000000000
  %dfl = call double @llvm.floor.f64(double %dm)
  %pod = getelementptr inbounds double, ptr addrspace(1) %outd, i64 %t64
  store double %dfl, ptr addrspace(1) %pod, align 8
  %ft = fptrunc double %dacc to float
  %iv = fptosi float %ft to i32
  %ic = call i32 @llvm.smin.i32(i32 %iv, i32 255)
  %ic2 = call i32 @llvm.smax.i32(i32 %ic, i32 0)
  %back = uitofp i32 %ic2 to float
  %mix = fadd float %back, %cl
  %pof = getelementptr inbounds float, ptr addrspace(1) %outf, i64 %t64
  store float %mix, ptr addrspace(1) %pof, align 4
  %hr = fptrunc float %mix to half
  %hsum = fadd half %hr, %hs
  %poh = getelementptr inbounds half, ptr addrspace(1) %outh, i64 %t64
  store half %hsum, ptr addrspace(1) %poh, align 2
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare half @llvm.fma.f16(half, half, half)
declare float @llvm.fma.f32(float, float, float)
declare double @llvm.fma.f64(double, double, double)
declare float @llvm.fabs.f32(float)
declare float @llvm.copysign.f32(float, float)
declare float @llvm.maxnum.f32(float, float)
declare float @llvm.minnum.f32(float, float)
declare double @llvm.floor.f64(double)
declare i32 @llvm.smin.i32(i32, i32)
declare i32 @llvm.smax.i32(i32, i32)
