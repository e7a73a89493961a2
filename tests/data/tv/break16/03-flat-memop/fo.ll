define amdgpu_kernel void @fo(ptr %p, ptr addrspace(1) %q) {
  %g = getelementptr i8, ptr %p, i64 16
  %v = load i32, ptr %g, align 4
  store i32 %v, ptr addrspace(1) %q
  ret void
}
