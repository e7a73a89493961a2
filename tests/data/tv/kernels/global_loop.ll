; Written for gcnsmt (issue 28, tv --pipeline): a grid-stride loop over global memory with
; 64-bit addressing: out[i] = in[i] * 3 + in[i + 1] for i = tid, tid + 256, ... below n.
define amdgpu_kernel void @global_loop(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %n) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %go = icmp ult i32 %tid, %n
  br i1 %go, label %loop, label %exit

loop:
  %i = phi i32 [ %tid, %entry ], [ %i.next, %loop ]
  %i64 = zext i32 %i to i64
  %p = getelementptr i32, ptr addrspace(1) %in, i64 %i64
  %a = load i32, ptr addrspace(1) %p, align 4
  %p1 = getelementptr i32, ptr addrspace(1) %p, i64 1
  %b = load i32, ptr addrspace(1) %p1, align 4
  %a3 = mul i32 %a, 3
  %r = add i32 %a3, %b
  %q = getelementptr i32, ptr addrspace(1) %out, i64 %i64
  store i32 %r, ptr addrspace(1) %q, align 4
  %i.next = add i32 %i, 256
  %more = icmp ult i32 %i.next, %n
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
