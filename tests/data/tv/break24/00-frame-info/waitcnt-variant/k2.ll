target triple = "amdgcn-amd-amdhsa"
@sh = internal addrspace(3) global [512 x float] poison, align 4

define amdgpu_kernel void @reduce(ptr addrspace(1) %out, ptr addrspace(1) %in) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %g = getelementptr float, ptr addrspace(1) %in, i32 %tid
  %v = load float, ptr addrspace(1) %g
  %p = getelementptr [512 x float], ptr addrspace(3) @sh, i32 0, i32 %tid
  store float %v, ptr addrspace(3) %p
  br label %loop
loop:
  %s = phi i32 [ 128, %entry ], [ %s2, %latch ]
  call void @llvm.amdgcn.s.barrier()
  %c = icmp ult i32 %tid, %s
  br i1 %c, label %add, label %latch
add:
  %j = add i32 %tid, %s
  %q = getelementptr [512 x float], ptr addrspace(3) @sh, i32 0, i32 %j
  %a = load float, ptr addrspace(3) %q
  %b = load float, ptr addrspace(3) %p
  %sum = fadd float %a, %b
  store float %sum, ptr addrspace(3) %p
  br label %latch
latch:
  %s2 = lshr i32 %s, 1
  %done = icmp eq i32 %s2, 0
  br i1 %done, label %exit, label %loop
exit:
  %z = icmp eq i32 %tid, 0
  br i1 %z, label %wr, label %ret
wr:
  %r = load float, ptr addrspace(3) @sh
  store float %r, ptr addrspace(1) %out
  br label %ret
ret:
  ret void
}

define amdgpu_kernel void @bufk(ptr addrspace(8) %rs, ptr addrspace(1) %out, i32 %n) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %o = shl i32 %tid, 4
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %in, %body ]
  %acc = phi i32 [ 0, %entry ], [ %acc2, %body ]
  %oi = add i32 %o, %i
  %x = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %rs, i32 %oi, i32 16, i32 0)
  %c = icmp sgt i32 %x, 0
  br i1 %c, label %body, label %exit
body:
  %y = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %rs, i32 %oi, i32 20, i32 0)
  %acc2 = add i32 %acc, %y
  call void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32 %acc2, ptr addrspace(8) %rs, i32 %oi, i32 24, i32 0)
  %in = add i32 %i, 4
  %lc = icmp slt i32 %in, %n
  br i1 %lc, label %loop, label %exit
exit:
  %r = phi i32 [ %acc, %loop ], [ %acc2, %body ]
  %og = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %r, ptr addrspace(1) %og
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()
declare i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8), i32, i32, i32)
declare void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32, ptr addrspace(8), i32, i32, i32)
