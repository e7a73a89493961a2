; Written for gcnsmt (issue 28, tv --pipeline): raw buffer loads and stores through a V#
; (offen and soffset forms, a dwordx2 load), scaled and stored to a second buffer.
define amdgpu_kernel void @buffer_scale(ptr addrspace(8) %src, ptr addrspace(8) %dst, i32 %soff, i32 %k) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %off = shl i32 %tid, 3
  %v2 = call <2 x i32> @llvm.amdgcn.raw.ptr.buffer.load.v2i32(ptr addrspace(8) %src, i32 %off, i32 %soff, i32 0)
  %x = extractelement <2 x i32> %v2, i32 0
  %y = extractelement <2 x i32> %v2, i32 1
  %off4 = add i32 %off, 16
  %z = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %src, i32 %off4, i32 0, i32 0)
  %xs = mul i32 %x, %k
  %ys = add i32 %y, %z
  call void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32 %xs, ptr addrspace(8) %dst, i32 %off, i32 0, i32 0)
  %off1 = add i32 %off, 4
  call void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32 %ys, ptr addrspace(8) %dst, i32 %off1, i32 0, i32 0)
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare <2 x i32> @llvm.amdgcn.raw.ptr.buffer.load.v2i32(ptr addrspace(8), i32, i32, i32)
declare i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8), i32, i32, i32)
declare void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32, ptr addrspace(8), i32, i32, i32)
