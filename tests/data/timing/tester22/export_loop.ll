; An export in a loop whose data VGPR the next iteration overwrites: the export holds its data
; VGPRs until expcnt says it read them, so llc must wait before the overwrite.
define amdgpu_ps void @export_loop(float %a, float %b, i32 inreg %n) {
entry:
  br label %loop
loop:
  %x = phi float [ %a, %entry ], [ %y, %loop ]
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  call void @llvm.amdgcn.exp.f32(i32 0, i32 1, float %x, float poison, float poison, float poison, i1 false, i1 false)
  %y = fmul float %x, %b
  %i1 = add i32 %i, 1
  %c = icmp ult i32 %i1, %n
  br i1 %c, label %loop, label %done
done:
  call void @llvm.amdgcn.exp.f32(i32 0, i32 1, float %y, float poison, float poison, float poison, i1 true, i1 true)
  ret void
}
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
