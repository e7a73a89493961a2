target triple = "amdgcn-amd-amdhsa"
@lds = internal addrspace(3) global [256 x i32] poison, align 4

define amdgpu_kernel void @lds_if(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %n) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %gep = getelementptr i32, ptr addrspace(1) %in, i32 %tid
  %v = load i32, ptr addrspace(1) %gep
  %lp = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %tid
  store i32 %v, ptr addrspace(3) %lp
  call void @llvm.amdgcn.s.barrier()
  %x = xor i32 %tid, 1
  %lp2 = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %x
  %w = load i32, ptr addrspace(3) %lp2
  %c = icmp slt i32 %w, %n
  br i1 %c, label %then, label %end
then:
  %m = mul i32 %w, 3
  %og = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %m, ptr addrspace(1) %og
  br label %end
end:
  %p = phi i32 [ %w, %entry ], [ %n, %then ]
  %og2 = getelementptr i32, ptr addrspace(1) %out, i32 %x
  store i32 %p, ptr addrspace(1) %og2
  ret void
}

define amdgpu_kernel void @loop(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %n) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %loop ]
  %idx = add i32 %i, %tid
  %g = getelementptr i32, ptr addrspace(1) %in, i32 %idx
  %v = load i32, ptr addrspace(1) %g
  %acc.next = add i32 %acc, %v
  %lp = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %i
  store i32 %acc.next, ptr addrspace(3) %lp
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  %og = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %acc.next, ptr addrspace(1) %og
  ret void
}

define amdgpu_kernel void @divloop(ptr addrspace(1) %out, ptr addrspace(1) %in) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %g0 = getelementptr i32, ptr addrspace(1) %in, i32 %tid
  %n = load i32, ptr addrspace(1) %g0
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i32 [ 7, %entry ], [ %acc.next, %loop ]
  %lp = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %i
  %v = load i32, ptr addrspace(3) %lp
  %acc.next = add i32 %acc, %v
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  %og = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %acc.next, ptr addrspace(1) %og
  ret void
}

define amdgpu_kernel void @buf(ptr addrspace(8) %rsrc, i32 %off, ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %o = shl i32 %tid, 2
  %a = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %rsrc, i32 %o, i32 %off, i32 0)
  %o2 = add i32 %o, 4
  %b = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %rsrc, i32 %o2, i32 %off, i32 0)
  %s = sub i32 %a, %b
  call void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32 %s, ptr addrspace(8) %rsrc, i32 %o, i32 %off, i32 0)
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()
declare i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8), i32, i32, i32)
declare void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32, ptr addrspace(8), i32, i32, i32)
