; gcnsmt tv kernels: scalar buffer loads (llvm.amdgcn.s.buffer.load) that SILoadStoreOptimizer
; merges, and the VALU/SALU ops around them (S_ADD_I32, V_CNDMASK_B32_e64 with a lane-mask
; pair on wave64). Written by hand for gcnsmt (not from LLVM's tests). Results are kept alive
; by an LDS store through an inreg pointer.
declare i32 @llvm.amdgcn.s.buffer.load.i32(<4 x i32>, i32, i32)
declare <2 x i32> @llvm.amdgcn.s.buffer.load.v2i32(<4 x i32>, i32, i32)
declare <4 x i32> @llvm.amdgcn.s.buffer.load.v4i32(<4 x i32>, i32, i32)
declare i32 @llvm.amdgcn.workitem.id.x()

; Two adjacent dwords -> s_buffer_load_dwordx2.
define amdgpu_ps void @sbuf_pair(<4 x i32> inreg %r, ptr addrspace(3) inreg %out) #0 {
  %a = call i32 @llvm.amdgcn.s.buffer.load.i32(<4 x i32> %r, i32 16, i32 0)
  %b = call i32 @llvm.amdgcn.s.buffer.load.i32(<4 x i32> %r, i32 20, i32 0)
  %s = add i32 %a, %b
  store i32 %s, ptr addrspace(3) %out
  ret void
}

; Two dwordx2 -> s_buffer_load_dwordx4.
define amdgpu_ps void @sbuf_x2_pair(<4 x i32> inreg %r, ptr addrspace(3) inreg %out) #0 {
  %a = call <2 x i32> @llvm.amdgcn.s.buffer.load.v2i32(<4 x i32> %r, i32 32, i32 0)
  %b = call <2 x i32> @llvm.amdgcn.s.buffer.load.v2i32(<4 x i32> %r, i32 40, i32 0)
  %a0 = extractelement <2 x i32> %a, i32 0
  %a1 = extractelement <2 x i32> %a, i32 1
  %b0 = extractelement <2 x i32> %b, i32 0
  %b1 = extractelement <2 x i32> %b, i32 1
  %s1 = xor i32 %a0, %a1
  %s2 = xor i32 %b0, %b1
  %s = xor i32 %s1, %s2
  store i32 %s, ptr addrspace(3) %out
  ret void
}

; Two dwordx4 -> s_buffer_load_dwordx8.
define amdgpu_ps void @sbuf_x4_pair(<4 x i32> inreg %r, ptr addrspace(3) inreg %out) #0 {
  %a = call <4 x i32> @llvm.amdgcn.s.buffer.load.v4i32(<4 x i32> %r, i32 64, i32 0)
  %b = call <4 x i32> @llvm.amdgcn.s.buffer.load.v4i32(<4 x i32> %r, i32 80, i32 0)
  %a0 = extractelement <4 x i32> %a, i32 0
  %a3 = extractelement <4 x i32> %a, i32 3
  %b0 = extractelement <4 x i32> %b, i32 0
  %b3 = extractelement <4 x i32> %b, i32 3
  %s1 = xor i32 %a0, %a3
  %s2 = xor i32 %b0, %b3
  %s = xor i32 %s1, %s2
  store i32 %s, ptr addrspace(3) %out
  ret void
}

; An SGPR offset plus immediates: llc-22 adds them with S_ADD_I32 (no SGPR_IMM fold), so
; the pass leaves the two loads alone.
define amdgpu_ps void @sbuf_sgpr_imm_pair(<4 x i32> inreg %r, i32 inreg %o, ptr addrspace(3) inreg %out) #0 {
  %o1 = add i32 %o, 16
  %o2 = add i32 %o, 20
  %a = call i32 @llvm.amdgcn.s.buffer.load.i32(<4 x i32> %r, i32 %o1, i32 0)
  %b = call i32 @llvm.amdgcn.s.buffer.load.i32(<4 x i32> %r, i32 %o2, i32 0)
  %s = add i32 %a, %b
  store i32 %s, ptr addrspace(3) %out
  ret void
}

; Three dwords -> x2 + x1 (x3 merges only from gfx12).
define amdgpu_ps void @sbuf_triple(<4 x i32> inreg %r, ptr addrspace(3) inreg %out) #0 {
  %a = call i32 @llvm.amdgcn.s.buffer.load.i32(<4 x i32> %r, i32 16, i32 0)
  %b = call i32 @llvm.amdgcn.s.buffer.load.i32(<4 x i32> %r, i32 20, i32 0)
  %c = call i32 @llvm.amdgcn.s.buffer.load.i32(<4 x i32> %r, i32 24, i32 0)
  %s1 = add i32 %a, %b
  %s = add i32 %s1, %c
  store i32 %s, ptr addrspace(3) %out
  ret void
}

; A per-lane select (V_CNDMASK_B32_e64 on a compare's lane mask) feeding an LDS write2 merge.
define amdgpu_kernel void @select_write2(i32 %k) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %c = icmp ult i32 %tid, %k
  %k3 = add i32 %k, 3
  %v = select i1 %c, i32 %tid, i32 %k3
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  store i32 %v, ptr addrspace(3) %p
  %p1 = getelementptr i32, ptr addrspace(3) %p, i32 1
  %w = add i32 %k, 7
  store i32 %w, ptr addrspace(3) %p1
  ret void
}

@lds = addrspace(3) global [4096 x i32] undef, align 16
attributes #0 = { nounwind }
