define amdgpu_kernel void @fl(ptr %p, ptr addrspace(1) %q) {
  %v = load i32, ptr %p
  %w = add i32 %v, 1
  store i32 %w, ptr addrspace(1) %q
  ret void
}
