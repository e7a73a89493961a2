; gcnsmt tv kernels: LDS accesses that SILoadStoreOptimizer merges (or must not).
; Written for gcnsmt (not from LLVM's tests) by scripts/tv-kernels.py. Addresses from the
; work-item id, results kept alive by stores to LDS, so each kernel is one block of DS and
; VALU code. 64-bit values are combined with `or` (two v_or_b32; a 64-bit add needs
; v_addc_u32, which gcnsmt does not model).
@lds = addrspace(3) global [4096 x i32] undef, align 16
@lds64 = addrspace(3) global [2048 x i64] undef, align 16
@lds2 = addrspace(3) global [1024 x i32] undef, align 16
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()

define amdgpu_kernel void @read2_b32_adjacent() #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  %q0 = getelementptr i32, ptr addrspace(3) %p, i32 0
  %v0 = load i32, ptr addrspace(3) %q0
  %q1 = getelementptr i32, ptr addrspace(3) %p, i32 1
  %v1 = load i32, ptr addrspace(3) %q1
  %a1 = add i32 %v0, %v1
  store i32 %a1, ptr addrspace(3) %p

  ret void
}
define amdgpu_kernel void @read2_b32_far() #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  %q0 = getelementptr i32, ptr addrspace(3) %p, i32 0
  %v0 = load i32, ptr addrspace(3) %q0
  %q1 = getelementptr i32, ptr addrspace(3) %p, i32 8
  %v1 = load i32, ptr addrspace(3) %q1
  %a1 = add i32 %v0, %v1
  store i32 %a1, ptr addrspace(3) %p

  ret void
}
define amdgpu_kernel void @read2_b32_max() #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  %q0 = getelementptr i32, ptr addrspace(3) %p, i32 0
  %v0 = load i32, ptr addrspace(3) %q0
  %q1 = getelementptr i32, ptr addrspace(3) %p, i32 255
  %v1 = load i32, ptr addrspace(3) %q1
  %a1 = add i32 %v0, %v1
  store i32 %a1, ptr addrspace(3) %p

  ret void
}
define amdgpu_kernel void @read2_b32_base_offset() #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  %q0 = getelementptr i32, ptr addrspace(3) %p, i32 16
  %v0 = load i32, ptr addrspace(3) %q0
  %q1 = getelementptr i32, ptr addrspace(3) %p, i32 17
  %v1 = load i32, ptr addrspace(3) %q1
  %a1 = add i32 %v0, %v1
  store i32 %a1, ptr addrspace(3) %p

  ret void
}
define amdgpu_kernel void @read2st64_b32() #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  %q0 = getelementptr i32, ptr addrspace(3) %p, i32 0
  %v0 = load i32, ptr addrspace(3) %q0
  %q1 = getelementptr i32, ptr addrspace(3) %p, i32 64
  %v1 = load i32, ptr addrspace(3) %q1
  %a1 = add i32 %v0, %v1
  store i32 %a1, ptr addrspace(3) %p

  ret void
}
define amdgpu_kernel void @read2st64_b32_far() #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  %q0 = getelementptr i32, ptr addrspace(3) %p, i32 64
  %v0 = load i32, ptr addrspace(3) %q0
  %q1 = getelementptr i32, ptr addrspace(3) %p, i32 640
  %v1 = load i32, ptr addrspace(3) %q1
  %a1 = add i32 %v0, %v1
  store i32 %a1, ptr addrspace(3) %p

  ret void
}
define amdgpu_kernel void @read2_b32_three() #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  %q0 = getelementptr i32, ptr addrspace(3) %p, i32 0
  %v0 = load i32, ptr addrspace(3) %q0
  %q1 = getelementptr i32, ptr addrspace(3) %p, i32 1
  %v1 = load i32, ptr addrspace(3) %q1
  %q2 = getelementptr i32, ptr addrspace(3) %p, i32 2
  %v2 = load i32, ptr addrspace(3) %q2
  %a1 = add i32 %v0, %v1
  %a2 = add i32 %a1, %v2
  store i32 %a2, ptr addrspace(3) %p

  ret void
}
define amdgpu_kernel void @read2_b32_four() #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  %q0 = getelementptr i32, ptr addrspace(3) %p, i32 0
  %v0 = load i32, ptr addrspace(3) %q0
  %q1 = getelementptr i32, ptr addrspace(3) %p, i32 1
  %v1 = load i32, ptr addrspace(3) %q1
  %q2 = getelementptr i32, ptr addrspace(3) %p, i32 2
  %v2 = load i32, ptr addrspace(3) %q2
  %q3 = getelementptr i32, ptr addrspace(3) %p, i32 3
  %v3 = load i32, ptr addrspace(3) %q3
  %a1 = add i32 %v0, %v1
  %a2 = add i32 %a1, %v2
  %a3 = add i32 %a2, %v3
  store i32 %a3, ptr addrspace(3) %p

  ret void
}
define amdgpu_kernel void @read2_b32_too_far() #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  %q0 = getelementptr i32, ptr addrspace(3) %p, i32 0
  %v0 = load i32, ptr addrspace(3) %q0
  %q1 = getelementptr i32, ptr addrspace(3) %p, i32 16385
  %v1 = load i32, ptr addrspace(3) %q1
  %a1 = add i32 %v0, %v1
  store i32 %a1, ptr addrspace(3) %p

  ret void
}
define amdgpu_kernel void @read2_b64_adjacent() #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i64, ptr addrspace(3) @lds64, i32 %tid
  %q0 = getelementptr i64, ptr addrspace(3) %p, i32 0
  %v0 = load i64, ptr addrspace(3) %q0
  %q1 = getelementptr i64, ptr addrspace(3) %p, i32 1
  %v1 = load i64, ptr addrspace(3) %q1
  %a1 = or i64 %v0, %v1
  store i64 %a1, ptr addrspace(3) %p

  ret void
}
define amdgpu_kernel void @read2_b64_far() #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i64, ptr addrspace(3) @lds64, i32 %tid
  %q0 = getelementptr i64, ptr addrspace(3) %p, i32 2
  %v0 = load i64, ptr addrspace(3) %q0
  %q1 = getelementptr i64, ptr addrspace(3) %p, i32 9
  %v1 = load i64, ptr addrspace(3) %q1
  %a1 = or i64 %v0, %v1
  store i64 %a1, ptr addrspace(3) %p

  ret void
}
define amdgpu_kernel void @read2st64_b64() #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i64, ptr addrspace(3) @lds64, i32 %tid
  %q0 = getelementptr i64, ptr addrspace(3) %p, i32 0
  %v0 = load i64, ptr addrspace(3) %q0
  %q1 = getelementptr i64, ptr addrspace(3) %p, i32 64
  %v1 = load i64, ptr addrspace(3) %q1
  %a1 = or i64 %v0, %v1
  store i64 %a1, ptr addrspace(3) %p

  ret void
}
define amdgpu_kernel void @read2_b32_swapped_order() #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  %q0 = getelementptr i32, ptr addrspace(3) %p, i32 5
  %v0 = load i32, ptr addrspace(3) %q0
  %q1 = getelementptr i32, ptr addrspace(3) %p, i32 4
  %v1 = load i32, ptr addrspace(3) %q1
  %a1 = add i32 %v0, %v1
  store i32 %a1, ptr addrspace(3) %p

  ret void
}
define amdgpu_kernel void @write2_b32_adjacent() #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  %x0 = add i32 %tid, 1
  %s0 = getelementptr i32, ptr addrspace(3) %p, i32 0
  store i32 %x0, ptr addrspace(3) %s0
  %x1 = add i32 %tid, 2
  %s1 = getelementptr i32, ptr addrspace(3) %p, i32 1
  store i32 %x1, ptr addrspace(3) %s1

  ret void
}
define amdgpu_kernel void @write2_b32_far() #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  %x0 = add i32 %tid, 1
  %s0 = getelementptr i32, ptr addrspace(3) %p, i32 3
  store i32 %x0, ptr addrspace(3) %s0
  %x1 = add i32 %tid, 2
  %s1 = getelementptr i32, ptr addrspace(3) %p, i32 200
  store i32 %x1, ptr addrspace(3) %s1

  ret void
}
define amdgpu_kernel void @write2st64_b32() #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  %x0 = add i32 %tid, 1
  %s0 = getelementptr i32, ptr addrspace(3) %p, i32 0
  store i32 %x0, ptr addrspace(3) %s0
  %x1 = add i32 %tid, 2
  %s1 = getelementptr i32, ptr addrspace(3) %p, i32 128
  store i32 %x1, ptr addrspace(3) %s1

  ret void
}
define amdgpu_kernel void @write2_b32_four() #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  %x0 = add i32 %tid, 1
  %s0 = getelementptr i32, ptr addrspace(3) %p, i32 0
  store i32 %x0, ptr addrspace(3) %s0
  %x1 = add i32 %tid, 2
  %s1 = getelementptr i32, ptr addrspace(3) %p, i32 1
  store i32 %x1, ptr addrspace(3) %s1
  %x2 = add i32 %tid, 3
  %s2 = getelementptr i32, ptr addrspace(3) %p, i32 2
  store i32 %x2, ptr addrspace(3) %s2
  %x3 = add i32 %tid, 4
  %s3 = getelementptr i32, ptr addrspace(3) %p, i32 3
  store i32 %x3, ptr addrspace(3) %s3

  ret void
}
define amdgpu_kernel void @write2_b64_adjacent() #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i64, ptr addrspace(3) @lds64, i32 %tid
  %t0 = zext i32 %tid to i64
  %x0 = or i64 %t0, 1099511627776
  %s0 = getelementptr i64, ptr addrspace(3) %p, i32 0
  store i64 %x0, ptr addrspace(3) %s0
  %t1 = zext i32 %tid to i64
  %x1 = or i64 %t1, 2199023255552
  %s1 = getelementptr i64, ptr addrspace(3) %p, i32 1
  store i64 %x1, ptr addrspace(3) %s1

  ret void
}
define amdgpu_kernel void @write2st64_b64() #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i64, ptr addrspace(3) @lds64, i32 %tid
  %t0 = zext i32 %tid to i64
  %x0 = or i64 %t0, 1099511627776
  %s0 = getelementptr i64, ptr addrspace(3) %p, i32 0
  store i64 %x0, ptr addrspace(3) %s0
  %t1 = zext i32 %tid to i64
  %x1 = or i64 %t1, 2199023255552
  %s1 = getelementptr i64, ptr addrspace(3) %p, i32 64
  store i64 %x1, ptr addrspace(3) %s1

  ret void
}
define amdgpu_kernel void @write2_b32_same_address_pair() #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  %x0 = add i32 %tid, 1
  %s0 = getelementptr i32, ptr addrspace(3) %p, i32 7
  store i32 %x0, ptr addrspace(3) %s0
  %x1 = add i32 %tid, 2
  %s1 = getelementptr i32, ptr addrspace(3) %p, i32 8
  store i32 %x1, ptr addrspace(3) %s1

  ret void
}
define amdgpu_kernel void @read2_across_other_array_store() #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  %q0 = getelementptr i32, ptr addrspace(3) %p, i32 0
  %v0 = load i32, ptr addrspace(3) %q0
  %o = getelementptr i32, ptr addrspace(3) @lds2, i32 %tid
  store i32 7, ptr addrspace(3) %o
  %q1 = getelementptr i32, ptr addrspace(3) %p, i32 1
  %v1 = load i32, ptr addrspace(3) %q1
  %a = add i32 %v0, %v1
  store i32 %a, ptr addrspace(3) %p

  ret void
}
define amdgpu_kernel void @read2_across_aliasing_store() #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  %q0 = getelementptr i32, ptr addrspace(3) %p, i32 0
  %v0 = load i32, ptr addrspace(3) %q0
  %s9 = getelementptr i32, ptr addrspace(3) %p, i32 1
  store i32 %tid, ptr addrspace(3) %s9
  %q1 = getelementptr i32, ptr addrspace(3) %p, i32 1
  %v1 = load i32, ptr addrspace(3) %q1
  %a = add i32 %v0, %v1
  store i32 %a, ptr addrspace(3) %p

  ret void
}
define amdgpu_kernel void @read2_across_disjoint_store() #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  %q0 = getelementptr i32, ptr addrspace(3) %p, i32 0
  %v0 = load i32, ptr addrspace(3) %q0
  %s9 = getelementptr i32, ptr addrspace(3) %p, i32 2
  store i32 %tid, ptr addrspace(3) %s9
  %q1 = getelementptr i32, ptr addrspace(3) %p, i32 1
  %v1 = load i32, ptr addrspace(3) %q1
  %a = add i32 %v0, %v1
  %s8 = getelementptr i32, ptr addrspace(3) %p, i32 3
  store i32 %a, ptr addrspace(3) %s8

  ret void
}
define amdgpu_kernel void @write2_across_load() #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  %s0 = getelementptr i32, ptr addrspace(3) %p, i32 0
  store i32 %tid, ptr addrspace(3) %s0
  %q1 = getelementptr i32, ptr addrspace(3) %p, i32 5
  %v1 = load i32, ptr addrspace(3) %q1
  %s2 = getelementptr i32, ptr addrspace(3) %p, i32 1
  store i32 %v1, ptr addrspace(3) %s2

  ret void
}
define amdgpu_kernel void @mixed_read_write() #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  %q0 = getelementptr i32, ptr addrspace(3) %p, i32 0
  %v0 = load i32, ptr addrspace(3) %q0
  %q1 = getelementptr i32, ptr addrspace(3) %p, i32 1
  %v1 = load i32, ptr addrspace(3) %q1
  %s2 = getelementptr i32, ptr addrspace(3) %p, i32 2
  store i32 %v0, ptr addrspace(3) %s2
  %s3 = getelementptr i32, ptr addrspace(3) %p, i32 3
  store i32 %v1, ptr addrspace(3) %s3

  ret void
}
define amdgpu_kernel void @no_merge_byte_loads() #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  %b0 = getelementptr i8, ptr addrspace(3) %p, i32 0
  %c0 = load i8, ptr addrspace(3) %b0
  %b1 = getelementptr i8, ptr addrspace(3) %p, i32 1
  %c1 = load i8, ptr addrspace(3) %b1
  %c = add i8 %c0, %c1
  store i8 %c, ptr addrspace(3) %b0

  ret void
}
define amdgpu_kernel void @read2_b32_then_write2() #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  %q0 = getelementptr i32, ptr addrspace(3) %p, i32 0
  %v0 = load i32, ptr addrspace(3) %q0
  %q1 = getelementptr i32, ptr addrspace(3) %p, i32 1
  %v1 = load i32, ptr addrspace(3) %q1
  %s2 = getelementptr i32, ptr addrspace(3) %p, i32 4
  store i32 %v1, ptr addrspace(3) %s2
  %s3 = getelementptr i32, ptr addrspace(3) %p, i32 5
  store i32 %v0, ptr addrspace(3) %s3

  ret void
}
define amdgpu_kernel void @read2_b32_two_bases() #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  %q0 = getelementptr i32, ptr addrspace(3) %p, i32 0
  %v0 = load i32, ptr addrspace(3) %q0
  %p2 = getelementptr i32, ptr addrspace(3) @lds2, i32 %tid
  %v1 = load i32, ptr addrspace(3) %p2
  %q2 = getelementptr i32, ptr addrspace(3) %p, i32 1
  %v2 = load i32, ptr addrspace(3) %q2
  %a = add i32 %v0, %v1
  %b = add i32 %a, %v2
  store i32 %b, ptr addrspace(3) %p

  ret void
}
define amdgpu_kernel void @read2_b32_mul_address() #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  %m = mul i32 %tid, %tid
  %pm = getelementptr i32, ptr addrspace(3) @lds, i32 %m
  %x0 = load i32, ptr addrspace(3) %pm
  %pm1 = getelementptr i32, ptr addrspace(3) %pm, i32 1
  %x1 = load i32, ptr addrspace(3) %pm1
  %a = add i32 %x0, %x1
  store i32 %a, ptr addrspace(3) %p

  ret void
}
define amdgpu_kernel void @read2_across_inline_asm() #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  %q0 = getelementptr i32, ptr addrspace(3) %p, i32 0
  %v0 = load i32, ptr addrspace(3) %q0
  call void asm sideeffect "s_nop 0", ""()
  %q1 = getelementptr i32, ptr addrspace(3) %p, i32 1
  %v1 = load i32, ptr addrspace(3) %q1
  %a = add i32 %v0, %v1
  store i32 %a, ptr addrspace(3) %p

  ret void
}
define amdgpu_kernel void @read2_across_barrier() #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  %q0 = getelementptr i32, ptr addrspace(3) %p, i32 0
  %v0 = load i32, ptr addrspace(3) %q0
  call void @llvm.amdgcn.s.barrier()
  %q1 = getelementptr i32, ptr addrspace(3) %p, i32 1
  %v1 = load i32, ptr addrspace(3) %q1
  %a = add i32 %v0, %v1
  store i32 %a, ptr addrspace(3) %p

  ret void
}
define amdgpu_kernel void @read2_f32_global_out(ptr addrspace(1) %out) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr float, ptr addrspace(3) @lds, i32 %tid
  %q = getelementptr float, ptr addrspace(3) %p, i32 8
  %a = load float, ptr addrspace(3) %p
  %b = load float, ptr addrspace(3) %q
  %s = fadd float %a, %b
  %o = getelementptr float, ptr addrspace(1) %out, i32 %tid
  store float %s, ptr addrspace(1) %o
  ret void
}
define amdgpu_kernel void @write2_kernarg_data(i32 %x) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  %q = getelementptr i32, ptr addrspace(3) %p, i32 1
  %y = add i32 %x, 1
  store i32 %x, ptr addrspace(3) %p
  store i32 %y, ptr addrspace(3) %q
  ret void
}
define amdgpu_kernel void @branchy() #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  %c = icmp ult i32 %tid, 16
  br i1 %c, label %then, label %done
then:
  %q = getelementptr i32, ptr addrspace(3) %p, i32 1
  %a = load i32, ptr addrspace(3) %p
  %b = load i32, ptr addrspace(3) %q
  %s = add i32 %a, %b
  br label %done
done:
  %r = phi i32 [ 0, %entry ], [ %s, %then ]
  %o = getelementptr i32, ptr addrspace(3) %p, i32 64
  store i32 %r, ptr addrspace(3) %o
  %o2 = getelementptr i32, ptr addrspace(3) %p, i32 65
  store i32 %tid, ptr addrspace(3) %o2
  ret void
}
attributes #0 = { "amdgpu-lds-size"="32768" }
