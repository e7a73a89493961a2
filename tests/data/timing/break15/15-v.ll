define amdgpu_kernel void @k(ptr addrspace(1) %out, float %a, float %b) {
  %c = fcmp oeq float %a, %b
  br i1 %c, label %t, label %e
t:
  store i32 1, ptr addrspace(1) %out
  br label %e
e:
  ret void
}
