define amdgpu_kernel void @smneg(ptr addrspace(4) %p, ptr addrspace(1) %q) {
  %p1 = getelementptr inbounds i32, ptr addrspace(4) %p, i64 -1
  %a = load i32, ptr addrspace(4) %p1
  store i32 %a, ptr addrspace(1) %q
  ret void
}
