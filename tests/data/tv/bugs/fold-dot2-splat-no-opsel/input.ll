; Our own kernel in the shape of llvm/llvm-project#73589 (gfx940 family, here gfx942):
; a v_dot2_f32_f16 (VOP3P, clamp so it is not the VOP2 dot2c form) whose second source
; is the packed splat <1.0, 1.0>. The splat may only become the inline constant 1.0 if
; op_sel_hi of that source is cleared (so the high half reads the low half); on gfx940
; that op_sel path is skipped for DOT instructions and the buggy pass folded the inline
; constant anyway, leaving op_sel_hi set.
define amdgpu_kernel void @dot2_splat(ptr addrspace(3) %p) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr <2 x half>, ptr addrspace(3) %p, i32 %tid
  %a = load <2 x half>, ptr addrspace(3) %q
  %r = call float @llvm.amdgcn.fdot2(<2 x half> %a, <2 x half> <half 1.0, half 1.0>, float 0.0, i1 true)
  %o = getelementptr float, ptr addrspace(3) %p, i32 %tid
  store float %r, ptr addrspace(3) %o
  ret void
}
declare float @llvm.amdgcn.fdot2(<2 x half>, <2 x half>, float, i1)
declare i32 @llvm.amdgcn.workitem.id.x()
