; Written for gcnsmt (issue 28, tv --pipeline): integer bit manipulation of a hash or
; bit-packing kernel: shifts by variable and constant amounts, bitfield extracts (the ubfe/sbfe
; intrinsics and the and-of-shift they come from), popcount, count leading/trailing zeros,
; bit reverse, a funnel-shift rotate, a 64-bit shift, and a mul_hi.
define amdgpu_kernel void @bit_tricks(ptr addrspace(1) noalias %out, ptr addrspace(1) noalias readonly %in, i32 %sh) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %t64 = zext i32 %tid to i64
  %p = getelementptr inbounds <2 x i32>, ptr addrspace(1) %in, i64 %t64
  %v = load <2 x i32>, ptr addrspace(1) %p, align 8
  %a = extractelement <2 x i32> %v, i32 0
  %b = extractelement <2 x i32> %v, i32 1
  %f0 = call i32 @llvm.amdgcn.ubfe.i32(i32 %a, i32 5, i32 11)
  %f1 = call i32 @llvm.amdgcn.sbfe.i32(i32 %b, i32 %sh, i32 7)
  %s1 = lshr i32 %a, 17
  %f2 = and i32 %s1, 1023
  %pc = call i32 @llvm.ctpop.i32(i32 %b)
  %lz = call i32 @llvm.ctlz.i32(i32 %a, i1 false)
  %tz = call i32 @llvm.cttz.i32(i32 %b, i1 true)
  %br = call i32 @llvm.bitreverse.i32(i32 %a)
  %rot = call i32 @llvm.fshl.i32(i32 %b, i32 %b, i32 13)
  %shl = shl i32 %a, %sh
  %ashr = ashr i32 %b, %sh
  %m = xor i32 %rot, %br
  %h1 = mul i32 %m, -1640531535
  %hi64 = zext i32 %h1 to i64
  %a64 = zext i32 %a to i64
  %prod = mul i64 %hi64, %a64
  %mh = lshr i64 %prod, 32
  %mh32 = trunc i64 %mh to i32
  %x0 = add i32 %f0, %f1
  %x1 = add i32 %f2, %pc
  %x2 = add i32 %lz, %tz
  %x3 = xor i32 %shl, %ashr
  %y0 = or i32 %x0, %x1
  %y1 = sub i32 %x2, %x3
  %y2 = add i32 %y0, %y1
  %y3 = xor i32 %y2, %mh32
  %w = zext i32 %y3 to i64
  %wb = zext i32 %b to i64
  %wbs = shl i64 %wb, 32
  %w64 = or i64 %wbs, %w
  %sh64 = zext i32 %sh to i64
  %wr = lshr i64 %w64, %sh64
  %po = getelementptr inbounds i64, ptr addrspace(1) %out, i64 %t64
  store i64 %wr, ptr addrspace(1) %po, align 8
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.ubfe.i32(i32, i32, i32)
declare i32 @llvm.amdgcn.sbfe.i32(i32, i32, i32)
declare i32 @llvm.ctpop.i32(i32)
declare i32 @llvm.ctlz.i32(i32, i1)
declare i32 @llvm.cttz.i32(i32, i1)
declare i32 @llvm.bitreverse.i32(i32)
declare i32 @llvm.fshl.i32(i32, i32, i32)
