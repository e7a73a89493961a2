#!/usr/bin/env python3
"""Regenerate the golden round-trip data in tests/data/golden/ with llvm-mc-22.

For every target and every DS and MUBUF/VBUFFER opcode (from lifter/data/ds_shapes.tsv,
ds_opcodes_by_target.csv, mubuf_opcodes_by_target.csv and mubuf_shapes.tsv) this writes
candidate instructions with varied operands:

  DS:    distinct VGPRs, high registers (v[252:255]-style tuples at the end of the file),
         AGPRs on gfx90a/gfx942/gfx950, offsets 0 / 1 / 65535 (offset0:255 offset1:255 for
         two-address ops), `gds` where the op allows it;
  MUBUF: off / offen / idxen / idxen offen / addr64 (gfx6/gfx7) addressing, offsets 0, 1 and
         4095 (8388607 on gfx12+), every cache-policy modifier alone and all together
         (glc slc dlc scc / sc0 sc1 nt / th:* scope:* nv), tfe, lds, AGPR vdata (gfx90a+),
         soffset variants (SGPR, m0, null, inline constants), ttmp resource tuples.

Each candidate is assembled with `llvm-mc-22 -show-encoding`; lines the assembler rejects
are dropped (that is how per-target availability of each modifier is decided). On targets
llvm-mc can disassemble (gfx8+) the bytes are disassembled again and the line keeps
llvm-mc's canonical text; a line whose canonical text does not re-assemble to the same bytes
is dropped and counted. Output: tests/data/golden/{ds,mubuf}_<cpu>.s, one
`canonical asm ; encoding: [bytes]` per line.

Usage (from the workspace root; about a minute): python3 scripts/gen-golden.py
"""
import csv
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
DATA = ROOT / "lifter" / "data"
OUT = ROOT / "tests" / "data" / "golden"
CPUS = ["gfx600", "gfx700", "gfx802", "gfx900", "gfx908", "gfx90a", "gfx942", "gfx950",
        "gfx1010", "gfx1030", "gfx1100", "gfx1150", "gfx1200", "gfx1250"]
NO_DISASM = {"gfx600", "gfx700"}
CDNA = {"gfx90a", "gfx942", "gfx950"}
ALIGNED = CDNA | {"gfx1250"}


def mc(cpu, args, text):
    p = subprocess.run(["llvm-mc-22", "-arch=amdgcn", "-mcpu=" + cpu] + args,
                       input=text, capture_output=True, text=True)
    return p.stdout, p.stderr


def assemble(cpu, lines):
    """-> list of (canonical-from-asm, bytes) or None per line (None when llvm-mc reports an
    error, even if it still prints an encoding, as it does for `nv` on gfx1200). Every line is
    followed by an `s_nop 7` marker so that each output group belongs to one input line."""
    text = "".join(l + "\ns_nop 7\n" for l in lines)
    out, err = mc(cpu, ["-show-encoding"], text)
    bad = {(int(m.group(1)) - 1) // 2 for m in re.finditer(r"^<stdin>:(\d+):\d+: error", err, re.M)}
    groups = [[]]
    for l in out.split("\n"):
        if "encoding: [" not in l:
            continue
        if l.strip().startswith("s_nop 7"):
            groups.append([])
        else:
            groups[-1].append(l)
    res = []
    for i in range(len(lines)):
        g = groups[i] if i < len(groups) else []
        if i in bad or len(g) != 1:
            res.append(None)
            continue
        asm, enc = g[0].split(";", 1)
        b = [int(x, 16) for x in enc.split("[", 1)[1].split("]")[0].split(",")]
        res.append((asm.strip(), b))
    return res


def disassemble(cpu, byte_lists):
    inp = "".join("[" + " ".join("0x%02x" % x for x in b) + "]\n" for b in byte_lists)
    out, err = mc(cpu, ["--disassemble"], inp)
    bad = {int(m.group(1)) - 1 for m in re.finditer(r"^<stdin>:(\d+):\d+: warning", err, re.M)}
    texts = iter(l.strip() for l in out.split("\n") if l.startswith("\t") and not l.strip().startswith("."))
    return [None if i in bad else next(texts) for i in range(len(byte_lists))]


def reg(file, first, n):
    return "%s%d" % (file, first) if n == 1 else "%s[%d:%d]" % (file, first, first + n - 1)


def ds_lines(cpu, ops, shapes):
    out = []
    for mn in ops:
        vdst, addr, d0, d1, off, gds = shapes[mn]
        for variant in range(4 if cpu in CDNA else 3):
            f = "a" if variant == 3 else "v"
            base = {0: (10, 2, 20, 40), 1: (252, 255, 248, 244), 2: (0, 0, 0, 0), 3: (10, 2, 20, 40)}[variant]
            if cpu in ALIGNED:
                base = tuple(b - (b % 2) if n > 1 else b for b, n in zip(base, (vdst, 1, d0, d1)))
            regs = []
            if vdst:
                regs.append(reg(f, min(base[0], 256 - vdst), vdst))
            if addr:
                regs.append(reg("v", base[1], 1))
            if d0:
                regs.append(reg(f, min(base[2], 256 - d0), d0))
            if d1:
                regs.append(reg(f, min(base[3], 256 - d1), d1))
            text = mn + (" " + ", ".join(regs) if regs else "")
            mods = [""]
            if off == "single":
                mods += [" offset:1", " offset:65535"]
            elif off == "pair":
                mods += [" offset0:1", " offset1:255", " offset0:255 offset1:255"]
            for m in mods:
                g = " gds" if gds == "required" else ""
                out.append(text + m + g)
                if gds == "optional" and variant == 0:
                    out.append(text + m + " gds")
    return out


def mubuf_lines(cpu, shapes):
    vbuf = cpu in ("gfx1200", "gfx1250")
    si = cpu in ("gfx600", "gfx700")
    if vbuf:
        cpols = [" th:TH_LOAD_NT", " scope:SCOPE_SE", " scope:SCOPE_DEV", " scope:SCOPE_SYS",
                 " th:TH_LOAD_HT scope:SCOPE_SYS", " th:TH_STORE_NT_WB", " th:TH_ATOMIC_RETURN",
                 " th:TH_ATOMIC_NT_RETURN scope:SCOPE_DEV", " nv", " th:TH_LOAD_BYPASS scope:SCOPE_SYS"]
    elif cpu in ("gfx942", "gfx950"):
        cpols = [" sc0", " sc1", " nt", " sc0 sc1 nt"]
    elif cpu == "gfx90a":
        cpols = [" glc", " slc", " scc", " glc slc scc"]
    elif cpu.startswith("gfx1"):
        cpols = [" glc", " slc", " dlc", " glc slc dlc"]
    else:
        cpols = [" glc", " slc", " glc slc"]
    maxoff = 8388607 if vbuf else 4095
    out = []
    for mn, (klass, w, tfe, lds, lds_only) in shapes.items():
        if klass == "cache":
            out.append(mn)
            out += [mn + c for c in cpols]
            continue
        if lds_only:
            out += ["%s s[8:11], s3 lds" % mn, "%s s[8:11], s3 offset:%d lds glc" % (mn, maxoff)]
            continue
        ev = 4 if cpu in ALIGNED else 5
        data = reg("v", ev, w)
        addrs = [("off", ""), ("v1", " offen"), ("v1", " idxen"), ("v[2:3]", " idxen offen")]
        if si:
            addrs.append(("v[2:3]", " addr64"))
        for a, m in addrs:
            out.append("%s %s, %s, s[8:11], s3%s" % (mn, data, a, m))
            out.append("%s %s, %s, s[8:11], s3%s offset:%d" % (mn, data, a, m, maxoff))
        for c in cpols:
            out.append("%s %s, v1, s[8:11], s3 offen offset:1%s" % (mn, data, c))
        for so in ["m0", "null", "0", "64", "-16", "0.5", "vcc_lo", "exec_hi", "s105", "s101"]:
            out.append("%s %s, off, s[8:11], %s" % (mn, data, so))
        out.append("%s %s, off, ttmp[4:7], s3" % (mn, data))
        out.append("%s %s, off, s[100:103], s3" % (mn, reg("v", 256 - w - (w % 2 if cpu in ALIGNED else 0), w)))
        if tfe:
            out.append("%s %s, v1, s[8:11], s3 offen tfe" % (mn, reg("v", ev - 1 if cpu in ALIGNED else ev, w + 1)))
        if lds:
            out.append("%s off, s[8:11], s3 lds" % mn)
            out.append("%s v1, s[8:11], s3 offen offset:4095 glc lds" % mn)
        if cpu in CDNA:
            out.append("%s %s, v1, s[8:11], s3 offen" % (mn, reg("a", 4, w)))
    return out


def finish(cpu, cands):
    got = assemble(cpu, cands)
    pairs = [g for g in got if g is not None]
    seen = set()
    uniq = []
    for asm, b in pairs:
        if tuple(b) not in seen:
            seen.add(tuple(b))
            uniq.append((asm, b))
    dropped = 0
    if cpu not in NO_DISASM:
        texts = disassemble(cpu, [b for _, b in uniq])
        canon = [(t, b) for t, (_, b) in zip(texts, uniq) if t is not None]
        again = assemble(cpu, [t for t, _ in canon])
        keep = []
        for (t, b), g in zip(canon, again):
            if g is not None and g[1] == b:
                keep.append((t, b))
            else:
                dropped += 1
        dropped += len(uniq) - len(canon)
        uniq = keep
    return uniq, len(cands) - len(pairs), dropped


def write(path, cpu, lines, note):
    with path.open("w") as f:
        f.write("// Generated by scripts/gen-golden.py with %s: llvm-mc-22 -arch=amdgcn -mcpu=%s -show-encoding\n"
                % (VERSION, cpu))
        f.write("// %s\n" % note)
        for asm, b in lines:
            f.write("%-60s ; encoding: [%s]\n" % (asm, ",".join("0x%02x" % x for x in b)))


def main():
    global VERSION
    VERSION = subprocess.run(["llvm-mc-22", "--version"], capture_output=True, text=True).stdout
    VERSION = re.search(r"LLVM version (\S+)", VERSION).group(1)
    OUT.mkdir(parents=True, exist_ok=True)
    ds_shapes = {}
    for line in (DATA / "ds_shapes.tsv").read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        f = line.split("\t")
        ds_shapes[f[0]] = (int(f[1]), int(f[2]), int(f[3]), int(f[4]), f[5], f[6])
    ds_rows = list(csv.DictReader((DATA / "ds_opcodes_by_target.csv").open()))
    mb = {}
    for line in (DATA / "mubuf_shapes.tsv").read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        f = line.split("\t")
        mb.setdefault(f[0], {})[f[1]] = (f[3], int(f[4]), f[5] == "1", f[6] == "1", f[8] == "1")
    total = 0
    for cpu in CPUS:
        ops = [r[cpu] for r in ds_rows if r[cpu]]
        ds, rej, drop = finish(cpu, ds_lines(cpu, ops, ds_shapes))
        write(OUT / ("ds_%s.s" % cpu), cpu, ds, "DS: every opcode with varied operands")
        mu, rej2, drop2 = finish(cpu, mubuf_lines(cpu, mb[cpu]))
        write(OUT / ("mubuf_%s.s" % cpu), cpu, mu, "MUBUF/VBUFFER: every opcode with varied operands and modifiers")
        print("%-8s ds %5d lines (%d rejected by the assembler, %d not canonical)  "
              "mubuf %5d lines (%d rejected, %d not canonical)"
              % (cpu, len(ds), rej, drop, len(mu), rej2, drop2), file=sys.stderr)
        total += len(ds) + len(mu)
    print("total", total, "lines in", OUT, file=sys.stderr)


if __name__ == "__main__":
    main()
