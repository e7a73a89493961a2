declare <4 x float> @llvm.amdgcn.image.sample.2d.v4f32.f32(i32, float, float, <8 x i32>, <4 x i32>, i1, i32, i32)
declare <4 x float> @llvm.amdgcn.image.gather4.2d.v4f32.f32(i32, float, float, <8 x i32>, <4 x i32>, i1, i32, i32)
declare void @llvm.amdgcn.image.store.2d.v4f32.i32(<4 x float>, i32, i32, i32, <8 x i32>, i32, i32)
declare i32 @llvm.amdgcn.image.atomic.add.2d.i32.i32(i32, i32, i32, <8 x i32>, i32, i32)
declare i32 @llvm.amdgcn.raw.buffer.atomic.add.i32(i32, <4 x i32>, i32, i32, i32)
declare float @llvm.amdgcn.interp.p1(float, i32, i32, i32)
declare float @llvm.amdgcn.interp.p2(float, float, i32, i32, i32)
define amdgpu_ps <4 x float> @ps2(<8 x i32> inreg %t, <4 x i32> inreg %s, <4 x i32> inreg %b, float %u, float %v, i32 %x, i32 %y) {
  %a = call <4 x float> @llvm.amdgcn.image.sample.2d.v4f32.f32(i32 15, float %u, float %v, <8 x i32> %t, <4 x i32> %s, i1 false, i32 0, i32 0)
  %g = call <4 x float> @llvm.amdgcn.image.gather4.2d.v4f32.f32(i32 1, float %u, float %v, <8 x i32> %t, <4 x i32> %s, i1 false, i32 0, i32 0)
  %r = call i32 @llvm.amdgcn.raw.buffer.atomic.add.i32(i32 1, <4 x i32> %b, i32 %x, i32 0, i32 0)
  %q = call i32 @llvm.amdgcn.image.atomic.add.2d.i32.i32(i32 %r, i32 %x, i32 %y, <8 x i32> %t, i32 0, i32 0)
  %qf = bitcast i32 %q to float
  %s1 = fadd <4 x float> %a, %g
  call void @llvm.amdgcn.image.store.2d.v4f32.i32(<4 x float> %s1, i32 15, i32 %x, i32 %y, <8 x i32> %t, i32 0, i32 0)
  %o = insertelement <4 x float> %s1, float %qf, i32 0
  ret <4 x float> %o
}
