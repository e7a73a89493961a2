; Written for gcnsmt (issue 28, tv --pipeline): one Jacobi step of a 2D 5-point stencil on a
; row-major %w x %h float grid, straight from global memory (no LDS), boundary points copied
; unchanged; 2D work-item and work-group ids, 64-bit row offsets.
define amdgpu_kernel void @stencil_2d(ptr addrspace(1) noalias %out, ptr addrspace(1) noalias readonly %in, i32 %w, i32 %h) {
entry:
  %tx = call i32 @llvm.amdgcn.workitem.id.x()
  %ty = call i32 @llvm.amdgcn.workitem.id.y()
  %bx = call i32 @llvm.amdgcn.workgroup.id.x()
  %by = call i32 @llvm.amdgcn.workgroup.id.y()
  %x0 = shl i32 %bx, 4
  %x = add i32 %x0, %tx
  %y0 = shl i32 %by, 4
  %y = add i32 %y0, %ty
  %xin = icmp ult i32 %x, %w
  %yin = icmp ult i32 %y, %h
  %in_grid = and i1 %xin, %yin
  br i1 %in_grid, label %body, label %exit

body:
  %y64 = zext i32 %y to i64
  %w64 = zext i32 %w to i64
  %x64 = zext i32 %x to i64
  %row = mul i64 %y64, %w64
  %idx = add i64 %row, %x64
  %pc = getelementptr inbounds float, ptr addrspace(1) %in, i64 %idx
  %c = load float, ptr addrspace(1) %pc, align 4
  %po = getelementptr inbounds float, ptr addrspace(1) %out, i64 %idx
  %wm1 = add i32 %w, -1
  %hm1 = add i32 %h, -1
  %xl = icmp eq i32 %x, 0
  %xr = icmp eq i32 %x, %wm1
  %yt = icmp eq i32 %y, 0
  %yb = icmp eq i32 %y, %hm1
  %e1 = or i1 %xl, %xr
  %e2 = or i1 %yt, %yb
  %edge = or i1 %e1, %e2
  br i1 %edge, label %copy, label %interior

interior:
  %pl = getelementptr inbounds float, ptr addrspace(1) %pc, i64 -1
  %pr = getelementptr inbounds float, ptr addrspace(1) %pc, i64 1
  %nw = sub i64 0, %w64
  %pt = getelementptr inbounds float, ptr addrspace(1) %pc, i64 %nw
  %pb = getelementptr inbounds float, ptr addrspace(1) %pc, i64 %w64
  %l = load float, ptr addrspace(1) %pl, align 4
  %r = load float, ptr addrspace(1) %pr, align 4
  %t = load float, ptr addrspace(1) %pt, align 4
  %b = load float, ptr addrspace(1) %pb, align 4
  %s1 = fadd float %l, %r
  %s2 = fadd float %t, %b
  %s = fadd float %s1, %s2
  %n = call float @llvm.fma.f32(float %c, float -4.0, float %s)
  %v = call float @llvm.fma.f32(float %n, float 0.25, float %c)
  store float %v, ptr addrspace(1) %po, align 4
  br label %exit

copy:
  store float %c, ptr addrspace(1) %po, align 4
  br label %exit

exit:
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workitem.id.y()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.workgroup.id.y()
declare float @llvm.fma.f32(float, float, float)
