target triple = "amdgcn-amd-amdhsa"
@lds = internal addrspace(3) global [256 x i64] poison
define amdgpu_kernel void @k24(ptr addrspace(1) %out, i32 %off) {
  %p = getelementptr i8, ptr addrspace(3) @lds, i32 %off
  %v = load i64, ptr addrspace(3) %p, align 8
  store i64 %v, ptr addrspace(1) %out
  ret void
}
