define amdgpu_kernel void @k(ptr addrspace(1) %p) {
  %f = call i1 @llvm.amdgcn.s.barrier.signal.isfirst(i32 -1)
  br i1 %f, label %t, label %e
t:
  store i32 1, ptr addrspace(1) %p
  br label %e
e:
  ret void
}
declare i1 @llvm.amdgcn.s.barrier.signal.isfirst(i32)
