; Written for gcnsmt's tv --pipeline tests: one global load, an add, one global store.
define amdgpu_kernel void @add_one(ptr addrspace(1) %p) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %v = load i32, ptr addrspace(1) %q, align 4
  %w = add i32 %v, 1
  store i32 %w, ptr addrspace(1) %q, align 4
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
