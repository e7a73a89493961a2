; Written for gcnsmt (not from LLVM): a .ll test is a --pipeline job up to
; si-form-memory-clauses on each RUN-line processor (gfx1100 with its -mattr, and gfx900).
; RUN: llc -mtriple=amdgpu11.00-amd-amdhsa -mattr=+real-true16 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx900 < %s | FileCheck %s
define amdgpu_kernel void @store_two(ptr addrspace(3) %p, i32 %x) {
  %q = getelementptr i32, ptr addrspace(3) %p, i32 1
  store i32 %x, ptr addrspace(3) %p, align 4
  store i32 %x, ptr addrspace(3) %q, align 4
  ret void
}
