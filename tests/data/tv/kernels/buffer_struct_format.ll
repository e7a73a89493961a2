; Written for gcnsmt (issue 28, tv --pipeline): structured buffers (idxen: a per-lane record
; index, the V# stride scaling it) and format loads/stores (the V#'s data format converts),
; as a vertex fetch or a typed-buffer kernel compiles: struct loads of a record's fields,
; a `load.format` of four channels, and `store.format` of the result.
define amdgpu_kernel void @buffer_struct_format(ptr addrspace(8) inreg %recs, ptr addrspace(8) inreg %typed, ptr addrspace(8) inreg %out, i32 inreg %soff) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %wg = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %wg, 6
  %idx = add i32 %base, %tid
  %pos = call <2 x float> @llvm.amdgcn.struct.ptr.buffer.load.v2f32(ptr addrspace(8) %recs, i32 %idx, i32 0, i32 %soff, i32 0)
  %wgt = call float @llvm.amdgcn.struct.ptr.buffer.load.f32(ptr addrspace(8) %recs, i32 %idx, i32 8, i32 %soff, i32 0)
  %tag = call i32 @llvm.amdgcn.struct.ptr.buffer.load.i32(ptr addrspace(8) %recs, i32 %idx, i32 12, i32 %soff, i32 0)
  %tex = call <4 x float> @llvm.amdgcn.struct.ptr.buffer.load.format.v4f32(ptr addrspace(8) %typed, i32 %tag, i32 0, i32 0, i32 0)
  %rawf = call <2 x float> @llvm.amdgcn.raw.ptr.buffer.load.format.v2f32(ptr addrspace(8) %typed, i32 %tag, i32 16, i32 0)
  %px = extractelement <2 x float> %pos, i32 0
  %py = extractelement <2 x float> %pos, i32 1
  %rx = extractelement <2 x float> %rawf, i32 0
  %ry = extractelement <2 x float> %rawf, i32 1
  %t0 = extractelement <4 x float> %tex, i32 0
  %t1 = extractelement <4 x float> %tex, i32 1
  %t2 = extractelement <4 x float> %tex, i32 2
  %t3 = extractelement <4 x float> %tex, i32 3
  %a = call float @llvm.fma.f32(float %px, float %wgt, float %t0)
  %b = call float @llvm.fma.f32(float %py, float %wgt, float %t1)
  %c = fadd float %t2, %rx
  %d = fmul float %t3, %ry
  %v0 = insertelement <4 x float> poison, float %a, i32 0
  %v1 = insertelement <4 x float> %v0, float %b, i32 1
  %v2 = insertelement <4 x float> %v1, float %c, i32 2
  %v3 = insertelement <4 x float> %v2, float %d, i32 3
  call void @llvm.amdgcn.struct.ptr.buffer.store.format.v4f32(<4 x float> %v3, ptr addrspace(8) %out, i32 %idx, i32 0, i32 0, i32 0)
  %sum = fadd float %a, %b
  call void @llvm.amdgcn.struct.ptr.buffer.store.f32(float %sum, ptr addrspace(8) %recs, i32 %idx, i32 8, i32 %soff, i32 0)
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare <2 x float> @llvm.amdgcn.struct.ptr.buffer.load.v2f32(ptr addrspace(8), i32, i32, i32, i32)
declare float @llvm.amdgcn.struct.ptr.buffer.load.f32(ptr addrspace(8), i32, i32, i32, i32)
declare i32 @llvm.amdgcn.struct.ptr.buffer.load.i32(ptr addrspace(8), i32, i32, i32, i32)
declare <4 x float> @llvm.amdgcn.struct.ptr.buffer.load.format.v4f32(ptr addrspace(8), i32, i32, i32, i32)
declare <2 x float> @llvm.amdgcn.raw.ptr.buffer.load.format.v2f32(ptr addrspace(8), i32, i32, i32)
declare void @llvm.amdgcn.struct.ptr.buffer.store.format.v4f32(<4 x float>, ptr addrspace(8), i32, i32, i32, i32)
declare void @llvm.amdgcn.struct.ptr.buffer.store.f32(float, ptr addrspace(8), i32, i32, i32, i32)
declare float @llvm.fma.f32(float, float, float)
