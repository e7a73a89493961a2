#!/usr/bin/env python3
"""Writes regmask.before.mir / regmask.after.mir (see README.md): one function per case, each
a call with a physical register set before it and read (stored to LDS) after it. The before
side sets the register again after the call; the after side drops that re-initialisation
(or, in `changed_def`, sets it to another value before the call; in `mask_changed`, calls
with another mask)."""

# name, mask before, mask after, register, value set before the call on the after side,
# whether the after side keeps the re-initialisation
CASES = [
    ("v40", "csr_amdgpu", "csr_amdgpu", "$vgpr40", 7, False),
    ("v1", "csr_amdgpu", "csr_amdgpu", "$vgpr1", 7, False),
    ("s48", "csr_amdgpu", "csr_amdgpu", "$sgpr48", 7, False),
    ("s40", "csr_amdgpu", "csr_amdgpu", "$sgpr40", 7, False),
    ("s20_gfx", "csr_amdgpu_si_gfx", "csr_amdgpu_si_gfx", "$sgpr20", 7, False),
    ("s20", "csr_amdgpu", "csr_amdgpu", "$sgpr20", 7, False),
    ("m0", "csr_amdgpu", "csr_amdgpu", "$m0", 7, False),
    ("custom_v1", "CustomRegMask($vgpr1)", "CustomRegMask($vgpr1)", "$vgpr1", 7, False),
    ("custom_v40", "CustomRegMask($vgpr1)", "CustomRegMask($vgpr1)", "$vgpr40", 7, False),
    ("changed_def", "csr_amdgpu", "csr_amdgpu", "$vgpr40", 8, False),
    ("dead_before_call", "csr_amdgpu", "csr_amdgpu", "$vgpr1", 9, True),
    ("mask_changed", "csr_amdgpu", "csr_amdgpu_noregs", "$vgpr40", 7, False),
]


def mov(reg, v):
    if reg.startswith("$vgpr"):
        return f"{reg} = V_MOV_B32_e32 {v}, implicit $exec"
    return f"{reg} = S_MOV_B32 {v}"


def body(name, mask, reg, pre, reinit):
    data = reg
    lines = [
        "%0:vgpr_32 = COPY $vgpr0",
        mov(reg, pre),
        "ADJCALLSTACKUP 0, 0, implicit-def dead $scc, implicit-def $sgpr32, implicit $sgpr32",
        "%1:sreg_64 = SI_PC_ADD_REL_OFFSET target-flags(amdgpu-gotprel32-lo) @ext, "
        "target-flags(amdgpu-gotprel32-hi) @ext, implicit-def dead $scc",
        "%2:sreg_64_xexec = S_LOAD_DWORDX2_IMM killed %1, 0, 0",
        f"$sgpr30_sgpr31 = SI_CALL killed %2, @ext, {mask}",
        "ADJCALLSTACKDOWN 0, 0, implicit-def dead $scc, implicit-def $sgpr32, implicit $sgpr32",
    ]
    if reinit:
        lines.append(mov(reg, 7))
    if not reg.startswith("$vgpr"):
        lines.append(f"%3:vgpr_32 = COPY {reg}")
        data = "%3"
    lines.append(f"DS_WRITE_B32_gfx9 %0, {data}, 0, 0, implicit $exec")
    lines.append("S_ENDPGM 0")
    return "\n".join("    " + l for l in lines)


def function(name, mask, reg, pre, reinit):
    return f"""---
name:            {name}
tracksRegLiveness: true
registers:
  - {{ id: 0, class: vgpr_32 }}
  - {{ id: 1, class: sreg_64 }}
  - {{ id: 2, class: sreg_64_xexec }}
  - {{ id: 3, class: vgpr_32 }}
frameInfo:
  adjustsStack:    true
  hasCalls:        true
machineFunctionInfo:
  isEntryFunction: true
  scratchRSrcReg:  '$sgpr96_sgpr97_sgpr98_sgpr99'
  stackPtrOffsetReg: '$sgpr32'
body:             |
  bb.0:
    liveins: $vgpr0

{body(name, mask, reg, pre, reinit)}
"""


def module(header, cases):
    fns = "\n".join(f"  define amdgpu_kernel void @{c[0]}() {{ ret void }}" for c in cases)
    return f"# {header}\n--- |\n  declare void @ext()\n{fns}\n...\n"




def write(stem, cases):
    head = "See README.md; written by gen.py."
    before = module(head, cases) + "".join(
        function(n, mb, r, 7, True) for n, mb, _, r, _, _ in cases
    )
    after = module(head, cases) + "".join(
        function(n, ma, r, v, keep) for n, _, ma, r, v, keep in cases
    )
    open(f"{stem}.before.mir", "w").write(before + "...\n")
    open(f"{stem}.after.mir", "w").write(after + "...\n")


write("regmask", CASES)
# A mask LLVM 22 does not define (llc-22 rejects these two files; tv says unsupported).
write("unknown_mask", [("unknown", "csr_amdgpu_x", "csr_amdgpu_x", "$vgpr40", 7, False)])
