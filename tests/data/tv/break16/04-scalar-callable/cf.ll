define i32 @cf(ptr addrspace(1) inreg %p) {
  %v = load i32, ptr addrspace(1) %p, align 4
  ret i32 %v
}
