define amdgpu_kernel void @mix(ptr addrspace(1) %out, ptr addrspace(1) %in, ptr addrspace(3) %lds, i32 %n) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p0 = getelementptr i32, ptr addrspace(1) %in, i32 %tid
  %a = load i32, ptr addrspace(1) %p0
  %p1 = getelementptr i32, ptr addrspace(1) %p0, i32 256
  %b = load i32, ptr addrspace(1) %p1
  %p2 = getelementptr i32, ptr addrspace(1) %p0, i32 512
  %c = load i32, ptr addrspace(1) %p2
  %l0 = getelementptr i32, ptr addrspace(3) %lds, i32 %tid
  store i32 %a, ptr addrspace(3) %l0
  call void @llvm.amdgcn.s.barrier()
  %t1 = add i32 %tid, 1
  %l1 = getelementptr i32, ptr addrspace(3) %lds, i32 %t1
  %x = load i32, ptr addrspace(3) %l1
  %t2 = add i32 %tid, 2
  %l2 = getelementptr i32, ptr addrspace(3) %lds, i32 %t2
  %y = load i32, ptr addrspace(3) %l2
  %s1 = add i32 %x, %b
  %s2 = mul i32 %s1, %y
  %s3 = add i32 %s2, %c
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %s3, ptr addrspace(1) %o
  %o2 = getelementptr i32, ptr addrspace(1) %o, i32 1024
  store i32 %s1, ptr addrspace(1) %o2
  %cmp = icmp sgt i32 %n, %tid
  br i1 %cmp, label %then, label %end
then:
  %z = load i32, ptr addrspace(1) %o2
  %z1 = add i32 %z, %s3
  store i32 %z1, ptr addrspace(1) %p0
  br label %end
end:
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()
