; Our own kernel in the shape of llvm/llvm-project#139317: a packed f16 add of a
; non-splat constant pair (2.0, 3.0) that is not an inline constant; si-fold-operands
; must keep it in a register (or fold it exactly), not fold it as 0.
define amdgpu_kernel void @pk_step(ptr addrspace(3) %p) {
  %v = load <2 x half>, ptr addrspace(3) %p, align 4
  %r = fadd <2 x half> %v, <half 2.0, half 3.0>
  store <2 x half> %r, ptr addrspace(3) %p, align 4
  ret void
}
