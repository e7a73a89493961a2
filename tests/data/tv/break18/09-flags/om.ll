define amdgpu_ps float @om(float %a, float %b) #0 {
  %s = fadd float %a, %b
  %m = fmul float %s, 2.0
  ret float %m
}
attributes #0 = { "denormal-fp-math-f32"="preserve-sign,preserve-sign" }
