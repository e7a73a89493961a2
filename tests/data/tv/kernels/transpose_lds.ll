; Written for gcnsmt (issue 28, tv --pipeline): a matrix transpose through a 32x33 LDS tile
; (one column of padding so the column reads hit 32 different banks); work-group 32x8, each
; work-item moves four elements (rows ty, ty+8, ty+16, ty+24), a barrier between the tile's
; write and its transposed read. %n is the matrix side (a multiple of 32).
@tile = internal addrspace(3) global [32 x [33 x float]] poison, align 4

define amdgpu_kernel void @transpose_lds(ptr addrspace(1) noalias %out, ptr addrspace(1) noalias readonly %in, i32 %n) #0 {
entry:
  %tx = call i32 @llvm.amdgcn.workitem.id.x()
  %ty = call i32 @llvm.amdgcn.workitem.id.y()
  %bx = call i32 @llvm.amdgcn.workgroup.id.x()
  %by = call i32 @llvm.amdgcn.workgroup.id.y()
  %bx32 = shl i32 %bx, 5
  %by32 = shl i32 %by, 5
  %x = add i32 %bx32, %tx
  %y = add i32 %by32, %ty
  %n64 = zext i32 %n to i64
  %x64 = zext i32 %x to i64
  %y64 = zext i32 %y to i64
  %r0 = mul i64 %y64, %n64
  %i0 = add i64 %r0, %x64
  %n8 = shl i64 %n64, 3
  %i1 = add i64 %i0, %n8
  %i2 = add i64 %i1, %n8
  %i3 = add i64 %i2, %n8
  %p0 = getelementptr inbounds float, ptr addrspace(1) %in, i64 %i0
  %p1 = getelementptr inbounds float, ptr addrspace(1) %in, i64 %i1
  %p2 = getelementptr inbounds float, ptr addrspace(1) %in, i64 %i2
  %p3 = getelementptr inbounds float, ptr addrspace(1) %in, i64 %i3
  %v0 = load float, ptr addrspace(1) %p0, align 4
  %v1 = load float, ptr addrspace(1) %p1, align 4
  %v2 = load float, ptr addrspace(1) %p2, align 4
  %v3 = load float, ptr addrspace(1) %p3, align 4
  %ty1 = add nuw nsw i32 %ty, 8
  %ty2 = add nuw nsw i32 %ty, 16
  %ty3 = add nuw nsw i32 %ty, 24
  %l0 = getelementptr [32 x [33 x float]], ptr addrspace(3) @tile, i32 0, i32 %ty, i32 %tx
  %l1 = getelementptr [32 x [33 x float]], ptr addrspace(3) @tile, i32 0, i32 %ty1, i32 %tx
  %l2 = getelementptr [32 x [33 x float]], ptr addrspace(3) @tile, i32 0, i32 %ty2, i32 %tx
  %l3 = getelementptr [32 x [33 x float]], ptr addrspace(3) @tile, i32 0, i32 %ty3, i32 %tx
  store float %v0, ptr addrspace(3) %l0, align 4
  store float %v1, ptr addrspace(3) %l1, align 4
  store float %v2, ptr addrspace(3) %l2, align 4
  store float %v3, ptr addrspace(3) %l3, align 4
  call void @llvm.amdgcn.s.barrier()
  %m0 = getelementptr [32 x [33 x float]], ptr addrspace(3) @tile, i32 0, i32 %tx, i32 %ty
  %m1 = getelementptr [32 x [33 x float]], ptr addrspace(3) @tile, i32 0, i32 %tx, i32 %ty1
  %m2 = getelementptr [32 x [33 x float]], ptr addrspace(3) @tile, i32 0, i32 %tx, i32 %ty2
  %m3 = getelementptr [32 x [33 x float]], ptr addrspace(3) @tile, i32 0, i32 %tx, i32 %ty3
  %w0 = load float, ptr addrspace(3) %m0, align 4
  %w1 = load float, ptr addrspace(3) %m1, align 4
  %w2 = load float, ptr addrspace(3) %m2, align 4
  %w3 = load float, ptr addrspace(3) %m3, align 4
  %ox = add i32 %by32, %tx
  %oy = add i32 %bx32, %ty
  %ox64 = zext i32 %ox to i64
  %oy64 = zext i32 %oy to i64
  %o0r = mul i64 %oy64, %n64
  %o0 = add i64 %o0r, %ox64
  %o1 = add i64 %o0, %n8
  %o2 = add i64 %o1, %n8
  %o3 = add i64 %o2, %n8
  %q0 = getelementptr inbounds float, ptr addrspace(1) %out, i64 %o0
  %q1 = getelementptr inbounds float, ptr addrspace(1) %out, i64 %o1
  %q2 = getelementptr inbounds float, ptr addrspace(1) %out, i64 %o2
  %q3 = getelementptr inbounds float, ptr addrspace(1) %out, i64 %o3
  store float %w0, ptr addrspace(1) %q0, align 4
  store float %w1, ptr addrspace(1) %q1, align 4
  store float %w2, ptr addrspace(1) %q2, align 4
  store float %w3, ptr addrspace(1) %q3, align 4
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workitem.id.y()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.workgroup.id.y()
declare void @llvm.amdgcn.s.barrier()

attributes #0 = { "amdgpu-flat-work-group-size"="256,256" }
