declare i32 @cf(ptr addrspace(1) inreg)
define amdgpu_kernel void @k(ptr addrspace(1) %p, ptr addrspace(1) %out) {
  %old = load i32, ptr addrspace(1) %p, align 4
  %new = add i32 %old, 1
  store i32 %new, ptr addrspace(1) %p, align 4
  %v = call i32 @cf(ptr addrspace(1) inreg %p)
  store i32 %v, ptr addrspace(1) %out
  ret void
}
