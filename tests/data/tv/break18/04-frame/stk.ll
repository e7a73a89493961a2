target triple = "amdgcn-amd-amdhsa"
; a[j] = 7; b[i] = 9; out = a[j].  a and b are distinct allocas, so out == 7 always.
define amdgpu_kernel void @stk(ptr addrspace(1) %out, i32 %i, i32 %j) {
entry:
  %a = alloca [4 x i32], align 4, addrspace(5)
  %b = alloca [4 x i32], align 4, addrspace(5)
  %pa = getelementptr [4 x i32], ptr addrspace(5) %a, i32 0, i32 %j
  store volatile i32 7, ptr addrspace(5) %pa
  %pb = getelementptr [4 x i32], ptr addrspace(5) %b, i32 0, i32 %i
  store volatile i32 9, ptr addrspace(5) %pb
  %x = load volatile i32, ptr addrspace(5) %pa
  store i32 %x, ptr addrspace(1) %out
  ret void
}
