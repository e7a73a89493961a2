"""The `gcnsmt waitcnt` benchmark kernel (docs/timing.md): N blocks, each a volatile global
load, an LDS store and load, a multiply-add and a conditional global store.

    python3 scripts/waitcnt_bench_kernel.py 3000          # writes big3000.ll
    llc-22 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx900 big3000.ll -o big3000_gfx900.s
    gcnsmt waitcnt big3000_gfx900.s
"""
import sys
N=int(sys.argv[1])
out=[]
out.append("define amdgpu_kernel void @big(ptr addrspace(1) %out, ptr addrspace(1) %in, ptr addrspace(3) %lds, i32 %n) {")
out.append("entry:\n  %tid = call i32 @llvm.amdgcn.workitem.id.x()\n  %p = getelementptr i32, ptr addrspace(1) %in, i32 %tid\n  %l = getelementptr i32, ptr addrspace(3) %lds, i32 %tid\n  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid\n  br label %b0")
for i in range(N):
    acc = "0"
    out.append(f"b{i}:")
    if i>0:
        out.append(f"  %accin{i} = phi i32 [%acc{i-1}, %b{i-1}], [%acc{i-1}, %s{i-1}]")
        acc=f"%accin{i}"
    out.append(f"  %q{i} = getelementptr i32, ptr addrspace(1) %p, i32 {i*64}")
    out.append(f"  %v{i} = load volatile i32, ptr addrspace(1) %q{i}")
    out.append(f"  %lp{i} = getelementptr i32, ptr addrspace(3) %l, i32 {(i%50)*64}")
    out.append(f"  store volatile i32 %v{i}, ptr addrspace(3) %lp{i}")
    out.append(f"  %lq{i} = getelementptr i32, ptr addrspace(3) %l, i32 {((i+7)%50)*64}")
    out.append(f"  %w{i} = load volatile i32, ptr addrspace(3) %lq{i}")
    out.append(f"  %x{i} = mul i32 %w{i}, %v{i}")
    out.append(f"  %acc{i} = add i32 {acc}, %x{i}")
    out.append(f"  %c{i} = icmp sgt i32 %x{i}, %n")
    nxt = f"b{i+1}" if i+1<N else "exit"
    out.append(f"  br i1 %c{i}, label %s{i}, label %{nxt}")
    out.append(f"s{i}:")
    out.append(f"  %so{i} = getelementptr i32, ptr addrspace(1) %o, i32 {i*64}")
    out.append(f"  store volatile i32 %acc{i}, ptr addrspace(1) %so{i}")
    out.append(f"  br label %{nxt}")
out.append("exit:")
out.append(f"  %f = phi i32 [%acc{N-1}, %b{N-1}], [%acc{N-1}, %s{N-1}]")
out.append("  store i32 %f, ptr addrspace(1) %o\n  ret void\n}\ndeclare i32 @llvm.amdgcn.workitem.id.x()")
open(f"big{N}.ll","w").write("\n".join(out)+"\n")
