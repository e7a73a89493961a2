define amdgpu_kernel void @mad(ptr addrspace(1) %p, i32 %a, i32 %b, i64 %c) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i64, ptr addrspace(1) %p, i32 %tid
  %x = load i64, ptr addrspace(1) %q
  %xa = trunc i64 %x to i32
  %ax = zext i32 %xa to i64
  %bx = zext i32 %tid to i64
  %m = mul i64 %ax, %bx
  %r = add i64 %m, %x
  store i64 %r, ptr addrspace(1) %q
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
