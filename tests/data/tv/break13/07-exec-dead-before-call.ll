target triple = "amdgcn-amd-amdhsa"
declare void @f(i32)
define amdgpu_kernel void @k(i32 %a) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %c = icmp eq i32 %id, %a
  br i1 %c, label %t, label %j
t:
  call void asm sideeffect "; nothing", ""()
  br label %j
j:
  call void @f(i32 %id)
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
