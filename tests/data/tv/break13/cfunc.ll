target triple = "amdgcn-amd-amdhsa"
define void @g(i32 %x, i32 %y, ptr addrspace(1) %p) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %c = icmp eq i32 %id, %x
  br i1 %c, label %t, label %e
t:
  %a = add i32 %x, %y
  %m = mul i32 %a, 3
  store i32 %m, ptr addrspace(1) %p
  br label %j
e:
  %b = sub i32 %y, %x
  %q = getelementptr i32, ptr addrspace(1) %p, i32 1
  store i32 %b, ptr addrspace(1) %q
  br label %j
j:
  %v = phi i32 [ %m, %t ], [ %b, %e ]
  %w = shl i32 %v, 2
  %r = getelementptr i32, ptr addrspace(1) %p, i32 2
  store i32 %w, ptr addrspace(1) %r
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
