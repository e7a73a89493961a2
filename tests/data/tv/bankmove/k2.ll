; A uniform constant copied into a VGPR operand (V_XAD_U32 of 7) in bb.0, then a divergent
; `if` and a loop that reads a value made from the constant in other blocks.
define amdgpu_kernel void @k2(ptr addrspace(1) %out, ptr addrspace(1) %in, float %a, float %b, i32 %n) {
entry:
  %s = fadd float %a, %b
  %i = fptosi float %s to i32
  %j = shl i32 %i, 2
  %k = add i32 %j, %n
  %m = xor i32 %k, 7
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %idx = add i32 %tid, %m
  %p = getelementptr i32, ptr addrspace(1) %in, i32 %idx
  %v = load i32, ptr addrspace(1) %p, align 4
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  %c = icmp ult i32 %tid, %n
  br i1 %c, label %then, label %done
then:
  %w = mul i32 %v, 3
  store i32 %w, ptr addrspace(1) %q, align 4
  br label %done
done:
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
