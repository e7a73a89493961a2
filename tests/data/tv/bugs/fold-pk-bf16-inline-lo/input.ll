; Our own kernel in the shape of llvm/llvm-project#209861 (gfx1250): v_pk_add_bf16 with the
; splat <1.0, 1.0> (bf16 0x3F80 in both halves). On gfx1250 a packed bf16 instruction gets an
; inline constant in its upper 16 bits, so a folded inline constant must select the upper
; half with op_sel for both lanes; the pass folded it with op_sel/op_sel_hi clear, reading
; the lower 16 bits.
define amdgpu_kernel void @pk_add_bf16(ptr addrspace(1) %p) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr <2 x bfloat>, ptr addrspace(1) %p, i32 %tid
  %a = load <2 x bfloat>, ptr addrspace(1) %q
  %r = fadd <2 x bfloat> %a, <bfloat 1.0, bfloat 1.0>
  store <2 x bfloat> %r, ptr addrspace(1) %q
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
