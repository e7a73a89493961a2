; gcnsmt's own test input (tests/data/timing/README.md): an LDS-DMA load through
; llvm.amdgcn.global.load.lds into one LDS array, then a DS read of another array.
declare void @llvm.amdgcn.global.load.lds(ptr addrspace(1), ptr addrspace(3), i32, i32, i32)
@a = internal addrspace(3) global [64 x i32] poison, align 4
@b = internal addrspace(3) global [64 x i32] poison, align 4

define amdgpu_kernel void @dma_then_ds(ptr addrspace(1) %g, ptr addrspace(1) %out, i32 %i) {
  %p = getelementptr i32, ptr addrspace(3) @a, i32 %i
  %v = load i32, ptr addrspace(3) %p, align 4
  call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %g, ptr addrspace(3) @b, i32 4, i32 0, i32 0)
  %w = add i32 %v, %v
  store i32 %w, ptr addrspace(1) %out
  ret void
}
