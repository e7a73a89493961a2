define amdgpu_ps void @swz_pair(ptr addrspace(8) inreg %r, i32 %o, ptr addrspace(1) %out) {
  %v0 = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %r, i32 %o, i32 0, i32 8)
  %o1 = add i32 %o, 4
  %v1 = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %r, i32 %o1, i32 0, i32 8)
  %s = add i32 %v0, %v1
  store i32 %s, ptr addrspace(1) %out
  ret void
}
declare i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8), i32, i32, i32 immarg)
