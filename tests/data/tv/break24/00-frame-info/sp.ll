target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @sp(ptr addrspace(1) %out, ptr addrspace(1) %in) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %base = mul i32 %tid, 40
  %i0 = add i32 %base, 0
  %g0 = getelementptr i32, ptr addrspace(1) %in, i32 %i0
  %v0 = load volatile i32, ptr addrspace(1) %g0
  %i1 = add i32 %base, 7
  %g1 = getelementptr i32, ptr addrspace(1) %in, i32 %i1
  %v1 = load volatile i32, ptr addrspace(1) %g1
  %i2 = add i32 %base, 14
  %g2 = getelementptr i32, ptr addrspace(1) %in, i32 %i2
  %v2 = load volatile i32, ptr addrspace(1) %g2
  %i3 = add i32 %base, 21
  %g3 = getelementptr i32, ptr addrspace(1) %in, i32 %i3
  %v3 = load volatile i32, ptr addrspace(1) %g3
  %i4 = add i32 %base, 28
  %g4 = getelementptr i32, ptr addrspace(1) %in, i32 %i4
  %v4 = load volatile i32, ptr addrspace(1) %g4
  %i5 = add i32 %base, 35
  %g5 = getelementptr i32, ptr addrspace(1) %in, i32 %i5
  %v5 = load volatile i32, ptr addrspace(1) %g5
  %i6 = add i32 %base, 42
  %g6 = getelementptr i32, ptr addrspace(1) %in, i32 %i6
  %v6 = load volatile i32, ptr addrspace(1) %g6
  %i7 = add i32 %base, 49
  %g7 = getelementptr i32, ptr addrspace(1) %in, i32 %i7
  %v7 = load volatile i32, ptr addrspace(1) %g7
  %i8 = add i32 %base, 56
  %g8 = getelementptr i32, ptr addrspace(1) %in, i32 %i8
  %v8 = load volatile i32, ptr addrspace(1) %g8
  %i9 = add i32 %base, 63
  %g9 = getelementptr i32, ptr addrspace(1) %in, i32 %i9
  %v9 = load volatile i32, ptr addrspace(1) %g9
  %i10 = add i32 %base, 70
  %g10 = getelementptr i32, ptr addrspace(1) %in, i32 %i10
  %v10 = load volatile i32, ptr addrspace(1) %g10
  %i11 = add i32 %base, 77
  %g11 = getelementptr i32, ptr addrspace(1) %in, i32 %i11
  %v11 = load volatile i32, ptr addrspace(1) %g11
  %i12 = add i32 %base, 84
  %g12 = getelementptr i32, ptr addrspace(1) %in, i32 %i12
  %v12 = load volatile i32, ptr addrspace(1) %g12
  %i13 = add i32 %base, 91
  %g13 = getelementptr i32, ptr addrspace(1) %in, i32 %i13
  %v13 = load volatile i32, ptr addrspace(1) %g13
  %i14 = add i32 %base, 98
  %g14 = getelementptr i32, ptr addrspace(1) %in, i32 %i14
  %v14 = load volatile i32, ptr addrspace(1) %g14
  %i15 = add i32 %base, 105
  %g15 = getelementptr i32, ptr addrspace(1) %in, i32 %i15
  %v15 = load volatile i32, ptr addrspace(1) %g15
  %i16 = add i32 %base, 112
  %g16 = getelementptr i32, ptr addrspace(1) %in, i32 %i16
  %v16 = load volatile i32, ptr addrspace(1) %g16
  %i17 = add i32 %base, 119
  %g17 = getelementptr i32, ptr addrspace(1) %in, i32 %i17
  %v17 = load volatile i32, ptr addrspace(1) %g17
  %i18 = add i32 %base, 126
  %g18 = getelementptr i32, ptr addrspace(1) %in, i32 %i18
  %v18 = load volatile i32, ptr addrspace(1) %g18
  %i19 = add i32 %base, 133
  %g19 = getelementptr i32, ptr addrspace(1) %in, i32 %i19
  %v19 = load volatile i32, ptr addrspace(1) %g19
  %i20 = add i32 %base, 140
  %g20 = getelementptr i32, ptr addrspace(1) %in, i32 %i20
  %v20 = load volatile i32, ptr addrspace(1) %g20
  %i21 = add i32 %base, 147
  %g21 = getelementptr i32, ptr addrspace(1) %in, i32 %i21
  %v21 = load volatile i32, ptr addrspace(1) %g21
  %i22 = add i32 %base, 154
  %g22 = getelementptr i32, ptr addrspace(1) %in, i32 %i22
  %v22 = load volatile i32, ptr addrspace(1) %g22
  %i23 = add i32 %base, 161
  %g23 = getelementptr i32, ptr addrspace(1) %in, i32 %i23
  %v23 = load volatile i32, ptr addrspace(1) %g23
  %i24 = add i32 %base, 168
  %g24 = getelementptr i32, ptr addrspace(1) %in, i32 %i24
  %v24 = load volatile i32, ptr addrspace(1) %g24
  %i25 = add i32 %base, 175
  %g25 = getelementptr i32, ptr addrspace(1) %in, i32 %i25
  %v25 = load volatile i32, ptr addrspace(1) %g25
  %i26 = add i32 %base, 182
  %g26 = getelementptr i32, ptr addrspace(1) %in, i32 %i26
  %v26 = load volatile i32, ptr addrspace(1) %g26
  %i27 = add i32 %base, 189
  %g27 = getelementptr i32, ptr addrspace(1) %in, i32 %i27
  %v27 = load volatile i32, ptr addrspace(1) %g27
  %i28 = add i32 %base, 196
  %g28 = getelementptr i32, ptr addrspace(1) %in, i32 %i28
  %v28 = load volatile i32, ptr addrspace(1) %g28
  %i29 = add i32 %base, 203
  %g29 = getelementptr i32, ptr addrspace(1) %in, i32 %i29
  %v29 = load volatile i32, ptr addrspace(1) %g29
  %i30 = add i32 %base, 210
  %g30 = getelementptr i32, ptr addrspace(1) %in, i32 %i30
  %v30 = load volatile i32, ptr addrspace(1) %g30
  %i31 = add i32 %base, 217
  %g31 = getelementptr i32, ptr addrspace(1) %in, i32 %i31
  %v31 = load volatile i32, ptr addrspace(1) %g31
  %i32 = add i32 %base, 224
  %g32 = getelementptr i32, ptr addrspace(1) %in, i32 %i32
  %v32 = load volatile i32, ptr addrspace(1) %g32
  %i33 = add i32 %base, 231
  %g33 = getelementptr i32, ptr addrspace(1) %in, i32 %i33
  %v33 = load volatile i32, ptr addrspace(1) %g33
  %i34 = add i32 %base, 238
  %g34 = getelementptr i32, ptr addrspace(1) %in, i32 %i34
  %v34 = load volatile i32, ptr addrspace(1) %g34
  %i35 = add i32 %base, 245
  %g35 = getelementptr i32, ptr addrspace(1) %in, i32 %i35
  %v35 = load volatile i32, ptr addrspace(1) %g35
  %i36 = add i32 %base, 252
  %g36 = getelementptr i32, ptr addrspace(1) %in, i32 %i36
  %v36 = load volatile i32, ptr addrspace(1) %g36
  %i37 = add i32 %base, 259
  %g37 = getelementptr i32, ptr addrspace(1) %in, i32 %i37
  %v37 = load volatile i32, ptr addrspace(1) %g37
  %i38 = add i32 %base, 266
  %g38 = getelementptr i32, ptr addrspace(1) %in, i32 %i38
  %v38 = load volatile i32, ptr addrspace(1) %g38
  %i39 = add i32 %base, 273
  %g39 = getelementptr i32, ptr addrspace(1) %in, i32 %i39
  %v39 = load volatile i32, ptr addrspace(1) %g39
  %m1 = mul i32 %v0, %v39
  %a1 = xor i32 %m1, %v1
  %m2 = mul i32 %a1, %v38
  %a2 = xor i32 %m2, %v2
  %m3 = mul i32 %a2, %v37
  %a3 = xor i32 %m3, %v3
  %m4 = mul i32 %a3, %v36
  %a4 = xor i32 %m4, %v4
  %m5 = mul i32 %a4, %v35
  %a5 = xor i32 %m5, %v5
  %m6 = mul i32 %a5, %v34
  %a6 = xor i32 %m6, %v6
  %m7 = mul i32 %a6, %v33
  %a7 = xor i32 %m7, %v7
  %m8 = mul i32 %a7, %v32
  %a8 = xor i32 %m8, %v8
  %m9 = mul i32 %a8, %v31
  %a9 = xor i32 %m9, %v9
  %m10 = mul i32 %a9, %v30
  %a10 = xor i32 %m10, %v10
  %m11 = mul i32 %a10, %v29
  %a11 = xor i32 %m11, %v11
  %m12 = mul i32 %a11, %v28
  %a12 = xor i32 %m12, %v12
  %m13 = mul i32 %a12, %v27
  %a13 = xor i32 %m13, %v13
  %m14 = mul i32 %a13, %v26
  %a14 = xor i32 %m14, %v14
  %m15 = mul i32 %a14, %v25
  %a15 = xor i32 %m15, %v15
  %m16 = mul i32 %a15, %v24
  %a16 = xor i32 %m16, %v16
  %m17 = mul i32 %a16, %v23
  %a17 = xor i32 %m17, %v17
  %m18 = mul i32 %a17, %v22
  %a18 = xor i32 %m18, %v18
  %m19 = mul i32 %a18, %v21
  %a19 = xor i32 %m19, %v19
  %m20 = mul i32 %a19, %v20
  %a20 = xor i32 %m20, %v20
  %m21 = mul i32 %a20, %v19
  %a21 = xor i32 %m21, %v21
  %m22 = mul i32 %a21, %v18
  %a22 = xor i32 %m22, %v22
  %m23 = mul i32 %a22, %v17
  %a23 = xor i32 %m23, %v23
  %m24 = mul i32 %a23, %v16
  %a24 = xor i32 %m24, %v24
  %m25 = mul i32 %a24, %v15
  %a25 = xor i32 %m25, %v25
  %m26 = mul i32 %a25, %v14
  %a26 = xor i32 %m26, %v26
  %m27 = mul i32 %a26, %v13
  %a27 = xor i32 %m27, %v27
  %m28 = mul i32 %a27, %v12
  %a28 = xor i32 %m28, %v28
  %m29 = mul i32 %a28, %v11
  %a29 = xor i32 %m29, %v29
  %m30 = mul i32 %a29, %v10
  %a30 = xor i32 %m30, %v30
  %m31 = mul i32 %a30, %v9
  %a31 = xor i32 %m31, %v31
  %m32 = mul i32 %a31, %v8
  %a32 = xor i32 %m32, %v32
  %m33 = mul i32 %a32, %v7
  %a33 = xor i32 %m33, %v33
  %m34 = mul i32 %a33, %v6
  %a34 = xor i32 %m34, %v34
  %m35 = mul i32 %a34, %v5
  %a35 = xor i32 %m35, %v35
  %m36 = mul i32 %a35, %v4
  %a36 = xor i32 %m36, %v36
  %m37 = mul i32 %a36, %v3
  %a37 = xor i32 %m37, %v37
  %m38 = mul i32 %a37, %v2
  %a38 = xor i32 %m38, %v38
  %m39 = mul i32 %a38, %v1
  %a39 = xor i32 %m39, %v39
  %o0 = getelementptr i32, ptr addrspace(1) %out, i32 %i0
  %r0 = add i32 %a39, %v0
  store i32 %r0, ptr addrspace(1) %o0
  %o1 = getelementptr i32, ptr addrspace(1) %out, i32 %i1
  %r1 = add i32 %a39, %v1
  store i32 %r1, ptr addrspace(1) %o1
  %o2 = getelementptr i32, ptr addrspace(1) %out, i32 %i2
  %r2 = add i32 %a39, %v2
  store i32 %r2, ptr addrspace(1) %o2
  %o3 = getelementptr i32, ptr addrspace(1) %out, i32 %i3
  %r3 = add i32 %a39, %v3
  store i32 %r3, ptr addrspace(1) %o3
  %o4 = getelementptr i32, ptr addrspace(1) %out, i32 %i4
  %r4 = add i32 %a39, %v4
  store i32 %r4, ptr addrspace(1) %o4
  %o5 = getelementptr i32, ptr addrspace(1) %out, i32 %i5
  %r5 = add i32 %a39, %v5
  store i32 %r5, ptr addrspace(1) %o5
  %o6 = getelementptr i32, ptr addrspace(1) %out, i32 %i6
  %r6 = add i32 %a39, %v6
  store i32 %r6, ptr addrspace(1) %o6
  %o7 = getelementptr i32, ptr addrspace(1) %out, i32 %i7
  %r7 = add i32 %a39, %v7
  store i32 %r7, ptr addrspace(1) %o7
  %o8 = getelementptr i32, ptr addrspace(1) %out, i32 %i8
  %r8 = add i32 %a39, %v8
  store i32 %r8, ptr addrspace(1) %o8
  %o9 = getelementptr i32, ptr addrspace(1) %out, i32 %i9
  %r9 = add i32 %a39, %v9
  store i32 %r9, ptr addrspace(1) %o9
  %o10 = getelementptr i32, ptr addrspace(1) %out, i32 %i10
  %r10 = add i32 %a39, %v10
  store i32 %r10, ptr addrspace(1) %o10
  %o11 = getelementptr i32, ptr addrspace(1) %out, i32 %i11
  %r11 = add i32 %a39, %v11
  store i32 %r11, ptr addrspace(1) %o11
  %o12 = getelementptr i32, ptr addrspace(1) %out, i32 %i12
  %r12 = add i32 %a39, %v12
  store i32 %r12, ptr addrspace(1) %o12
  %o13 = getelementptr i32, ptr addrspace(1) %out, i32 %i13
  %r13 = add i32 %a39, %v13
  store i32 %r13, ptr addrspace(1) %o13
  %o14 = getelementptr i32, ptr addrspace(1) %out, i32 %i14
  %r14 = add i32 %a39, %v14
  store i32 %r14, ptr addrspace(1) %o14
  %o15 = getelementptr i32, ptr addrspace(1) %out, i32 %i15
  %r15 = add i32 %a39, %v15
  store i32 %r15, ptr addrspace(1) %o15
  %o16 = getelementptr i32, ptr addrspace(1) %out, i32 %i16
  %r16 = add i32 %a39, %v16
  store i32 %r16, ptr addrspace(1) %o16
  %o17 = getelementptr i32, ptr addrspace(1) %out, i32 %i17
  %r17 = add i32 %a39, %v17
  store i32 %r17, ptr addrspace(1) %o17
  %o18 = getelementptr i32, ptr addrspace(1) %out, i32 %i18
  %r18 = add i32 %a39, %v18
  store i32 %r18, ptr addrspace(1) %o18
  %o19 = getelementptr i32, ptr addrspace(1) %out, i32 %i19
  %r19 = add i32 %a39, %v19
  store i32 %r19, ptr addrspace(1) %o19
  %o20 = getelementptr i32, ptr addrspace(1) %out, i32 %i20
  %r20 = add i32 %a39, %v20
  store i32 %r20, ptr addrspace(1) %o20
  %o21 = getelementptr i32, ptr addrspace(1) %out, i32 %i21
  %r21 = add i32 %a39, %v21
  store i32 %r21, ptr addrspace(1) %o21
  %o22 = getelementptr i32, ptr addrspace(1) %out, i32 %i22
  %r22 = add i32 %a39, %v22
  store i32 %r22, ptr addrspace(1) %o22
  %o23 = getelementptr i32, ptr addrspace(1) %out, i32 %i23
  %r23 = add i32 %a39, %v23
  store i32 %r23, ptr addrspace(1) %o23
  %o24 = getelementptr i32, ptr addrspace(1) %out, i32 %i24
  %r24 = add i32 %a39, %v24
  store i32 %r24, ptr addrspace(1) %o24
  %o25 = getelementptr i32, ptr addrspace(1) %out, i32 %i25
  %r25 = add i32 %a39, %v25
  store i32 %r25, ptr addrspace(1) %o25
  %o26 = getelementptr i32, ptr addrspace(1) %out, i32 %i26
  %r26 = add i32 %a39, %v26
  store i32 %r26, ptr addrspace(1) %o26
  %o27 = getelementptr i32, ptr addrspace(1) %out, i32 %i27
  %r27 = add i32 %a39, %v27
  store i32 %r27, ptr addrspace(1) %o27
  %o28 = getelementptr i32, ptr addrspace(1) %out, i32 %i28
  %r28 = add i32 %a39, %v28
  store i32 %r28, ptr addrspace(1) %o28
  %o29 = getelementptr i32, ptr addrspace(1) %out, i32 %i29
  %r29 = add i32 %a39, %v29
  store i32 %r29, ptr addrspace(1) %o29
  %o30 = getelementptr i32, ptr addrspace(1) %out, i32 %i30
  %r30 = add i32 %a39, %v30
  store i32 %r30, ptr addrspace(1) %o30
  %o31 = getelementptr i32, ptr addrspace(1) %out, i32 %i31
  %r31 = add i32 %a39, %v31
  store i32 %r31, ptr addrspace(1) %o31
  %o32 = getelementptr i32, ptr addrspace(1) %out, i32 %i32
  %r32 = add i32 %a39, %v32
  store i32 %r32, ptr addrspace(1) %o32
  %o33 = getelementptr i32, ptr addrspace(1) %out, i32 %i33
  %r33 = add i32 %a39, %v33
  store i32 %r33, ptr addrspace(1) %o33
  %o34 = getelementptr i32, ptr addrspace(1) %out, i32 %i34
  %r34 = add i32 %a39, %v34
  store i32 %r34, ptr addrspace(1) %o34
  %o35 = getelementptr i32, ptr addrspace(1) %out, i32 %i35
  %r35 = add i32 %a39, %v35
  store i32 %r35, ptr addrspace(1) %o35
  %o36 = getelementptr i32, ptr addrspace(1) %out, i32 %i36
  %r36 = add i32 %a39, %v36
  store i32 %r36, ptr addrspace(1) %o36
  %o37 = getelementptr i32, ptr addrspace(1) %out, i32 %i37
  %r37 = add i32 %a39, %v37
  store i32 %r37, ptr addrspace(1) %o37
  %o38 = getelementptr i32, ptr addrspace(1) %out, i32 %i38
  %r38 = add i32 %a39, %v38
  store i32 %r38, ptr addrspace(1) %o38
  %o39 = getelementptr i32, ptr addrspace(1) %out, i32 %i39
  %r39 = add i32 %a39, %v39
  store i32 %r39, ptr addrspace(1) %o39
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
attributes #0 = { "amdgpu-num-vgpr"="24" }
