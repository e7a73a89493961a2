define amdgpu_kernel void @acq(ptr addrspace(1) %p, ptr addrspace(1) %q, ptr addrspace(1) %flag, i32 %c) {
  %f = load atomic i32, ptr addrspace(1) %flag syncscope("agent") acquire, align 4
  %t = icmp eq i32 %c, 0
  br i1 %t, label %x, label %y
x:
  %v = load i32, ptr addrspace(1) %p
  store i32 %v, ptr addrspace(1) %q
  ret void
y:
  store i32 %f, ptr addrspace(1) %q
  ret void
}
