define amdgpu_ps void @init_exec_wqm(ptr addrspace(8) inreg %buf, float %a, float %b, i32 %idx) {
main_body:
  call void @llvm.amdgcn.init.exec(i64 -1)
  %s = fadd float %a, %b
  %w = call float @llvm.amdgcn.wqm.f32(float %s)
  call void @llvm.amdgcn.struct.ptr.buffer.store.f32(float %w, ptr addrspace(8) %buf, i32 %idx, i32 0, i32 0, i32 0)
  ret void
}
declare void @llvm.amdgcn.init.exec(i64)
declare float @llvm.amdgcn.wqm.f32(float)
declare void @llvm.amdgcn.struct.ptr.buffer.store.f32(float, ptr addrspace(8), i32, i32, i32, i32)
