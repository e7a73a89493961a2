; Our own kernels for si-load-store-opt's image-load merges (tests/data/tv/mimg/README.md):
; two reads of one texel with disjoint dmasks, which the pass merges into one read with the
; union dmask when TFE/LWE are off on both.
define amdgpu_ps void @load1d(<8 x i32> inreg %rsrc, i32 %x, ptr addrspace(3) %out) {
  %a = call float @llvm.amdgcn.image.load.1d.f32.i32(i32 1, i32 %x, <8 x i32> %rsrc, i32 0, i32 0)
  %b = call <2 x float> @llvm.amdgcn.image.load.1d.v2f32.i32(i32 6, i32 %x, <8 x i32> %rsrc, i32 0, i32 0)
  %b0 = extractelement <2 x float> %b, i32 0
  %b1 = extractelement <2 x float> %b, i32 1
  store float %a, ptr addrspace(3) %out
  %o1 = getelementptr float, ptr addrspace(3) %out, i32 1
  store float %b0, ptr addrspace(3) %o1
  %o2 = getelementptr float, ptr addrspace(3) %out, i32 2
  store float %b1, ptr addrspace(3) %o2
  ret void
}
define amdgpu_ps void @load2d(<8 x i32> inreg %rsrc, i32 %x, i32 %y, ptr addrspace(3) %out) {
  %a = call float @llvm.amdgcn.image.load.2d.f32.i32(i32 8, i32 %x, i32 %y, <8 x i32> %rsrc, i32 0, i32 0)
  %b = call float @llvm.amdgcn.image.load.2d.f32.i32(i32 2, i32 %x, i32 %y, <8 x i32> %rsrc, i32 0, i32 0)
  store float %a, ptr addrspace(3) %out
  %o1 = getelementptr float, ptr addrspace(3) %out, i32 1
  store float %b, ptr addrspace(3) %o1
  ret void
}
define amdgpu_ps void @sample2d(<8 x i32> inreg %rsrc, <4 x i32> inreg %samp, float %x, float %y, ptr addrspace(3) %out) {
  %a = call <2 x float> @llvm.amdgcn.image.sample.2d.v2f32.f32(i32 3, float %x, float %y, <8 x i32> %rsrc, <4 x i32> %samp, i1 false, i32 0, i32 0)
  %b = call float @llvm.amdgcn.image.sample.2d.f32.f32(i32 4, float %x, float %y, <8 x i32> %rsrc, <4 x i32> %samp, i1 false, i32 0, i32 0)
  %a0 = extractelement <2 x float> %a, i32 0
  %a1 = extractelement <2 x float> %a, i32 1
  store float %a0, ptr addrspace(3) %out
  %o1 = getelementptr float, ptr addrspace(3) %out, i32 1
  store float %a1, ptr addrspace(3) %o1
  %o2 = getelementptr float, ptr addrspace(3) %out, i32 2
  store float %b, ptr addrspace(3) %o2
  ret void
}
define amdgpu_ps void @tfe_both(<8 x i32> inreg %rsrc, i32 %x, ptr addrspace(3) %out) {
  %r1 = call {float, i32} @llvm.amdgcn.image.load.1d.sl_f32i32s.i32(i32 1, i32 %x, <8 x i32> %rsrc, i32 1, i32 0)
  %r2 = call {float, i32} @llvm.amdgcn.image.load.1d.sl_f32i32s.i32(i32 2, i32 %x, <8 x i32> %rsrc, i32 1, i32 0)
  %a = extractvalue {float, i32} %r1, 0
  %t = extractvalue {float, i32} %r1, 1
  %b = extractvalue {float, i32} %r2, 0
  %u = extractvalue {float, i32} %r2, 1
  store float %a, ptr addrspace(3) %out
  %o1 = getelementptr float, ptr addrspace(3) %out, i32 1
  store float %b, ptr addrspace(3) %o1
  %o2 = getelementptr i32, ptr addrspace(3) %out, i32 2
  store i32 %t, ptr addrspace(3) %o2
  %o3 = getelementptr i32, ptr addrspace(3) %out, i32 3
  store i32 %u, ptr addrspace(3) %o3
  ret void
}
define amdgpu_ps void @d16(<8 x i32> inreg %rsrc, i32 %x, i32 %y, ptr addrspace(3) %out) {
  %a = call half @llvm.amdgcn.image.load.2d.f16.i32(i32 1, i32 %x, i32 %y, <8 x i32> %rsrc, i32 0, i32 0)
  %b = call half @llvm.amdgcn.image.load.2d.f16.i32(i32 2, i32 %x, i32 %y, <8 x i32> %rsrc, i32 0, i32 0)
  store half %a, ptr addrspace(3) %out
  %o1 = getelementptr half, ptr addrspace(3) %out, i32 1
  store half %b, ptr addrspace(3) %o1
  ret void
}
declare float @llvm.amdgcn.image.load.1d.f32.i32(i32 immarg, i32, <8 x i32>, i32 immarg, i32 immarg)
declare <2 x float> @llvm.amdgcn.image.load.1d.v2f32.i32(i32 immarg, i32, <8 x i32>, i32 immarg, i32 immarg)
declare float @llvm.amdgcn.image.load.2d.f32.i32(i32 immarg, i32, i32, <8 x i32>, i32 immarg, i32 immarg)
declare {float, i32} @llvm.amdgcn.image.load.1d.sl_f32i32s.i32(i32 immarg, i32, <8 x i32>, i32 immarg, i32 immarg)
declare float @llvm.amdgcn.image.sample.2d.f32.f32(i32 immarg, float, float, <8 x i32>, <4 x i32>, i1 immarg, i32 immarg, i32 immarg)
declare <2 x float> @llvm.amdgcn.image.sample.2d.v2f32.f32(i32 immarg, float, float, <8 x i32>, <4 x i32>, i1 immarg, i32 immarg, i32 immarg)
declare half @llvm.amdgcn.image.load.2d.f16.i32(i32 immarg, i32, i32, <8 x i32>, i32 immarg, i32 immarg)
