define amdgpu_kernel void @sbuf(ptr addrspace(1) %out, <4 x i32> inreg %rsrc) {
  %a = call i32 @llvm.amdgcn.s.buffer.load.i32(<4 x i32> %rsrc, i32 16, i32 0)
  %b = call i32 @llvm.amdgcn.s.buffer.load.i32(<4 x i32> %rsrc, i32 20, i32 0)
  %c = add i32 %a, %b
  store i32 %c, ptr addrspace(1) %out
  ret void
}
define amdgpu_kernel void @kargs(ptr addrspace(1) %out, i32 %x, i32 %y, i32 %z) {
  %c = add i32 %x, %y
  %d = mul i32 %c, %z
  store i32 %d, ptr addrspace(1) %out
  ret void
}
define amdgpu_ps void @rawbuf(<4 x i32> inreg %rsrc, i32 %off, i32 inreg %soff) {
  %a = call i32 @llvm.amdgcn.raw.buffer.load.i32(<4 x i32> %rsrc, i32 %off, i32 %soff, i32 0)
  %off2 = add i32 %off, 4
  %b = call i32 @llvm.amdgcn.raw.buffer.load.i32(<4 x i32> %rsrc, i32 %off2, i32 %soff, i32 0)
  %c = add i32 %a, %b
  %off3 = add i32 %off, 64
  call void @llvm.amdgcn.raw.buffer.store.i32(i32 %c, <4 x i32> %rsrc, i32 %off3, i32 %soff, i32 0)
  ret void
}
define amdgpu_ps void @structbuf(<4 x i32> inreg %rsrc, i32 %idx, i32 %off, i32 inreg %soff) {
  %a = call i32 @llvm.amdgcn.struct.buffer.load.i32(<4 x i32> %rsrc, i32 %idx, i32 %off, i32 %soff, i32 0)
  %off2 = add i32 %off, 4
  %b = call i32 @llvm.amdgcn.struct.buffer.load.i32(<4 x i32> %rsrc, i32 %idx, i32 %off2, i32 %soff, i32 0)
  %c = add i32 %a, %b
  call void @llvm.amdgcn.struct.buffer.store.i32(i32 %c, <4 x i32> %rsrc, i32 %idx, i32 8, i32 %soff, i32 0)
  ret void
}
define amdgpu_ps void @constoff(<4 x i32> inreg %rsrc, i32 inreg %soff) {
  %a = call i32 @llvm.amdgcn.raw.buffer.load.i32(<4 x i32> %rsrc, i32 4000, i32 %soff, i32 0)
  %b = call i32 @llvm.amdgcn.raw.buffer.load.i32(<4 x i32> %rsrc, i32 5000, i32 %soff, i32 0)
  %c = add i32 %a, %b
  call void @llvm.amdgcn.raw.buffer.store.i32(i32 %c, <4 x i32> %rsrc, i32 8000, i32 0, i32 0)
  ret void
}
declare i32 @llvm.amdgcn.s.buffer.load.i32(<4 x i32>, i32, i32)
declare i32 @llvm.amdgcn.raw.buffer.load.i32(<4 x i32>, i32, i32, i32)
declare void @llvm.amdgcn.raw.buffer.store.i32(i32, <4 x i32>, i32, i32, i32)
declare i32 @llvm.amdgcn.struct.buffer.load.i32(<4 x i32>, i32, i32, i32, i32)
declare void @llvm.amdgcn.struct.buffer.store.i32(i32, <4 x i32>, i32, i32, i32, i32)
