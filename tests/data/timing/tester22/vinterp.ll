; A pixel shader interpolating two attributes with LDS parameter loads and VINTERP.
define amdgpu_ps void @interp(i32 inreg %m0, float %i, float %j) {
main_body:
  %p0 = call float @llvm.amdgcn.lds.param.load(i32 0, i32 0, i32 %m0)
  %p1 = call float @llvm.amdgcn.lds.param.load(i32 1, i32 0, i32 %m0)
  %q0 = call float @llvm.amdgcn.lds.param.load(i32 0, i32 1, i32 %m0)
  %q1 = call float @llvm.amdgcn.lds.param.load(i32 1, i32 1, i32 %m0)
  %a = call float @llvm.amdgcn.interp.inreg.p10(float %p0, float %i, float %p0)
  %b = call float @llvm.amdgcn.interp.inreg.p2(float %p0, float %j, float %a)
  %c = call float @llvm.amdgcn.interp.inreg.p10(float %p1, float %i, float %p1)
  %d = call float @llvm.amdgcn.interp.inreg.p2(float %p1, float %j, float %c)
  %e = call float @llvm.amdgcn.interp.inreg.p10(float %q0, float %i, float %q0)
  %f = call float @llvm.amdgcn.interp.inreg.p2(float %q0, float %j, float %e)
  %g = call float @llvm.amdgcn.interp.inreg.p10(float %q1, float %i, float %q1)
  %h = call float @llvm.amdgcn.interp.inreg.p2(float %q1, float %j, float %g)
  call void @llvm.amdgcn.exp.f32(i32 0, i32 15, float %b, float %d, float %f, float %h, i1 true, i1 true)
  ret void
}
declare float @llvm.amdgcn.lds.param.load(i32, i32, i32)
declare float @llvm.amdgcn.interp.inreg.p10(float, float, float)
declare float @llvm.amdgcn.interp.inreg.p2(float, float, float)
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
