target triple = "amdgcn-amd-amdhsa"

define void @fi(ptr addrspace(1) %out, i32 %x) #0 {
  %b = alloca [4 x i32], align 4, addrspace(5)
  %pa = getelementptr [4 x i32], ptr addrspace(5) %b, i32 0, i32 %x
  %i = ptrtoint ptr addrspace(5) %pa to i32
  store i32 %i, ptr addrspace(1) %out, align 4
  ret void
}

attributes #0 = { "target-cpu"="gfx900" "target-features"="+enable-flat-scratch" }
