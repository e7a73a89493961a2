; Our own kernel in the shape of llvm/llvm-project#168458 (gfx1250): a v_pk_add_f32 whose
; second source is the 64-bit constant <1.0, 2.0> (0x40000000_3F800000). On this target a
; packed f32 instruction reads only 32 bits of a scalar or literal operand and replicates
; them to both halves, so the constant may be folded only if its two halves are equal; the
; buggy si-fold-operands folded it anyway, and the high lane added 1.0 instead of 2.0.
define amdgpu_kernel void @pk_add_f32(ptr addrspace(1) %p) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr <2 x float>, ptr addrspace(1) %p, i32 %tid
  %a = load <2 x float>, ptr addrspace(1) %q
  %r = fadd <2 x float> %a, <float 1.0, float 2.0>
  store <2 x float> %r, ptr addrspace(1) %q
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
