; Written for gcnsmt (issue 28, tv --pipeline): a loop whose body branches on per-lane data
; (a divergent if/else inside a uniform loop, then a data-dependent early exit: a Collatz
; step counter capped at %max iterations), so EXEC is saved, masked and restored inside the
; loop and the loop exit is a lane mask.
define amdgpu_kernel void @divergent_loop(ptr addrspace(1) noalias %out, ptr addrspace(1) noalias readonly %in, i32 %max) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %wg = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %wg, 6
  %gi = add i32 %base, %tid
  %gi64 = zext i32 %gi to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %gi64
  %x0 = load i32, ptr addrspace(1) %p, align 4
  %start = icmp ugt i32 %x0, 1
  %any = icmp ne i32 %max, 0
  %go = and i1 %start, %any
  br i1 %go, label %loop, label %done

loop:
  %x = phi i32 [ %x0, %entry ], [ %x.next, %latch ]
  %n = phi i32 [ 0, %entry ], [ %n.next, %latch ]
  %odd = and i32 %x, 1
  %isodd = icmp ne i32 %odd, 0
  br i1 %isodd, label %odd_step, label %even_step

odd_step:
  %x3 = mul i32 %x, 3
  %x31 = add i32 %x3, 1
  br label %latch

even_step:
  %xh = lshr i32 %x, 1
  br label %latch

latch:
  %x.next = phi i32 [ %x31, %odd_step ], [ %xh, %even_step ]
  %n.next = add nuw i32 %n, 1
  %cont1 = icmp ugt i32 %x.next, 1
  %cont2 = icmp ult i32 %n.next, %max
  %cont = and i1 %cont1, %cont2
  br i1 %cont, label %loop, label %done

done:
  %steps = phi i32 [ 0, %entry ], [ %n.next, %latch ]
  %last = phi i32 [ %x0, %entry ], [ %x.next, %latch ]
  %q = getelementptr inbounds <2 x i32>, ptr addrspace(1) %out, i64 %gi64
  %r0 = insertelement <2 x i32> poison, i32 %steps, i32 0
  %r1 = insertelement <2 x i32> %r0, i32 %last, i32 1
  store <2 x i32> %r1, ptr addrspace(1) %q, align 8
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
