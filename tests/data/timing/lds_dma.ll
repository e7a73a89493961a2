; LDS-DMA loads then DS reads of the same LDS array (for gcnsmt waitcnt / tv tests).
@lds = internal addrspace(3) global [256 x i32] poison, align 4

declare void @llvm.amdgcn.raw.buffer.load.lds(<4 x i32>, ptr addrspace(3), i32, i32, i32, i32, i32)
declare i32 @llvm.amdgcn.workitem.id.x()

; One DMA, then every lane reads LDS.
define amdgpu_kernel void @dma_then_read(<4 x i32> %rsrc, ptr addrspace(1) %out) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %voff = shl i32 %tid, 2
  call void @llvm.amdgcn.raw.buffer.load.lds(<4 x i32> %rsrc, ptr addrspace(3) @lds, i32 4, i32 %voff, i32 0, i32 0, i32 0)
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  %v = load i32, ptr addrspace(3) %p
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %v, ptr addrspace(1) %q
  ret void
}

; An LDS read, a workgroup fence, then a DMA that overwrites LDS, then a read of the new data
; (the shape of llvm/llvm-project#207473, single-wave workgroup).
define amdgpu_kernel void @read_fence_dma(<4 x i32> %rsrc, ptr addrspace(1) %out) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %voff = shl i32 %tid, 2
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  %old = load i32, ptr addrspace(3) %p
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  call void @llvm.amdgcn.raw.buffer.load.lds(<4 x i32> %rsrc, ptr addrspace(3) @lds, i32 4, i32 %voff, i32 0, i32 0, i32 0)
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %new = load i32, ptr addrspace(3) %p
  %s = add i32 %old, %new
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %s, ptr addrspace(1) %q
  ret void
}
declare void @llvm.amdgcn.s.barrier()
attributes #0 = { "amdgpu-flat-work-group-size"="1,64" }
