#!/usr/bin/env python3
"""Write tests/data/tv/{ds_merge,buf_merge,fold}.ll: gcnsmt's own kernels for `gcnsmt tv`
(hand-written IR, not LLVM's tests). Run from the repository root; then scripts/tv-gen.sh."""
import os

OUT = "tests/data/tv"

HDR_DS = """; gcnsmt tv kernels: LDS accesses that SILoadStoreOptimizer merges (or must not).
; Written for gcnsmt (not from LLVM's tests) by scripts/tv-kernels.py. Addresses from the
; work-item id, results kept alive by stores to LDS, so each kernel is one block of DS and
; VALU code. 64-bit values are combined with `or` (two v_or_b32; a 64-bit add needs
; v_addc_u32, which gcnsmt does not model).
@lds = addrspace(3) global [4096 x i32] undef, align 16
@lds64 = addrspace(3) global [2048 x i64] undef, align 16
@lds2 = addrspace(3) global [1024 x i32] undef, align 16
declare i32 @llvm.amdgcn.workitem.id.x()
"""


def ds_kernels():
    ks = []

    def k(name, body, ty="i32", arr="@lds"):
        ks.append(f"""
define amdgpu_kernel void @{name}() #0 {{
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr {ty}, ptr addrspace(3) {arr}, i32 %tid
{body}
  ret void
}}""")

    def ld(n, off, ty="i32"):
        return (f"  %q{n} = getelementptr {ty}, ptr addrspace(3) %p, i32 {off}\n"
                f"  %v{n} = load {ty}, ptr addrspace(3) %q{n}\n")

    def st(n, off, val, ty="i32"):
        return (f"  %s{n} = getelementptr {ty}, ptr addrspace(3) %p, i32 {off}\n"
                f"  store {ty} {val}, ptr addrspace(3) %s{n}\n")

    def reads(name, offs, ty="i32", arr="@lds"):
        b = "".join(ld(i, o, ty) for i, o in enumerate(offs))
        acc = "%v0"
        op = "add" if ty == "i32" else "or"
        for i in range(1, len(offs)):
            b += f"  %a{i} = {op} {ty} {acc}, %v{i}\n"
            acc = f"%a{i}"
        b += f"  store {ty} {acc}, ptr addrspace(3) %p\n"
        k(name, b, ty, arr)

    def writes(name, offs, ty="i32", arr="@lds"):
        b = ""
        for i, o in enumerate(offs):
            if ty == "i32":
                b += f"  %x{i} = add i32 %tid, {i + 1}\n"
            else:
                b += f"  %t{i} = zext i32 %tid to i64\n  %x{i} = or i64 %t{i}, {(i + 1) << 40}\n"
            b += st(i, o, f"%x{i}", ty)
        k(name, b, ty, arr)

    reads("read2_b32_adjacent", [0, 1])
    reads("read2_b32_far", [0, 8])
    reads("read2_b32_max", [0, 255])
    reads("read2_b32_base_offset", [16, 17])
    reads("read2st64_b32", [0, 64])
    reads("read2st64_b32_far", [64, 640])
    reads("read2_b32_three", [0, 1, 2])
    reads("read2_b32_four", [0, 1, 2, 3])
    reads("read2_b32_too_far", [0, 256 * 64 + 1])
    reads("read2_b64_adjacent", [0, 1], "i64", "@lds64")
    reads("read2_b64_far", [2, 9], "i64", "@lds64")
    reads("read2st64_b64", [0, 64], "i64", "@lds64")
    reads("read2_b32_swapped_order", [5, 4])
    writes("write2_b32_adjacent", [0, 1])
    writes("write2_b32_far", [3, 200])
    writes("write2st64_b32", [0, 128])
    writes("write2_b32_four", [0, 1, 2, 3])
    writes("write2_b64_adjacent", [0, 1], "i64", "@lds64")
    writes("write2st64_b64", [0, 64], "i64", "@lds64")
    writes("write2_b32_same_address_pair", [7, 8])
    other = ("  %o = getelementptr i32, ptr addrspace(3) @lds2, i32 %tid\n"
             "  store i32 7, ptr addrspace(3) %o\n")
    sum_back = "  %a = add i32 %v0, %v1\n  store i32 %a, ptr addrspace(3) %p\n"
    k("read2_across_other_array_store", ld(0, 0) + other + ld(1, 1) + sum_back)
    k("read2_across_aliasing_store", ld(0, 0) + st(9, 1, "%tid") + ld(1, 1) + sum_back)
    k("read2_across_disjoint_store", ld(0, 0) + st(9, 2, "%tid") + ld(1, 1)
      + "  %a = add i32 %v0, %v1\n" + st(8, 3, "%a"))
    k("write2_across_load", st(0, 0, "%tid") + ld(1, 5) + st(2, 1, "%v1"))
    k("mixed_read_write", ld(0, 0) + ld(1, 1) + st(2, 2, "%v0") + st(3, 3, "%v1"))
    k("no_merge_byte_loads",
      "  %b0 = getelementptr i8, ptr addrspace(3) %p, i32 0\n  %c0 = load i8, ptr addrspace(3) %b0\n"
      "  %b1 = getelementptr i8, ptr addrspace(3) %p, i32 1\n  %c1 = load i8, ptr addrspace(3) %b1\n"
      "  %c = add i8 %c0, %c1\n  store i8 %c, ptr addrspace(3) %b0\n")
    k("read2_b32_then_write2", ld(0, 0) + ld(1, 1) + st(2, 4, "%v1") + st(3, 5, "%v0"))
    k("read2_b32_two_bases",
      ld(0, 0) + "  %p2 = getelementptr i32, ptr addrspace(3) @lds2, i32 %tid\n"
      "  %v1 = load i32, ptr addrspace(3) %p2\n" + ld(2, 1)
      + "  %a = add i32 %v0, %v1\n  %b = add i32 %a, %v2\n  store i32 %b, ptr addrspace(3) %p\n")
    # Unmodelled instructions: v_mul_lo_u32 (pure: an uninterpreted op of live-in inputs),
    # inline asm (unknown memory effect: the block is unsupported), a barrier.
    k("read2_b32_mul_address",
      "  %m = mul i32 %tid, %tid\n  %pm = getelementptr i32, ptr addrspace(3) @lds, i32 %m\n"
      "  %x0 = load i32, ptr addrspace(3) %pm\n  %pm1 = getelementptr i32, ptr addrspace(3) %pm, i32 1\n"
      "  %x1 = load i32, ptr addrspace(3) %pm1\n  %a = add i32 %x0, %x1\n  store i32 %a, ptr addrspace(3) %p\n")
    k("read2_across_inline_asm", ld(0, 0) + '  call void asm sideeffect "s_nop 0", ""()\n' + ld(1, 1) + sum_back)
    k("read2_across_barrier", ld(0, 0) + "  call void @llvm.amdgcn.s.barrier()\n" + ld(1, 1) + sum_back)
    # Kernel arguments and global memory next to the LDS code (scalar loads of the kernarg
    # segment, a float add, a global store: dropped as identical unmodelled instructions).
    ks.append("""
define amdgpu_kernel void @read2_f32_global_out(ptr addrspace(1) %out) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr float, ptr addrspace(3) @lds, i32 %tid
  %q = getelementptr float, ptr addrspace(3) %p, i32 8
  %a = load float, ptr addrspace(3) %p
  %b = load float, ptr addrspace(3) %q
  %s = fadd float %a, %b
  %o = getelementptr float, ptr addrspace(1) %out, i32 %tid
  store float %s, ptr addrspace(1) %o
  ret void
}""")
    ks.append("""
define amdgpu_kernel void @write2_kernarg_data(i32 %x) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  %q = getelementptr i32, ptr addrspace(3) %p, i32 1
  %y = add i32 %x, 1
  store i32 %x, ptr addrspace(3) %p
  store i32 %y, ptr addrspace(3) %q
  ret void
}""")
    # Control flow: the merge happens in a conditional block whose sum a PHI reads.
    ks.append("""
define amdgpu_kernel void @branchy() #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  %c = icmp ult i32 %tid, 16
  br i1 %c, label %then, label %done
then:
  %q = getelementptr i32, ptr addrspace(3) %p, i32 1
  %a = load i32, ptr addrspace(3) %p
  %b = load i32, ptr addrspace(3) %q
  %s = add i32 %a, %b
  br label %done
done:
  %r = phi i32 [ 0, %entry ], [ %s, %then ]
  %o = getelementptr i32, ptr addrspace(3) %p, i32 64
  store i32 %r, ptr addrspace(3) %o
  %o2 = getelementptr i32, ptr addrspace(3) %p, i32 65
  store i32 %tid, ptr addrspace(3) %o2
  ret void
}""")
    return HDR_DS + "declare void @llvm.amdgcn.s.barrier()\n" + "".join(ks) + '\nattributes #0 = { "amdgpu-lds-size"="32768" }\n', len(ks)


HDR_BUF = """; gcnsmt tv kernels: buffer accesses that SILoadStoreOptimizer merges (or must not).
; Written for gcnsmt (not from LLVM's tests) by scripts/tv-kernels.py. amdgpu_ps functions
; take the V# in SGPRs and the offset in a VGPR, so each function is one block of MUBUF and
; VALU code.
declare i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8), i32, i32, i32)
declare void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32, ptr addrspace(8), i32, i32, i32)
"""


def buf_kernels():
    bs = []

    def f(name, body, args="ptr addrspace(8) inreg %r, i32 %o, i32 inreg %so"):
        bs.append(f"\ndefine amdgpu_ps void @{name}({args}) {{\n{body}  ret void\n}}\n")

    def bl(n, off, vo="%o", so="0"):
        s = f"  %o{n} = add i32 {vo}, {off}\n" if off else ""
        v = f"%o{n}" if off else vo
        return s + (f"  %v{n} = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %r, "
                    f"i32 {v}, i32 {so}, i32 0)\n")

    def bst(n, off, val, vo="%o", so="0"):
        s = f"  %w{n} = add i32 {vo}, {off}\n" if off else ""
        v = f"%w{n}" if off else vo
        return s + (f"  call void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32 {val}, ptr addrspace(8) %r, "
                    f"i32 {v}, i32 {so}, i32 0)\n")

    def sumstore(n):
        b, acc = "", "%v0"
        for i in range(1, n):
            b += f"  %a{i} = add i32 {acc}, %v{i}\n"
            acc = f"%a{i}"
        return b + bst(99, 0, acc)

    f("buf_load_x2_offen", bl(0, 0) + bl(1, 4) + sumstore(2))
    f("buf_load_x3_offen", bl(0, 0) + bl(1, 4) + bl(2, 8) + sumstore(3))
    f("buf_load_x4_offen", bl(0, 0) + bl(1, 4) + bl(2, 8) + bl(3, 12) + sumstore(4))
    f("buf_load_x2_offset_imm", bl(0, 0, vo="16") + bl(1, 0, vo="20") + sumstore(2))
    f("buf_load_x2_soffset", bl(0, 0, so="%so") + bl(1, 4, so="%so") + sumstore(2))
    f("buf_load_x2_base_offset", bl(0, 64) + bl(1, 68) + sumstore(2))
    f("buf_store_x2_offen", bst(0, 0, "%o") + bst(1, 4, "%so"))
    f("buf_store_x4_offen", bst(0, 0, "%o") + bst(1, 4, "%so") + bst(2, 8, "7") + bst(3, 12, "%o"))
    f("buf_store_x2_offset_imm", bst(0, 0, "%o", vo="8") + bst(1, 0, "%so", vo="12"))
    f("buf_load_across_aliasing_store", bl(0, 0) + bst(5, 4, "%so") + bl(1, 4) + sumstore(2))
    f("buf_load_across_disjoint_store", bl(0, 0) + bst(5, 8, "%so") + bl(1, 4)
      + "  %a = add i32 %v0, %v1\n" + bst(6, 12, "%a"))
    f("buf_load_x2_reversed", bl(0, 4) + bl(1, 0) + sumstore(2))
    f("buf_store_then_load_x2", bst(0, 0, "%so") + bst(1, 4, "%o") + bl(2, 8) + bl(3, 12)
      + "  %a = add i32 %v2, %v3\n" + bst(4, 16, "%a"))
    return HDR_BUF + "".join(bs), len(bs)


if __name__ == "__main__":
    total = 0
    for name, (text, n) in [("ds_merge.ll", ds_kernels()), ("buf_merge.ll", buf_kernels())]:
        with open(os.path.join(OUT, name), "w") as fh:
            fh.write(text)
        total += n
    print(f"{total} functions")
