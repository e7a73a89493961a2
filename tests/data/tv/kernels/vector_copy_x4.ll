; Written for gcnsmt (issue 28, tv --pipeline): a vectorised grid-stride copy-and-scale of
; int4 elements (dwordx4 global loads and stores), with a scalar tail for the last %n
; mod 4 elements (done by work-group 0), as a HIP memcpy-like kernel compiles.
define amdgpu_kernel void @vector_copy_x4(ptr addrspace(1) noalias %dst, ptr addrspace(1) noalias readonly %src, i32 %n, i32 %k) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %wg = call i32 @llvm.amdgcn.workgroup.id.x()
  %nwg = call i32 @llvm.amdgcn.num.workgroups.x()
  %base = shl i32 %wg, 8
  %gi = add i32 %base, %tid
  %stride = shl i32 %nwg, 8
  %n4 = lshr i32 %n, 2
  %splat0 = insertelement <4 x i32> poison, i32 %k, i32 0
  %splat = shufflevector <4 x i32> %splat0, <4 x i32> poison, <4 x i32> zeroinitializer
  %any = icmp ult i32 %gi, %n4
  br i1 %any, label %vloop, label %tail.pre

vloop:
  %i = phi i32 [ %gi, %entry ], [ %i.next, %vloop ]
  %i64 = zext i32 %i to i64
  %ps = getelementptr inbounds <4 x i32>, ptr addrspace(1) %src, i64 %i64
  %v = load <4 x i32>, ptr addrspace(1) %ps, align 16
  %m = mul <4 x i32> %v, %splat
  %pd = getelementptr inbounds <4 x i32>, ptr addrspace(1) %dst, i64 %i64
  store <4 x i32> %m, ptr addrspace(1) %pd, align 16
  %i.next = add i32 %i, %stride
  %more = icmp ult i32 %i.next, %n4
  br i1 %more, label %vloop, label %tail.pre

tail.pre:
  %done4 = shl i32 %n4, 2
  %t = add i32 %done4, %tid
  %intail = icmp ult i32 %t, %n
  %wg0 = icmp eq i32 %wg, 0
  %do = and i1 %intail, %wg0
  br i1 %do, label %tail, label %exit

tail:
  %t64 = zext i32 %t to i64
  %pts = getelementptr inbounds i32, ptr addrspace(1) %src, i64 %t64
  %tv = load i32, ptr addrspace(1) %pts, align 4
  %tm = mul i32 %tv, %k
  %ptd = getelementptr inbounds i32, ptr addrspace(1) %dst, i64 %t64
  store i32 %tm, ptr addrspace(1) %ptd, align 4
  br label %exit

exit:
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.num.workgroups.x()
