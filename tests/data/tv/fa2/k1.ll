declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()
@lds = internal addrspace(3) global [256 x i32] poison
define amdgpu_kernel void @k1(ptr addrspace(1) %p, ptr addrspace(1) %q, i64 %n, i32 %m) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %gep = getelementptr i32, ptr addrspace(1) %p, i32 %id
  %v = load i32, ptr addrspace(1) %gep
  %l = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %id
  store i32 %v, ptr addrspace(3) %l
  call void @llvm.amdgcn.s.barrier()
  %id2 = xor i32 %id, 1
  %l2 = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %id2
  %w = load i32, ptr addrspace(3) %l2
  %n2 = add i64 %n, 12345678901
  %t = trunc i64 %n2 to i32
  %s = add i32 %w, %t
  %c = icmp ult i32 %id, %m
  br i1 %c, label %a, label %b
a:
  %s2 = mul i32 %s, 3
  br label %b
b:
  %r = phi i32 [ %s, %entry ], [ %s2, %a ]
  %g2 = getelementptr i32, ptr addrspace(1) %q, i32 %id
  store i32 %r, ptr addrspace(1) %g2
  ret void
}
