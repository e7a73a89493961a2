define amdgpu_kernel void @add64(ptr addrspace(1) %p, i64 %a, i64 %b) {
  %s = add i64 %a, %b
  store i64 %s, ptr addrspace(1) %p
  ret void
}
define amdgpu_kernel void @sub64(ptr addrspace(1) %p, i64 %a, i64 %b) {
  %s = sub i64 %a, %b
  store i64 %s, ptr addrspace(1) %p
  ret void
}
define amdgpu_kernel void @addimm(ptr addrspace(1) %p, i64 %a) {
  %s = add i64 %a, -4294967301
  store i64 %s, ptr addrspace(1) %p
  ret void
}
define amdgpu_kernel void @sopk(ptr addrspace(1) %p, i32 %x) {
  %a = mul i32 %x, -300
  %b = add i32 %a, 4000
  store i32 %b, ptr addrspace(1) %p
  ret void
}
