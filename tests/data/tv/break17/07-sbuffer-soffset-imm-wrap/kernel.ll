define amdgpu_ps float @sbo(<4 x i32> inreg %rsrc, i32 inreg %s) {
  %o = add i32 %s, 4
  %a = call i32 @llvm.amdgcn.s.buffer.load.i32(<4 x i32> %rsrc, i32 %o, i32 0)
  %f = bitcast i32 %a to float
  ret float %f
}
declare i32 @llvm.amdgcn.s.buffer.load.i32(<4 x i32>, i32, i32)
