#!/usr/bin/env python3
"""Regenerate mubuf_shapes.tsv by probing llvm-mc-22.

For every target and every MUBUF/VBUFFER opcode of mubuf_opcodes_by_target.csv:
  - the vdata width in dwords: disassemble the opcode with vdata=v0, vaddr off,
    srsrc s[8:11], soffset s3 and count the printed tuple (gfx6/gfx7, which LLVM 22
    cannot disassemble, take the width of the same mnemonic in the gfx6 round-trip file);
  - `tfe`: whether the word with the TFE bit set (55 on SI/VI/gfx10, 53 on gfx11,
    22 on VBUFFER) disassembles (gfx90a/gfx942/gfx950 reuse bit 55 as ACC: no TFE);
  - `lds`: whether the word with the LDS bit 16 set disassembles (before gfx11 only);
  - `rtn` (atomics): whether the returning form exists (GLC / SC0 bit 14 set, or
    th:TH_ATOMIC_RETURN = bit 52 on VBUFFER);
  - `lds_only`: opcodes missing from the CSV that disassemble only with the LDS bit
    (`buffer_store_lds_dword`, gfx8-gfx90a: no vdata and no vaddr); found by trying every
    undefined opcode with the LDS bit set.
  gfx6/gfx7 are probed by assembling `<mn> v[..], off, s[8:11], s3 tfe` and
  `<mn> off, s[8:11], s3 lds` and `<mn> v.., off, s[8:11], s3 glc` instead.
  - `flags`: for every flag bit of the layout (bits that are no register, offset, opcode or
    encoding field), what llvm-mc-22 does when only that bit is set on the base word:
    `v` (valid, changes the text), `i` (ignored: same text) or `x` (invalid encoding).
    gfx6/gfx7 (no disassembler) get the rule-based SI answer.
The class (load/store/atomic/cache) follows from the mnemonic.

Usage: python3 lifter/data/gen_mubuf_shapes.py  (from the workspace root; needs llvm-mc-22)
"""
import csv
import pathlib
import re
import subprocess

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CSV = HERE / "mubuf_opcodes_by_target.csv"
OUT = HERE / "mubuf_shapes.tsv"
RT = ROOT / "tests" / "data" / "roundtrip"


def dis(cpu, words, nbytes):
    inp = "".join("[" + " ".join("0x%02x" % b for b in w.to_bytes(nbytes, "little")) + "]\n" for w in words)
    p = subprocess.run(["llvm-mc-22", "-arch=amdgcn", "-mcpu=" + cpu, "--disassemble"],
                       input=inp, capture_output=True, text=True)
    bad = {int(m.group(1)) - 1 for m in re.finditer(r"^<stdin>:(\d+):\d+: warning", p.stderr, re.M)}
    outs = iter(l.strip() for l in p.stdout.split("\n") if l.startswith("\t") and not l.strip().startswith("."))
    return [None if i in bad else next(outs) for i in range(len(words))]


def asm_ok(cpu, lines):
    p = subprocess.run(["llvm-mc-22", "-arch=amdgcn", "-mcpu=" + cpu, "-show-encoding"],
                       input="\n".join(lines) + "\n", capture_output=True, text=True)
    errs = {int(m.group(1)) - 1 for m in re.finditer(r"^<stdin>:(\d+):\d+: error", p.stderr, re.M)}
    return [i not in errs for i in range(len(lines))]


def klass(mn):
    if mn.startswith("buffer_atomic"):
        return "atomic"
    if "store" in mn:
        return "store"
    if "load" in mn:
        return "load"
    return "cache"


def width(text):
    m = re.match(r"\S+ v(?:\[(\d+):(\d+)\]|(\d+))", text or "")
    if not m:
        return 0
    return int(m.group(2)) - int(m.group(1)) + 1 if m.group(1) else 1


def base_word(cpu, op):
    """vdata v0, vaddr off, srsrc s[8:11], soffset s3, every flag clear."""
    if cpu in ("gfx1200", "gfx1250"):
        # VBUFFER: soffset 6:0, op 21:14, 31:26 = 0x31, rsrc 49:41 (SGPR number), format 61:55 = 1.
        return 3 | (op << 14) | (0x31 << 26) | (8 << 41) | (1 << 55)
    if cpu.startswith("gfx11"):
        opf = op << 18
    elif cpu.startswith("gfx10"):
        opf = ((op & 0x7F) << 18) | ((op >> 7) << 25)
    else:
        opf = op << 18
    return opf | (0x38 << 26) | (2 << 48) | (3 << 56)


def tfe_bit(cpu):
    if cpu in ("gfx1200", "gfx1250"):
        return 22
    if cpu.startswith("gfx11"):
        return 53
    return 55


def flag_bits(cpu):
    if cpu in ("gfx1200", "gfx1250"):
        return [7, 8, 9, 10, 11, 12, 13, 22, 23, 24, 25, 40, 50, 51, 52, 53, 54, 62, 63, 95]
    if cpu.startswith("gfx1"):
        return [12, 13, 14, 15, 16, 17, 53, 54, 55]
    return [12, 13, 14, 15, 16, 17, 25, 53, 54, 55]


def probe_flags(cpu, words, plain, nbytes):
    bits = flag_bits(cpu)
    flipped = dis(cpu, [w ^ (1 << b) for w in words for b in bits], nbytes)
    out = []
    for i, p in enumerate(plain):
        codes = []
        for j, b in enumerate(bits):
            r = flipped[i * len(bits) + j]
            codes.append("%d%s" % (b, "x" if r is None else "i" if r == p else "v"))
        out.append(" ".join(codes))
    return out


def si_flags(k, tfe, lds):
    if k == "cache":
        return "12x 13x 14x 15x 16x 17i 25i 53i 54i 55x"
    return "12v 13v 14v 15v 16%s 17i 25i 53i 54v 55%s" % ("v" if lds else "x", "v" if tfe else "x")


def main():
    rows = list(csv.DictReader(CSV.open()))
    cpus = [c for c in rows[0].keys() if c.startswith("gfx")]
    si_width = {}
    for line in (RT / "mubuf_gfx600.s").read_text().splitlines():
        if not line.startswith("//") and line.strip():
            mn = line.split()[0]
            si_width.setdefault(mn, width(line.split(";")[0]))
    out = ["# target\tmnemonic\topcode\tclass\tvdata_dwords\ttfe\tlds\trtn\tlds_only\tflags"
           "  (generated by gen_mubuf_shapes.py)"]
    for cpu in cpus:
        ops = [(int(r["opcode_dec"]), r[cpu]) for r in rows if r[cpu]]
        nbytes = 12 if cpu in ("gfx1200", "gfx1250") else 8
        if cpu in ("gfx600", "gfx700"):
            for op, mn in ops:
                k = klass(mn)
                w = si_width.get(mn, 0) if k != "cache" else 0
                tfe = lds = rtn = False
                if k != "cache":
                    t = "v0" if w == 0 else "v[0:%d]" % w
                    t1 = "v0" if w == 1 else "v[0:%d]" % (w - 1)
                    tfe, lds, rtn = asm_ok(cpu, ["%s %s, off, s[8:11], s3 tfe" % (mn, t),
                                                 "%s off, s[8:11], s3 lds" % mn,
                                                 "%s %s, off, s[8:11], s3 glc" % (mn, t1)])
                rtn = rtn and k == "atomic"
                out.append("\t".join([cpu, mn, str(op), k, str(w), str(int(tfe)), str(int(lds)),
                                       str(int(rtn)), "0", si_flags(k, tfe, lds)]))
            continue
        words = [base_word(cpu, op) for op, _ in ops]
        plain = dis(cpu, words, nbytes)
        tfe_ok = [False] * len(ops)
        if cpu not in ("gfx90a", "gfx942", "gfx950"):
            tfe_ok = [x is not None for x in dis(cpu, [w | (1 << tfe_bit(cpu)) for w in words], nbytes)]
        lds_ok = [False] * len(ops)
        if cpu < "gfx11" or cpu in ("gfx802", "gfx900", "gfx908", "gfx90a", "gfx942", "gfx950"):
            if not cpu.startswith("gfx11") and not cpu.startswith("gfx12"):
                lds_ok = [x is not None and " lds" in x for x in dis(cpu, [w | (1 << 16) for w in words], nbytes)]
        rbit = 52 if nbytes == 12 else 14
        rtn_ok = [x is not None for x in dis(cpu, [w | (1 << rbit) for w in words], nbytes)]
        flags = probe_flags(cpu, words, plain, nbytes)
        for (op, mn), p, t, l, r, fl in zip(ops, plain, tfe_ok, lds_ok, rtn_ok, flags):
            assert p is not None and p.split()[0] == mn, (cpu, op, mn, p)
            k = klass(mn)
            r = r and k == "atomic"
            out.append("\t".join([cpu, mn, str(op), k, str(width(p)), str(int(t)), str(int(l)),
                                   str(int(r)), "0", fl]))
        if nbytes == 8 and not cpu.startswith("gfx11"):
            known = {op for op, _ in ops}
            rest = [op for op in range(256 if cpu.startswith("gfx10") else 128) if op not in known]
            got = dis(cpu, [base_word(cpu, op) | (1 << 16) for op in rest], nbytes)
            extra = [(op, p) for op, p in zip(rest, got) if p is not None]
            ews = [base_word(cpu, op) | (1 << 16) for op, _ in extra]
            eflags = probe_flags(cpu, ews, [p for _, p in extra], nbytes)
            for (op, p), fl in zip(extra, eflags):
                # The base word already has LDS set: clearing it is what made bit 16 `x`.
                fl = fl.replace("16x", "16v")
                mn = p.split()[0]
                out.append("\t".join([cpu, mn, str(op), klass(mn), "0", "0", "1", "0", "1", fl]))
    OUT.write_text("\n".join(out) + "\n")
    print("wrote", OUT, len(out) - 1, "rows")


if __name__ == "__main__":
    main()
