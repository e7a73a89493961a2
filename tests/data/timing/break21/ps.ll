declare <4 x float> @llvm.amdgcn.image.sample.2d.v4f32.f32(i32, float, float, <8 x i32>, <4 x i32>, i1, i32, i32)
declare <4 x float> @llvm.amdgcn.image.load.2d.v4f32.i32(i32, i32, i32, <8 x i32>, i32, i32)
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
declare float @llvm.amdgcn.s.buffer.load.f32(<4 x i32>, i32, i32)
declare float @llvm.amdgcn.raw.buffer.load.f32(<4 x i32>, i32, i32, i32)
define amdgpu_ps void @ps(<8 x i32> inreg %t, <4 x i32> inreg %s, <4 x i32> inreg %cb, float %u, float %v, i32 %x, i32 %y) {
  %a = call <4 x float> @llvm.amdgcn.image.sample.2d.v4f32.f32(i32 15, float %u, float %v, <8 x i32> %t, <4 x i32> %s, i1 false, i32 0, i32 0)
  %b = call <4 x float> @llvm.amdgcn.image.load.2d.v4f32.i32(i32 15, i32 %x, i32 %y, <8 x i32> %t, i32 0, i32 0)
  %c = call float @llvm.amdgcn.s.buffer.load.f32(<4 x i32> %cb, i32 16, i32 0)
  %d = call float @llvm.amdgcn.raw.buffer.load.f32(<4 x i32> %cb, i32 %x, i32 0, i32 0)
  %a0 = extractelement <4 x float> %a, i32 0
  %b0 = extractelement <4 x float> %b, i32 1
  %a1 = extractelement <4 x float> %a, i32 2
  %b1 = extractelement <4 x float> %b, i32 3
  %m = fmul float %a0, %c
  %n = fadd float %b0, %d
  call void @llvm.amdgcn.exp.f32(i32 0, i32 15, float %m, float %n, float %a1, float %b1, i1 true, i1 true)
  ret void
}
