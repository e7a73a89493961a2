; Our own kernel in the shape of llvm/llvm-project#187335: two image loads of one
; texel, dmask 1 without TFE and dmask 2 with TFE (a status dword). Merging them
; must keep TFE or not merge at all.
define amdgpu_ps void @mimg_tfe(<8 x i32> inreg %rsrc, i32 %x, ptr addrspace(3) %out) {
  %a = call float @llvm.amdgcn.image.load.1d.f32.i32(i32 1, i32 %x, <8 x i32> %rsrc, i32 0, i32 0)
  %r = call {float, i32} @llvm.amdgcn.image.load.1d.sl_f32i32s.i32(i32 2, i32 %x, <8 x i32> %rsrc, i32 1, i32 0)
  %b = extractvalue {float, i32} %r, 0
  %t = extractvalue {float, i32} %r, 1
  %ai = bitcast float %a to i32
  %bi = bitcast float %b to i32
  store i32 %ai, ptr addrspace(3) %out
  %o1 = getelementptr i32, ptr addrspace(3) %out, i32 1
  store i32 %bi, ptr addrspace(3) %o1
  %o2 = getelementptr i32, ptr addrspace(3) %out, i32 2
  store i32 %t, ptr addrspace(3) %o2
  ret void
}
declare float @llvm.amdgcn.image.load.1d.f32.i32(i32 immarg, i32, <8 x i32>, i32 immarg, i32 immarg)
declare {float, i32} @llvm.amdgcn.image.load.1d.sl_f32i32s.i32(i32 immarg, i32, <8 x i32>, i32 immarg, i32 immarg)
