; Written for gcnsmt (issue 28, tv --pipeline): C = A * B for row-major float matrices of
; side %n (a multiple of 16), 16x16 tiles of A and B staged in LDS, a barrier after each tile
; load and after each tile's 16 fused multiply-adds (unrolled by 4, as -O3 would), as a
; HIP "shared memory" matmul compiles. Work-group 16x16 (workitem.id.x and .y).
@tile_a = internal addrspace(3) global [16 x [16 x float]] poison, align 16
@tile_b = internal addrspace(3) global [16 x [16 x float]] poison, align 16

define amdgpu_kernel void @gemm_tiled(ptr addrspace(1) noalias %c, ptr addrspace(1) noalias readonly %a, ptr addrspace(1) noalias readonly %b, i32 %n) #0 {
entry:
  %tx = call i32 @llvm.amdgcn.workitem.id.x()
  %ty = call i32 @llvm.amdgcn.workitem.id.y()
  %bx = call i32 @llvm.amdgcn.workgroup.id.x()
  %by = call i32 @llvm.amdgcn.workgroup.id.y()
  %col0 = shl i32 %bx, 4
  %col = add i32 %col0, %tx
  %row0 = shl i32 %by, 4
  %row = add i32 %row0, %ty
  %ntiles = lshr i32 %n, 4
  %rown = mul i32 %row, %n
  %la = getelementptr [16 x [16 x float]], ptr addrspace(3) @tile_a, i32 0, i32 %ty, i32 %tx
  %lb = getelementptr [16 x [16 x float]], ptr addrspace(3) @tile_b, i32 0, i32 %ty, i32 %tx
  %has = icmp ne i32 %ntiles, 0
  br i1 %has, label %tile, label %store

tile:
  %t = phi i32 [ 0, %entry ], [ %t.next, %kloop.end ]
  %acc = phi float [ 0.0, %entry ], [ %acc4, %kloop.end ]
  %t16 = shl i32 %t, 4
  %acol = add i32 %t16, %tx
  %aidx = add i32 %rown, %acol
  %aidx64 = zext i32 %aidx to i64
  %pa = getelementptr inbounds float, ptr addrspace(1) %a, i64 %aidx64
  %va = load float, ptr addrspace(1) %pa, align 4
  store float %va, ptr addrspace(3) %la, align 4
  %brow = add i32 %t16, %ty
  %brown = mul i32 %brow, %n
  %bidx = add i32 %brown, %col
  %bidx64 = zext i32 %bidx to i64
  %pb = getelementptr inbounds float, ptr addrspace(1) %b, i64 %bidx64
  %vb = load float, ptr addrspace(1) %pb, align 4
  store float %vb, ptr addrspace(3) %lb, align 4
  call void @llvm.amdgcn.s.barrier()
  br label %kloop

kloop:
  %k = phi i32 [ 0, %tile ], [ %k.next, %kloop ]
  %s = phi float [ %acc, %tile ], [ %acc4, %kloop ]
  %pa0 = getelementptr [16 x [16 x float]], ptr addrspace(3) @tile_a, i32 0, i32 %ty, i32 %k
  %pb0 = getelementptr [16 x [16 x float]], ptr addrspace(3) @tile_b, i32 0, i32 %k, i32 %tx
  %a0 = load float, ptr addrspace(3) %pa0, align 4
  %b0 = load float, ptr addrspace(3) %pb0, align 4
  %acc1 = call float @llvm.fma.f32(float %a0, float %b0, float %s)
  %k1 = add nuw nsw i32 %k, 1
  %pa1 = getelementptr [16 x [16 x float]], ptr addrspace(3) @tile_a, i32 0, i32 %ty, i32 %k1
  %pb1 = getelementptr [16 x [16 x float]], ptr addrspace(3) @tile_b, i32 0, i32 %k1, i32 %tx
  %a1 = load float, ptr addrspace(3) %pa1, align 4
  %b1 = load float, ptr addrspace(3) %pb1, align 4
  %acc2 = call float @llvm.fma.f32(float %a1, float %b1, float %acc1)
  %k2 = add nuw nsw i32 %k, 2
  %pa2 = getelementptr [16 x [16 x float]], ptr addrspace(3) @tile_a, i32 0, i32 %ty, i32 %k2
  %pb2 = getelementptr [16 x [16 x float]], ptr addrspace(3) @tile_b, i32 0, i32 %k2, i32 %tx
  %a2 = load float, ptr addrspace(3) %pa2, align 4
  %b2 = load float, ptr addrspace(3) %pb2, align 4
  %acc3 = call float @llvm.fma.f32(float %a2, float %b2, float %acc2)
  %k3 = add nuw nsw i32 %k, 3
  %pa3 = getelementptr [16 x [16 x float]], ptr addrspace(3) @tile_a, i32 0, i32 %ty, i32 %k3
  %pb3 = getelementptr [16 x [16 x float]], ptr addrspace(3) @tile_b, i32 0, i32 %k3, i32 %tx
  %a3 = load float, ptr addrspace(3) %pa3, align 4
  %b3 = load float, ptr addrspace(3) %pb3, align 4
  %acc4 = call float @llvm.fma.f32(float %a3, float %b3, float %acc3)
  %k.next = add nuw nsw i32 %k, 4
  %kdone = icmp eq i32 %k.next, 16
  br i1 %kdone, label %kloop.end, label %kloop

kloop.end:
  call void @llvm.amdgcn.s.barrier()
  %t.next = add nuw i32 %t, 1
  %tdone = icmp eq i32 %t.next, %ntiles
  br i1 %tdone, label %store, label %tile

store:
  %r = phi float [ 0.0, %entry ], [ %acc4, %kloop.end ]
  %cidx = add i32 %rown, %col
  %cidx64 = zext i32 %cidx to i64
  %pc = getelementptr inbounds float, ptr addrspace(1) %c, i64 %cidx64
  store float %r, ptr addrspace(1) %pc, align 4
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workitem.id.y()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.workgroup.id.y()
declare void @llvm.amdgcn.s.barrier()
declare float @llvm.fma.f32(float, float, float)

attributes #0 = { "amdgpu-flat-work-group-size"="256,256" }
