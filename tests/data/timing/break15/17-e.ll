define amdgpu_ps void @ps(float %a, float %b, i32 %c) {
  call void @llvm.amdgcn.exp.f32(i32 0, i32 15, float %a, float %b, float %a, float %b, i1 false, i1 false)
  %cc = icmp eq i32 %c, 0
  br i1 %cc, label %t, label %e
t:
  call void @llvm.amdgcn.exp.f32(i32 1, i32 15, float %b, float %a, float %b, float %a, i1 true, i1 true)
  ret void
e:
  ret void
}
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
