; Written for gcnsmt (issue 28, tv --pipeline): raw buffer accesses of every width through
; two V#s (kernel arguments): ubyte/ushort/dword/dwordx3/dwordx4 loads at immediate offsets
; on top of a per-lane voffset and a uniform soffset, glc/slc cache-policy bits, a buffer
; atomic add, and stores of the combined values.
define amdgpu_kernel void @buffer_raw_mixed(ptr addrspace(8) inreg %src, ptr addrspace(8) inreg %dst, i32 inreg %soff) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %off = shl i32 %tid, 4
  %b = call i8 @llvm.amdgcn.raw.ptr.buffer.load.i8(ptr addrspace(8) %src, i32 %off, i32 %soff, i32 0)
  %off2 = add i32 %off, 2
  %h = call i16 @llvm.amdgcn.raw.ptr.buffer.load.i16(ptr addrspace(8) %src, i32 %off2, i32 %soff, i32 0)
  %off4 = add i32 %off, 4
  %w = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %src, i32 %off4, i32 %soff, i32 1)
  %off16 = add i32 %off, 4096
  %v3 = call <3 x i32> @llvm.amdgcn.raw.ptr.buffer.load.v3i32(ptr addrspace(8) %src, i32 %off16, i32 0, i32 0)
  %v4 = call <4 x float> @llvm.amdgcn.raw.ptr.buffer.load.v4f32(ptr addrspace(8) %src, i32 %off, i32 64, i32 2)
  %bz = zext i8 %b to i32
  %hz = sext i16 %h to i32
  %e0 = extractelement <3 x i32> %v3, i32 0
  %e1 = extractelement <3 x i32> %v3, i32 1
  %e2 = extractelement <3 x i32> %v3, i32 2
  %s0 = add i32 %bz, %hz
  %s1 = xor i32 %w, %e0
  %s2 = sub i32 %e1, %e2
  %s3 = add i32 %s0, %s1
  %r = add i32 %s3, %s2
  call void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32 %r, ptr addrspace(8) %dst, i32 %off, i32 %soff, i32 0)
  %f = fmul <4 x float> %v4, <float 2.0, float 2.0, float 2.0, float 2.0>
  %offf = add i32 %off, 256
  call void @llvm.amdgcn.raw.ptr.buffer.store.v4f32(<4 x float> %f, ptr addrspace(8) %dst, i32 %offf, i32 0, i32 0)
  %t8 = trunc i32 %r to i8
  %off1 = add i32 %off, 1
  call void @llvm.amdgcn.raw.ptr.buffer.store.i8(i8 %t8, ptr addrspace(8) %dst, i32 %off1, i32 %soff, i32 0)
  %t16 = trunc i32 %s2 to i16
  call void @llvm.amdgcn.raw.ptr.buffer.store.i16(i16 %t16, ptr addrspace(8) %dst, i32 %off2, i32 %soff, i32 0)
  %old = call i32 @llvm.amdgcn.raw.ptr.buffer.atomic.add.i32(i32 %r, ptr addrspace(8) %dst, i32 0, i32 %soff, i32 0)
  %off8 = add i32 %off, 8
  call void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32 %old, ptr addrspace(8) %dst, i32 %off8, i32 %soff, i32 0)
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i8 @llvm.amdgcn.raw.ptr.buffer.load.i8(ptr addrspace(8), i32, i32, i32)
declare i16 @llvm.amdgcn.raw.ptr.buffer.load.i16(ptr addrspace(8), i32, i32, i32)
declare i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8), i32, i32, i32)
declare <3 x i32> @llvm.amdgcn.raw.ptr.buffer.load.v3i32(ptr addrspace(8), i32, i32, i32)
declare <4 x float> @llvm.amdgcn.raw.ptr.buffer.load.v4f32(ptr addrspace(8), i32, i32, i32)
declare void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32, ptr addrspace(8), i32, i32, i32)
declare void @llvm.amdgcn.raw.ptr.buffer.store.v4f32(<4 x float>, ptr addrspace(8), i32, i32, i32)
declare void @llvm.amdgcn.raw.ptr.buffer.store.i8(i8, ptr addrspace(8), i32, i32, i32)
declare void @llvm.amdgcn.raw.ptr.buffer.store.i16(i16, ptr addrspace(8), i32, i32, i32)
declare i32 @llvm.amdgcn.raw.ptr.buffer.atomic.add.i32(i32, ptr addrspace(8), i32, i32, i32)
