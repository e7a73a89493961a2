declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k2(ptr addrspace(1) %p, ptr addrspace(1) %q, i32 %m) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %gep = getelementptr i32, ptr addrspace(1) %p, i32 %id
  %v = load i32, ptr addrspace(1) %gep
  %c = icmp ult i32 %id, %m
  br i1 %c, label %a, label %b
a:
  %s2 = mul i32 %v, 3
  br label %b
b:
  %r = phi i32 [ %v, %entry ], [ %s2, %a ]
  %g2 = getelementptr i32, ptr addrspace(1) %q, i32 %id
  store i32 %r, ptr addrspace(1) %g2
  ret void
}
