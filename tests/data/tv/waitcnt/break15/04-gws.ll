define amdgpu_kernel void @k(i32 %val, i32 %id) {
  call void @llvm.amdgcn.ds.gws.barrier(i32 %val, i32 %id)
  ret void
}
declare void @llvm.amdgcn.ds.gws.barrier(i32, i32)
