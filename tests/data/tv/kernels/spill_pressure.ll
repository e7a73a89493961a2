; Written for gcnsmt (issue 28, tv --pipeline): register pressure. 32 float accumulators
; live across a loop (each iteration loads 32 floats with one dwordx4 load per 4 and fmas
; them into the accumulators, rotated by one so no two can share a register), then all 32
; stored; "amdgpu-num-vgpr"="24" caps the VGPRs below what is live, so the register allocator
; must spill. Where it spills (llc-22 -O3 -mtriple=amdgcn-amd-amdhsa, read from the .s):
; gfx900: 24 VGPRs, 120 bytes of scratch (buffer_store_dword ... Folded Spill);
; gfx90a: 24 VGPRs plus 24 AGPRs (v_accvgpr_write/read) and still 20 bytes of scratch;
; gfx1100 and gfx1200: 24 VGPRs, 136 bytes of scratch (scratch_store_b128/b32 Folded Spill).
define amdgpu_kernel void @spill_pressure(ptr addrspace(1) noalias %out, ptr addrspace(1) noalias readonly %in, i32 %iters) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %t64 = zext i32 %tid to i64
  %row = mul i64 %t64, 32
  %has = icmp ne i32 %iters, 0
  br i1 %has, label %loop, label %exit
loop:
  %it = phi i32 [ 0, %entry ], [ %it.next, %loop ]
  %off = phi i64 [ %row, %entry ], [ %off.next, %loop ]
  %a0 = phi float [ 1.0, %entry ], [ %n0, %loop ]
  %a1 = phi float [ 2.0, %entry ], [ %n1, %loop ]
  %a2 = phi float [ 3.0, %entry ], [ %n2, %loop ]
  %a3 = phi float [ 4.0, %entry ], [ %n3, %loop ]
  %a4 = phi float [ 5.0, %entry ], [ %n4, %loop ]
  %a5 = phi float [ 6.0, %entry ], [ %n5, %loop ]
  %a6 = phi float [ 7.0, %entry ], [ %n6, %loop ]
  %a7 = phi float [ 8.0, %entry ], [ %n7, %loop ]
  %a8 = phi float [ 9.0, %entry ], [ %n8, %loop ]
  %a9 = phi float [ 10.0, %entry ], [ %n9, %loop ]
  %a10 = phi float [ 11.0, %entry ], [ %n10, %loop ]
  %a11 = phi float [ 12.0, %entry ], [ %n11, %loop ]
  %a12 = phi float [ 13.0, %entry ], [ %n12, %loop ]
  %a13 = phi float [ 14.0, %entry ], [ %n13, %loop ]
  %a14 = phi float [ 15.0, %entry ], [ %n14, %loop ]
  %a15 = phi float [ 16.0, %entry ], [ %n15, %loop ]
  %a16 = phi float [ 17.0, %entry ], [ %n16, %loop ]
  %a17 = phi float [ 18.0, %entry ], [ %n17, %loop ]
  %a18 = phi float [ 19.0, %entry ], [ %n18, %loop ]
  %a19 = phi float [ 20.0, %entry ], [ %n19, %loop ]
  %a20 = phi float [ 21.0, %entry ], [ %n20, %loop ]
  %a21 = phi float [ 22.0, %entry ], [ %n21, %loop ]
  %a22 = phi float [ 23.0, %entry ], [ %n22, %loop ]
  %a23 = phi float [ 24.0, %entry ], [ %n23, %loop ]
  %a24 = phi float [ 25.0, %entry ], [ %n24, %loop ]
  %a25 = phi float [ 26.0, %entry ], [ %n25, %loop ]
  %a26 = phi float [ 27.0, %entry ], [ %n26, %loop ]
  %a27 = phi float [ 28.0, %entry ], [ %n27, %loop ]
  %a28 = phi float [ 29.0, %entry ], [ %n28, %loop ]
  %a29 = phi float [ 30.0, %entry ], [ %n29, %loop ]
  %a30 = phi float [ 31.0, %entry ], [ %n30, %loop ]
  %a31 = phi float [ 32.0, %entry ], [ %n31, %loop ]
  %o0 = add i64 %off, 0
  %p0 = getelementptr inbounds float, ptr addrspace(1) %in, i64 %o0
  %v0 = load <4 x float>, ptr addrspace(1) %p0, align 16
  %x0 = extractelement <4 x float> %v0, i32 0
  %x1 = extractelement <4 x float> %v0, i32 1
  %x2 = extractelement <4 x float> %v0, i32 2
  %x3 = extractelement <4 x float> %v0, i32 3
  %o1 = add i64 %off, 4
  %p1 = getelementptr inbounds float, ptr addrspace(1) %in, i64 %o1
  %v1 = load <4 x float>, ptr addrspace(1) %p1, align 16
  %x4 = extractelement <4 x float> %v1, i32 0
  %x5 = extractelement <4 x float> %v1, i32 1
  %x6 = extractelement <4 x float> %v1, i32 2
  %x7 = extractelement <4 x float> %v1, i32 3
  %o2 = add i64 %off, 8
  %p2 = getelementptr inbounds float, ptr addrspace(1) %in, i64 %o2
  %v2 = load <4 x float>, ptr addrspace(1) %p2, align 16
  %x8 = extractelement <4 x float> %v2, i32 0
  %x9 = extractelement <4 x float> %v2, i32 1
  %x10 = extractelement <4 x float> %v2, i32 2
  %x11 = extractelement <4 x float> %v2, i32 3
  %o3 = add i64 %off, 12
  %p3 = getelementptr inbounds float, ptr addrspace(1) %in, i64 %o3
  %v3 = load <4 x float>, ptr addrspace(1) %p3, align 16
  %x12 = extractelement <4 x float> %v3, i32 0
  %x13 = extractelement <4 x float> %v3, i32 1
  %x14 = extractelement <4 x float> %v3, i32 2
  %x15 = extractelement <4 x float> %v3, i32 3
  %o4 = add i64 %off, 16
  %p4 = getelementptr inbounds float, ptr addrspace(1) %in, i64 %o4
  %v4 = load <4 x float>, ptr addrspace(1) %p4, align 16
  %x16 = extractelement <4 x float> %v4, i32 0
  %x17 = extractelement <4 x float> %v4, i32 1
  %x18 = extractelement <4 x float> %v4, i32 2
  %x19 = extractelement <4 x float> %v4, i32 3
  %o5 = add i64 %off, 20
  %p5 = getelementptr inbounds float, ptr addrspace(1) %in, i64 %o5
  %v5 = load <4 x float>, ptr addrspace(1) %p5, align 16
  %x20 = extractelement <4 x float> %v5, i32 0
  %x21 = extractelement <4 x float> %v5, i32 1
  %x22 = extractelement <4 x float> %v5, i32 2
  %x23 = extractelement <4 x float> %v5, i32 3
  %o6 = add i64 %off, 24
  %p6 = getelementptr inbounds float, ptr addrspace(1) %in, i64 %o6
  %v6 = load <4 x float>, ptr addrspace(1) %p6, align 16
  %x24 = extractelement <4 x float> %v6, i32 0
  %x25 = extractelement <4 x float> %v6, i32 1
  %x26 = extractelement <4 x float> %v6, i32 2
  %x27 = extractelement <4 x float> %v6, i32 3
  %o7 = add i64 %off, 28
  %p7 = getelementptr inbounds float, ptr addrspace(1) %in, i64 %o7
  %v7 = load <4 x float>, ptr addrspace(1) %p7, align 16
  %x28 = extractelement <4 x float> %v7, i32 0
  %x29 = extractelement <4 x float> %v7, i32 1
  %x30 = extractelement <4 x float> %v7, i32 2
  %x31 = extractelement <4 x float> %v7, i32 3
  %n0 = call float @llvm.fma.f32(float %x0, float %a1, float %a0)
  %n1 = call float @llvm.fma.f32(float %x1, float %a2, float %a1)
  %n2 = call float @llvm.fma.f32(float %x2, float %a3, float %a2)
  %n3 = call float @llvm.fma.f32(float %x3, float %a4, float %a3)
  %n4 = call float @llvm.fma.f32(float %x4, float %a5, float %a4)
  %n5 = call float @llvm.fma.f32(float %x5, float %a6, float %a5)
  %n6 = call float @llvm.fma.f32(float %x6, float %a7, float %a6)
  %n7 = call float @llvm.fma.f32(float %x7, float %a8, float %a7)
  %n8 = call float @llvm.fma.f32(float %x8, float %a9, float %a8)
  %n9 = call float @llvm.fma.f32(float %x9, float %a10, float %a9)
  %n10 = call float @llvm.fma.f32(float %x10, float %a11, float %a10)
  %n11 = call float @llvm.fma.f32(float %x11, float %a12, float %a11)
  %n12 = call float @llvm.fma.f32(float %x12, float %a13, float %a12)
  %n13 = call float @llvm.fma.f32(float %x13, float %a14, float %a13)
  %n14 = call float @llvm.fma.f32(float %x14, float %a15, float %a14)
  %n15 = call float @llvm.fma.f32(float %x15, float %a16, float %a15)
  %n16 = call float @llvm.fma.f32(float %x16, float %a17, float %a16)
  %n17 = call float @llvm.fma.f32(float %x17, float %a18, float %a17)
  %n18 = call float @llvm.fma.f32(float %x18, float %a19, float %a18)
  %n19 = call float @llvm.fma.f32(float %x19, float %a20, float %a19)
  %n20 = call float @llvm.fma.f32(float %x20, float %a21, float %a20)
  %n21 = call float @llvm.fma.f32(float %x21, float %a22, float %a21)
  %n22 = call float @llvm.fma.f32(float %x22, float %a23, float %a22)
  %n23 = call float @llvm.fma.f32(float %x23, float %a24, float %a23)
  %n24 = call float @llvm.fma.f32(float %x24, float %a25, float %a24)
  %n25 = call float @llvm.fma.f32(float %x25, float %a26, float %a25)
  %n26 = call float @llvm.fma.f32(float %x26, float %a27, float %a26)
  %n27 = call float @llvm.fma.f32(float %x27, float %a28, float %a27)
  %n28 = call float @llvm.fma.f32(float %x28, float %a29, float %a28)
  %n29 = call float @llvm.fma.f32(float %x29, float %a30, float %a29)
  %n30 = call float @llvm.fma.f32(float %x30, float %a31, float %a30)
  %n31 = call float @llvm.fma.f32(float %x31, float %a0, float %a31)
  %off.next = add i64 %off, 1024
  %it.next = add nuw i32 %it, 1
  %more = icmp ult i32 %it.next, %iters
  br i1 %more, label %loop, label %exit
exit:
  %r0 = phi float [ 0.0, %entry ], [ %n0, %loop ]
  %r1 = phi float [ 0.0, %entry ], [ %n1, %loop ]
  %r2 = phi float [ 0.0, %entry ], [ %n2, %loop ]
  %r3 = phi float [ 0.0, %entry ], [ %n3, %loop ]
  %r4 = phi float [ 0.0, %entry ], [ %n4, %loop ]
  %r5 = phi float [ 0.0, %entry ], [ %n5, %loop ]
  %r6 = phi float [ 0.0, %entry ], [ %n6, %loop ]
  %r7 = phi float [ 0.0, %entry ], [ %n7, %loop ]
  %r8 = phi float [ 0.0, %entry ], [ %n8, %loop ]
  %r9 = phi float [ 0.0, %entry ], [ %n9, %loop ]
  %r10 = phi float [ 0.0, %entry ], [ %n10, %loop ]
  %r11 = phi float [ 0.0, %entry ], [ %n11, %loop ]
  %r12 = phi float [ 0.0, %entry ], [ %n12, %loop ]
  %r13 = phi float [ 0.0, %entry ], [ %n13, %loop ]
  %r14 = phi float [ 0.0, %entry ], [ %n14, %loop ]
  %r15 = phi float [ 0.0, %entry ], [ %n15, %loop ]
  %r16 = phi float [ 0.0, %entry ], [ %n16, %loop ]
  %r17 = phi float [ 0.0, %entry ], [ %n17, %loop ]
  %r18 = phi float [ 0.0, %entry ], [ %n18, %loop ]
  %r19 = phi float [ 0.0, %entry ], [ %n19, %loop ]
  %r20 = phi float [ 0.0, %entry ], [ %n20, %loop ]
  %r21 = phi float [ 0.0, %entry ], [ %n21, %loop ]
  %r22 = phi float [ 0.0, %entry ], [ %n22, %loop ]
  %r23 = phi float [ 0.0, %entry ], [ %n23, %loop ]
  %r24 = phi float [ 0.0, %entry ], [ %n24, %loop ]
  %r25 = phi float [ 0.0, %entry ], [ %n25, %loop ]
  %r26 = phi float [ 0.0, %entry ], [ %n26, %loop ]
  %r27 = phi float [ 0.0, %entry ], [ %n27, %loop ]
  %r28 = phi float [ 0.0, %entry ], [ %n28, %loop ]
  %r29 = phi float [ 0.0, %entry ], [ %n29, %loop ]
  %r30 = phi float [ 0.0, %entry ], [ %n30, %loop ]
  %r31 = phi float [ 0.0, %entry ], [ %n31, %loop ]
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %row
  %q0 = getelementptr inbounds float, ptr addrspace(1) %q, i64 0
  store float %r0, ptr addrspace(1) %q0, align 4
  %q1 = getelementptr inbounds float, ptr addrspace(1) %q, i64 1
  store float %r1, ptr addrspace(1) %q1, align 4
  %q2 = getelementptr inbounds float, ptr addrspace(1) %q, i64 2
  store float %r2, ptr addrspace(1) %q2, align 4
  %q3 = getelementptr inbounds float, ptr addrspace(1) %q, i64 3
  store float %r3, ptr addrspace(1) %q3, align 4
  %q4 = getelementptr inbounds float, ptr addrspace(1) %q, i64 4
  store float %r4, ptr addrspace(1) %q4, align 4
  %q5 = getelementptr inbounds float, ptr addrspace(1) %q, i64 5
  store float %r5, ptr addrspace(1) %q5, align 4
  %q6 = getelementptr inbounds float, ptr addrspace(1) %q, i64 6
  store float %r6, ptr addrspace(1) %q6, align 4
  %q7 = getelementptr inbounds float, ptr addrspace(1) %q, i64 7
  store float %r7, ptr addrspace(1) %q7, align 4
  %q8 = getelementptr inbounds float, ptr addrspace(1) %q, i64 8
  store float %r8, ptr addrspace(1) %q8, align 4
  %q9 = getelementptr inbounds float, ptr addrspace(1) %q, i64 9
  store float %r9, ptr addrspace(1) %q9, align 4
  %q10 = getelementptr inbounds float, ptr addrspace(1) %q, i64 10
  store float %r10, ptr addrspace(1) %q10, align 4
  %q11 = getelementptr inbounds float, ptr addrspace(1) %q, i64 11
  store float %r11, ptr addrspace(1) %q11, align 4
  %q12 = getelementptr inbounds float, ptr addrspace(1) %q, i64 12
  store float %r12, ptr addrspace(1) %q12, align 4
  %q13 = getelementptr inbounds float, ptr addrspace(1) %q, i64 13
  store float %r13, ptr addrspace(1) %q13, align 4
  %q14 = getelementptr inbounds float, ptr addrspace(1) %q, i64 14
  store float %r14, ptr addrspace(1) %q14, align 4
  %q15 = getelementptr inbounds float, ptr addrspace(1) %q, i64 15
  store float %r15, ptr addrspace(1) %q15, align 4
  %q16 = getelementptr inbounds float, ptr addrspace(1) %q, i64 16
  store float %r16, ptr addrspace(1) %q16, align 4
  %q17 = getelementptr inbounds float, ptr addrspace(1) %q, i64 17
  store float %r17, ptr addrspace(1) %q17, align 4
  %q18 = getelementptr inbounds float, ptr addrspace(1) %q, i64 18
  store float %r18, ptr addrspace(1) %q18, align 4
  %q19 = getelementptr inbounds float, ptr addrspace(1) %q, i64 19
  store float %r19, ptr addrspace(1) %q19, align 4
  %q20 = getelementptr inbounds float, ptr addrspace(1) %q, i64 20
  store float %r20, ptr addrspace(1) %q20, align 4
  %q21 = getelementptr inbounds float, ptr addrspace(1) %q, i64 21
  store float %r21, ptr addrspace(1) %q21, align 4
  %q22 = getelementptr inbounds float, ptr addrspace(1) %q, i64 22
  store float %r22, ptr addrspace(1) %q22, align 4
  %q23 = getelementptr inbounds float, ptr addrspace(1) %q, i64 23
  store float %r23, ptr addrspace(1) %q23, align 4
  %q24 = getelementptr inbounds float, ptr addrspace(1) %q, i64 24
  store float %r24, ptr addrspace(1) %q24, align 4
  %q25 = getelementptr inbounds float, ptr addrspace(1) %q, i64 25
  store float %r25, ptr addrspace(1) %q25, align 4
  %q26 = getelementptr inbounds float, ptr addrspace(1) %q, i64 26
  store float %r26, ptr addrspace(1) %q26, align 4
  %q27 = getelementptr inbounds float, ptr addrspace(1) %q, i64 27
  store float %r27, ptr addrspace(1) %q27, align 4
  %q28 = getelementptr inbounds float, ptr addrspace(1) %q, i64 28
  store float %r28, ptr addrspace(1) %q28, align 4
  %q29 = getelementptr inbounds float, ptr addrspace(1) %q, i64 29
  store float %r29, ptr addrspace(1) %q29, align 4
  %q30 = getelementptr inbounds float, ptr addrspace(1) %q, i64 30
  store float %r30, ptr addrspace(1) %q30, align 4
  %q31 = getelementptr inbounds float, ptr addrspace(1) %q, i64 31
  store float %r31, ptr addrspace(1) %q31, align 4
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare float @llvm.fma.f32(float, float, float)

attributes #0 = { "amdgpu-num-vgpr"="24" "amdgpu-flat-work-group-size"="1,256" }
