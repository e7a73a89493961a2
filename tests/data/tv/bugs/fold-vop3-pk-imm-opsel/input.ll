; Our own kernel in the shape of llvm/llvm-project#142142 (gfx950): a VOP3 (not VOP3P)
; v_cvt_scalef32_pk_fp8_f16 whose packed source is the constant <1.0, 2.0> (0x40003C00,
; materialized in an SGPR). VOP3 instructions ignore the op_sel source modifiers, so the
; constant cannot become an inline immediate with op_sel picking its halves; before the
; fix si-fold-operands folded it anyway and the 2.0 half was lost.
define amdgpu_kernel void @cvt_pk_fp8(ptr addrspace(3) %p, float %scale) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr <2 x i16>, ptr addrspace(3) %p, i32 %tid
  %old = load <2 x i16>, ptr addrspace(3) %q
  %r = call <2 x i16> @llvm.amdgcn.cvt.scalef32.pk.fp8.f16(<2 x i16> %old, <2 x half> <half 1.0, half 2.0>, float %scale, i1 false)
  store <2 x i16> %r, ptr addrspace(3) %q
  ret void
}
declare <2 x i16> @llvm.amdgcn.cvt.scalef32.pk.fp8.f16(<2 x i16>, <2 x half>, float, i1)
declare i32 @llvm.amdgcn.workitem.id.x()
