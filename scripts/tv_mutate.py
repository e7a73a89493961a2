#!/usr/bin/env python3
"""Mutation testing of `gcnsmt tv` (translation validation of AMDGPU machine passes).

For every block pair `gcnsmt tv` proves, make semantic mutants of the after-block, run tv on
them, and check every mutant tv still PROVES with an independent concrete interpreter of the
two blocks (written here from AMD's ISA documents, not from gcnsmt's Rust code). A proved
mutant the interpreter shows to behave differently is proved-but-wrong: a soundness bug of tv.

Operators (one small function each, `op_*` below):
  imm       one immediate changed: a memory offset field (+/- one element) or an ALU immediate
  swap      two register operands of one instruction swapped (same width and bank; PHI and
            REG_SEQUENCE values included)
  subreg    a sub-register index changed (`%16.sub0` -> `.sub1`), or two REG_SEQUENCE slots swapped
  cmp       a compare predicate flipped (negated, mirrored, or signedness changed)
  clobber   a physical (sub-)register written with a constant just before an instruction that
            reads it (`$sgpr5 = S_MOV_B32 7` before `COPY $sgpr4_sgpr5`, tuple clobbers too)
  memmove   a memory access moved above the previous access of the same memory (one of them a store)
  cpol      a cache-policy bit dropped: the bit is set on every vector-memory access of both
            blocks, then dropped from one access of the after-block

Inputs: pairs BEFORE.mir AFTER.mir (default: tests/data/tv/gen/*.before.mir with .after.mir,
tests/data/tv/regress/* pairs, tests/data/tv/bugs/*/before.mir + good.mir when present).
Mutants are batched: the function is copied under new names (`F__m17`) into one before-file and
one after-file per batch, one `gcnsmt tv --format json` run per batch, `--jobs` batches at once.

Usage:
  scripts/tv_mutate.py [PAIR_BEFORE PAIR_AFTER ...] [--gcnsmt BIN] [--seed N] [--limit N]
      [--max-per-block N] [--jobs N] [--batch N] [--inputs N] [--judge-refuted FRACTION]
      [--json OUT|-] [--keep DIR] [--quiet]
  scripts/tv_mutate.py --judge BEFORE AFTER --function F --block N --target T
      [--input JSON] [--inputs N]     (interpreter only: is AFTER's block equal to BEFORE's?)

Exit: 0 no proved-but-wrong mutant; 1 some proved-but-wrong; 2 input or tool error.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import glob
import hashlib
import json
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
M32 = 0xFFFFFFFF
M64 = (1 << 64) - 1

# ----------------------------------------------------------------------------------------------
# MIR text model
# ----------------------------------------------------------------------------------------------

OPERAND_FLAGS = {
    "implicit", "implicit-def", "killed", "dead", "undef", "renamable", "internal",
    "early-clobber", "debug-use", "def",
}
INST_FLAGS = {
    "nuw", "nsw", "exact", "nofpexcept", "nnan", "ninf", "nsz", "arcp", "contract", "afn",
    "reassoc", "frame-setup", "frame-destroy", "disjoint", "nneg", "samesign", "unpredictable",
}


@dataclass
class Operand:
    text: str          # the operand as written (flags included)
    start: int         # span in the instruction line
    end: int
    kind: str          # reg | imm | subreg | bb | other
    flags: set = field(default_factory=set)
    reg: str = ""      # "%12" or "$sgpr4_sgpr5"
    sub: str = ""      # "sub0_sub1" or ""
    cls: str = ""      # inline class of a def (`%16:vreg_64`)
    imm: int = 0

    @property
    def implicit(self):
        return "implicit" in self.flags or "implicit-def" in self.flags


@dataclass
class Inst:
    line: str
    opcode: str
    defs: list          # Operand
    ops: list           # explicit use operands (Operand)
    implicit: list      # implicit operands
    memops: str


def split_top(s: str, base: int):
    """Split at top-level commas; returns (text, start, end) with spans relative to the line."""
    out, depth, cur = [], 0, 0
    for i, ch in enumerate(s):
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append((cur, i))
            cur = i + 1
    out.append((cur, len(s)))
    res = []
    for a, b in out:
        t = s[a:b]
        lead = len(t) - len(t.lstrip())
        t2 = t.strip()
        if t2:
            res.append((t2, base + a + lead, base + a + lead + len(t2)))
    return res


REG_RE = re.compile(r"^([%$][A-Za-z0-9_]+)(?:\.([a-z0-9_]+))?(?::([A-Za-z0-9_]+))?(?:\([a-z0-9]+\))?$")


def parse_operand(t, a, b) -> Operand:
    words = t.split()
    flags = set()
    while len(words) > 1 and words[0] in OPERAND_FLAGS:
        flags.add(words.pop(0))
    body = " ".join(words)
    op = Operand(t, a, b, "other", flags)
    if body.startswith("%subreg."):
        op.kind, op.sub = "subreg", body[len("%subreg."):]
    elif body.startswith("%bb."):
        op.kind, op.imm = "bb", int(re.match(r"%bb\.(\d+)", body).group(1))
    elif re.fullmatch(r"-?\d+", body):
        op.kind, op.imm = "imm", int(body)
    else:
        m = REG_RE.match(body)
        if m and not body.startswith("%ir") and not body.startswith("%const") \
                and not body.startswith("%stack") and not body.startswith("%fixed-stack"):
            op.kind, op.reg, op.sub, op.cls = "reg", m.group(1), m.group(2) or "", m.group(3) or ""
    return op


def parse_inst(line: str) -> Inst | None:
    text = line.rstrip("\n")
    s = text.strip()
    if not s or s.startswith(";") or s.startswith("liveins:") or s.startswith("successors:") \
            or s.startswith("bb."):
        return None
    off = len(text) - len(text.lstrip())
    memops = ""
    core = text
    if " :: " in core:
        i = core.index(" :: ")
        core, memops = core[:i], core[i + 4:]
    for tail in (", debug-location", ", pcsections", ", mmra"):
        if tail in core:
            core = core[:core.index(tail)]
    defs = []
    rhs_start = off
    m = re.search(r" = ", core)
    if m:
        defs = [parse_operand(t, a, b) for t, a, b in split_top(core[off:m.start()], off)]
        rhs_start = m.end()
    rhs = core[rhs_start:]
    words = rhs.split(" ")
    i = 0
    pos = rhs_start
    while i < len(words) and (words[i] in INST_FLAGS or words[i] == ""):
        pos += len(words[i]) + 1
        i += 1
    if i >= len(words):
        return None
    opcode = words[i]
    pos += len(opcode)
    ops, imp = [], []
    for t, a, b in split_top(core[pos:], pos):
        o = parse_operand(t, a, b)
        (imp if o.implicit else ops).append(o)
    return Inst(text, opcode, defs, ops, imp, memops)


@dataclass
class Block:
    num: int
    label_idx: int        # line index of `bb.N...:` in the function doc
    inst_idx: list        # line indices of instruction lines
    successors: list
    liveins: list


@dataclass
class Function:
    name: str
    lines: list           # the doc's lines, `---` through `...`
    blocks: dict          # num -> Block
    classes: dict         # "%12" -> class
    lds_size: int


def parse_function(lines):
    name = ""
    classes = {}
    blocks = {}
    lds = 0
    in_body = False
    cur = None
    for i, l in enumerate(lines):
        if l.startswith("name:"):
            name = l.split(":", 1)[1].strip().strip("'\"")
        m = re.match(r"\s*- \{ id: (\d+), class: ([A-Za-z0-9_]+)", l)
        if m and not in_body:
            classes["%" + m.group(1)] = m.group(2)
        m = re.match(r"\s*ldsSize:\s*(\d+)", l)
        if m:
            lds = int(m.group(1))
        if l.startswith("body:"):
            in_body = True
            continue
        if not in_body or l.startswith("..."):
            continue
        m = re.match(r"^  bb\.(\d+)[^:]*:\s*$", l)
        if m:
            cur = Block(int(m.group(1)), i, [], [], [])
            blocks[cur.num] = cur
            continue
        if cur is None:
            continue
        s = l.strip()
        if s.startswith("successors:"):
            cur.successors = [int(x) for x in re.findall(r"%bb\.(\d+)", s)]
        elif s.startswith("liveins:"):
            cur.liveins = [x.strip() for x in s[len("liveins:"):].split(",") if x.strip()]
        elif s and not s.startswith(";"):
            ins = parse_inst(l)
            if ins is not None:
                cur.inst_idx.append(i)
                for d in ins.defs:
                    if d.kind == "reg" and d.cls and d.reg.startswith("%"):
                        classes.setdefault(d.reg, d.cls)
    return Function(name, lines, blocks, classes, lds)


@dataclass
class MirFile:
    path: str
    prefix: list          # lines before the first function doc (comments, IR doc)
    ir_defines: dict      # function name -> define line
    ir_attrs: dict        # function name -> (target-cpu, lds)
    funcs: dict           # name -> Function


def read_mir(path) -> MirFile:
    with open(path) as f:
        lines = f.read().split("\n")
    docs = []
    cur = None
    prefix_end = None
    i = 0
    while i < len(lines):
        l = lines[i]
        if l.startswith("---") and l.strip() != "--- |":
            if prefix_end is None:
                prefix_end = i
            cur = [l]
            docs.append(cur)
        elif l.startswith("...") and cur is not None:
            cur.append(l)
            cur = None
        elif cur is not None:
            cur.append(l)
        i += 1
    prefix = lines[:prefix_end] if prefix_end is not None else []
    defines, groups, attrs = {}, {}, {}
    for l in prefix:
        t = l.strip()
        if t.startswith("define "):
            m = re.search(r"@([A-Za-z0-9_.$]+)", t)
            if m:
                defines[m.group(1)] = l
        elif t.startswith("attributes #"):
            n, _, body = t[len("attributes #"):].partition("=")
            groups[n.strip()] = body
    for name, l in defines.items():
        tail = l[l.rfind(")"):]
        text = tail + " ".join(groups.get(r, "") for r in re.findall(r"#(\d+)", tail))
        cpu = re.search(r'"target-cpu"="([^"]+)"', text)
        lds = re.search(r'"amdgpu-lds-size"="(\d+)', text)
        feat = re.search(r'"target-features"="([^"]+)"', text)
        attrs[name] = (cpu.group(1) if cpu else None, int(lds.group(1)) if lds else 0,
                       feat.group(1) if feat else "")
    funcs = {}
    for d in docs:
        if any(x.startswith("name:") for x in d):
            f = parse_function(d)
            funcs[f.name] = f
    return MirFile(path, prefix, defines, attrs, funcs)


# ----------------------------------------------------------------------------------------------
# Registers
# ----------------------------------------------------------------------------------------------

def class_dwords(cls: str) -> int:
    m = re.search(r"_(\d+)", cls)
    if not m:
        return 1
    return max(1, int(m.group(1)) // 32)


def class_bank(cls: str) -> str:
    if cls.startswith(("vgpr", "vreg", "av", "agpr", "areg")):
        return "v"
    return "s"


def sub_dwords(sub: str):
    """`sub2_sub3` -> [2, 3]; None for sub-dword indices (lo16/hi16)."""
    if not sub:
        return None
    parts = sub.split("_")
    idx = []
    for p in parts:
        m = re.fullmatch(r"sub(\d+)", p)
        if not m:
            return "bad"
        idx.append(int(m.group(1)))
    return idx


def sub_name(start, width):
    return "_".join(f"sub{i}" for i in range(start, start + width))


SPECIAL_PHYS = {
    "vcc": ["vcc_lo", "vcc_hi"], "vcc_lo": ["vcc_lo"], "vcc_hi": ["vcc_hi"],
    "exec": ["exec_lo", "exec_hi"], "exec_lo": ["exec_lo"], "exec_hi": ["exec_hi"],
    "m0": ["m0"], "scc": ["scc"], "flat_scr": ["flat_scr_lo", "flat_scr_hi"],
    "src_shared_base": ["src_shared_base"], "src_private_base": ["src_private_base"],
    "sgpr_null": ["null"], "null": ["null"],
}


def phys_dwords(reg: str):
    """`$sgpr4_sgpr5` -> ['s4', 's5']; None when not understood."""
    n = reg[1:]
    if n in SPECIAL_PHYS:
        return SPECIAL_PHYS[n]
    parts = n.split("_")
    out = []
    for p in parts:
        m = re.fullmatch(r"(sgpr|vgpr|agpr|ttmp)(\d+)", p)
        if not m:
            return None
        out.append({"sgpr": "s", "vgpr": "v", "agpr": "a", "ttmp": "ttmp"}[m.group(1)] + m.group(2))
    return out


def phys_bank(reg):
    n = reg[1:]
    if n.startswith(("vgpr", "agpr")):
        return "v"
    return "s"


# ----------------------------------------------------------------------------------------------
# Targets and memory-instruction layouts
# ----------------------------------------------------------------------------------------------

def gfx_major(target: str) -> int:
    m = re.match(r"gfx(\d+?)(\d{2}|\d[a-z0-9])$", target) or re.match(r"gfx(\d+)", target)
    t = target[3:]
    if len(t) == 3:
        return int(t[0])
    return int(t[:2])


def is_gfx940(target):
    return target in ("gfx940", "gfx941", "gfx942", "gfx950")


def wave_size(target, features=""):
    if "+wavefrontsize64" in features:
        return 64
    if "+wavefrontsize32" in features:
        return 32
    return 32 if gfx_major(target) >= 10 else 64


def strip_opcode(op: str) -> str:
    for suf in ("_gfx9", "_gfx10", "_gfx11", "_gfx12", "_vi", "_ci", "_si", "_exact", "_ec"):
        if op.endswith(suf):
            op = op[: -len(suf)]
    for suf in ("_exact", "_ec"):
        if op.endswith(suf):
            op = op[: -len(suf)]
    return op


@dataclass
class MemLayout:
    kind: str            # ds | buffer | global | flat | smem | sbuf
    store: bool
    addr: list           # operand indices of address parts
    data: list           # data operand indices (stores)
    offsets: list        # (index, unit bytes, lo, hi)
    cpol: int | None
    elem: int            # element bytes
    count: int           # elements (dwords for vector memory)


def dwords_of(op):
    m = re.search(r"DWORDX(\d+)", op)
    return int(m.group(1)) if m else 1


def mem_layout(opcode: str, target: str) -> MemLayout | None:
    op = strip_opcode(opcode)
    g = gfx_major(target)
    if op.startswith("DS_"):
        m = re.fullmatch(r"DS_(READ|WRITE)(2ST64|2)?_(B32|B64|U8|B8|U16|B16|I8|I16|B96|B128)(_t16|_D16)?", op)
        if not m or m.group(4):
            return None
        ty = m.group(3)
        elem = {"B32": 4, "B64": 8, "U8": 1, "B8": 1, "I8": 1, "U16": 2, "B16": 2, "I16": 2,
                "B96": 12, "B128": 16}[ty]
        store = m.group(1) == "WRITE"
        two = m.group(2)
        if two:
            unit = elem * (64 if two == "2ST64" else 1)
            if store:
                return MemLayout("ds", True, [0], [1, 2], [(3, unit, 0, 255), (4, unit, 0, 255)], None, elem, 2)
            return MemLayout("ds", False, [0], [], [(1, unit, 0, 255), (2, unit, 0, 255)], None, elem, 2)
        if store:
            return MemLayout("ds", True, [0], [1], [(2, 1, 0, 65535)], None, elem, 1)
        return MemLayout("ds", False, [0], [], [(1, 1, 0, 65535)], None, elem, 1)
    m = re.fullmatch(r"BUFFER_(LOAD|STORE)_DWORD(X\d)?_(OFFEN|OFFSET)", op)
    if m:
        n = dwords_of(op)
        store = m.group(1) == "STORE"
        hi = (1 << 23) - 1 if g >= 12 else 4095
        base = 1 if store else 0
        if m.group(3) == "OFFEN":
            return MemLayout("buffer", store, [base, base + 1, base + 2], [0] if store else [],
                             [(base + 3, 1, 0, hi)], base + 4, 4, n)
        return MemLayout("buffer", store, [base, base + 1], [0] if store else [],
                         [(base + 2, 1, 0, hi)], base + 3, 4, n)
    m = re.fullmatch(r"(GLOBAL|FLAT)_(LOAD|STORE)_DWORD(X\d)?(_SADDR)?", op)
    if m:
        n = dwords_of(op)
        store = m.group(2) == "STORE"
        kind = m.group(1).lower()
        if kind == "global":
            lo, hi = {9: (-4096, 4095), 10: (-2048, 2047), 11: (-4096, 4095)}.get(g, (-(1 << 23), (1 << 23) - 1))
        else:
            lo, hi = {8: (0, 0), 7: (0, 0), 6: (0, 0), 9: (0, 4095), 10: (0, 2047), 11: (0, 4095)}.get(g, (-(1 << 23), (1 << 23) - 1))
        saddr = bool(m.group(4))
        if store:
            if saddr:   # vaddr, vdata, saddr, offset, cpol
                return MemLayout(kind, True, [0, 2], [1], [(3, 1, lo, hi)], 4, 4, n)
            return MemLayout(kind, True, [0], [1], [(2, 1, lo, hi)], 3, 4, n)
        if saddr:       # saddr, vaddr, offset, cpol
            return MemLayout(kind, False, [0, 1], [], [(2, 1, lo, hi)], 3, 4, n)
        return MemLayout(kind, False, [0], [], [(1, 1, lo, hi)], 2, 4, n)
    m = re.fullmatch(r"S_LOAD_DWORD(X\d+)?_IMM", op)
    if m:
        n = dwords_of(op)
        unit, lo, hi = (4, 0, 255) if g <= 7 else ((1, 0, (1 << 20) - 1) if g == 8 else (1, -(1 << 20), (1 << 20) - 1))
        return MemLayout("smem", False, [0], [], [(1, unit, lo, hi)], 2, 4, n)
    m = re.fullmatch(r"S_BUFFER_LOAD_DWORD(X\d+)?_(IMM|SGPR|SGPR_IMM)", op)
    if m:
        n = dwords_of(op)
        unit, lo, hi = (4, 0, 255) if g <= 7 else ((1, 0, (1 << 20) - 1) if g == 8 else (1, 0, (1 << 20) - 1))
        if m.group(2) == "IMM":
            return MemLayout("sbuf", False, [0], [], [(1, unit, lo, hi)], 2, 4, n)
        if m.group(2) == "SGPR":
            return MemLayout("sbuf", False, [0, 1], [], [], 2, 4, n)
        return MemLayout("sbuf", False, [0, 1], [], [(2, unit, lo, hi)], 3, 4, n)
    return None


def mem_domain(kind):
    return "lds" if kind == "ds" else "global"


# ----------------------------------------------------------------------------------------------
# The independent interpreter (one lane, written from the AMD ISA manuals)
# ----------------------------------------------------------------------------------------------

class Discard(Exception):
    """This input drives an instruction outside the interpreter's modelled domain."""


class NotInterpreted(Exception):
    """An instruction the interpreter does not implement."""


def h64(*parts) -> int:
    d = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(d, "little")


def draw32(key) -> int:
    """A 32-bit input value, biased to small and aligned values so addresses collide."""
    x = h64("v", key)
    c = x % 100
    y = x >> 8
    if c < 30:
        return (y % 16) * 4
    if c < 42:
        return y % 16
    if c < 50:
        return 0
    if c < 60:
        return [0xFFFFFFFF, 0x80000000, 0x7FFFFFFF, 0xFFFFFFFC, 0x100, 0xFFFF, 0x10000, 1][y % 8]
    if c < 70:
        return (y % 256) * 4
    if c < 88:     # a raw-buffer V# word 3 on gfx10+ (OOB_SELECT = 3), small otherwise
        return 0x30000000 | ((y % 64) * 4)
    return y & M32


class Env:
    """The inputs of one run, shared by both sides: drawn lazily by name so the before- and
    after-block read the same value for the same register or byte, whatever the order."""

    def __init__(self, seed, ctx, fixed=None, mem=None):
        self.seed = seed
        self.ctx = ctx
        self.fixed = dict(fixed or {})
        self.mem = dict(mem or {})   # (space, addr) -> byte, epoch 0

    def reg(self, name):
        if name in self.fixed:
            return self.fixed[name]
        if name == "LDS_SIZE":
            c = h64(self.seed, "ldssize") % 3
            v = [max(self.ctx.lds_size, 4), 65536, max(self.ctx.lds_size, 4) + 64][c]
        elif name == "LANE_ID":
            v = h64(self.seed, "lane") % self.ctx.wave
        elif name == "m0":
            v = 0xFFFFFFFF if h64(self.seed, "m0") % 2 else draw32((self.seed, name))
        else:
            v = draw32((self.seed, name))
        self.fixed[name] = v
        return v

    def byte(self, space, addr, epoch):
        if epoch == 0 and (space, addr) in self.mem:
            return self.mem[(space, addr)]
        dw = draw32((self.seed, "mem", space, addr >> 2, epoch))
        return (dw >> (8 * (addr & 3))) & 0xFF

    def choice(self, key, options):
        k = ("choice", key)
        if k not in self.fixed:
            self.fixed[k] = options[h64(self.seed, key) % len(options)]
        return self.fixed[k]


@dataclass
class Ctx:
    target: str
    wave: int
    lds_size: int
    classes: dict
    live_vregs: list       # vreg names compared at the end
    live_phys: list        # physical dwords compared at the end


class Machine:
    def __init__(self, env: Env, ctx: Ctx, block_label):
        self.env = env
        self.ctx = ctx
        self.regs = {}
        self.mem = {}          # (space, addr) -> byte written this epoch
        self.epoch = 0
        self.events = []       # observable events in order
        self.policy = {}       # (kind, space, addr) -> set of cpol
        self.block = block_label
        self.g = gfx_major(ctx.target)

    # -- registers --
    def vreg_width(self, reg):
        cls = self.ctx.classes.get(reg)
        if cls is None:
            raise NotInterpreted(f"register {reg} has no class")
        if cls.endswith("_16") or cls == "vgpr_16" or cls.startswith("sreg_1"):
            raise NotInterpreted(f"16-bit or 1-bit register class {cls}")
        return class_dwords(cls)

    def names(self, op: Operand):
        if op.reg.startswith("%"):
            w = self.vreg_width(op.reg)
            idx = list(range(w))
            if op.sub:
                s = sub_dwords(op.sub)
                if s == "bad" or s is None or max(s) >= w:
                    raise NotInterpreted(f"sub-register {op.sub} of {op.reg}")
                idx = s
            return [f"{op.reg}:{i}" for i in idx]
        d = phys_dwords(op.reg)
        if d is None:
            raise NotInterpreted(f"physical register {op.reg}")
        if op.sub:
            s = sub_dwords(op.sub)
            if s == "bad" or s is None or max(s) >= len(d):
                raise NotInterpreted(f"sub-register {op.sub} of {op.reg}")
            d = [d[i] for i in s]
        return d

    def get(self, name):
        if name in self.regs:
            return self.regs[name]
        if name in ("exec_lo", "exec_hi"):
            lane = self.env.reg("LANE_ID")
            return ((1 << lane) >> (0 if name == "exec_lo" else 32)) & M32
        return self.env.reg(name)

    def read(self, op: Operand):
        if op.kind == "imm":
            v = op.imm & M64
            return [v & M32, (v >> 32) & M32]   # callers take what they need
        if op.kind != "reg":
            raise NotInterpreted(f"operand {op.text}")
        return [self.get(n) for n in self.names(op)]

    def r32(self, op):
        return self.read(op)[0]

    def r64(self, op):
        if op.kind == "imm":
            return op.imm & M64
        v = self.read(op)
        if len(v) < 2:
            raise NotInterpreted(f"64-bit read of {op.text}")
        return v[0] | (v[1] << 32)

    def write(self, op: Operand, vals):
        names = self.names(op)
        if len(vals) < len(names):
            raise NotInterpreted(f"width mismatch writing {op.text}")
        for n, v in zip(names, vals):
            self.regs[n] = v & M32

    def wname(self, name, v):
        self.regs[name] = v & M32

    # -- lane masks (one active lane: bit LANE_ID) --
    def mask_write(self, op: Operand, bit):
        lane = self.env.reg("LANE_ID")
        m = (1 << lane) if bit else 0
        names = self.names(op)
        vals = [m & M32, (m >> 32) & M32][: len(names)]
        if len(names) == 1 and lane >= 32:
            raise NotInterpreted("wave64 lane in a 32-bit mask")
        self.write(op, vals)

    def mask_read(self, op: Operand):
        lane = self.env.reg("LANE_ID")
        if op.kind == "imm":
            return (op.imm >> lane) & 1
        v = self.read(op)
        full = v[0] | ((v[1] << 32) if len(v) > 1 else 0)
        if lane >= 32 * len(v):
            raise NotInterpreted("mask narrower than the lane id")
        return (full >> lane) & 1

    def vcc_names(self):
        return ["vcc_lo"] if self.ctx.wave == 32 else ["vcc_lo", "vcc_hi"]

    def vcc_write(self, bit):
        lane = self.env.reg("LANE_ID")
        m = (1 << lane) if bit else 0
        for i, n in enumerate(self.vcc_names()):
            self.wname(n, (m >> (32 * i)) & M32)

    def vcc_read(self):
        lane = self.env.reg("LANE_ID")
        full = 0
        for i, n in enumerate(self.vcc_names()):
            full |= self.get(n) << (32 * i)
        return (full >> lane) & 1

    # -- memory --
    def load_byte(self, space, addr):
        if (space, addr) in self.mem:
            return self.mem[(space, addr)]
        return self.env.byte(space, addr, self.epoch)

    def store_byte(self, space, addr, b):
        self.mem[(space, addr)] = b & 0xFF

    def note_policy(self, kind, space, addr, n, cpol):
        for a in range(addr, addr + n):
            self.policy.setdefault((kind, space, a), set()).add(cpol)

    def load(self, space, addr, n, cpol=None):
        if cpol is not None:
            self.note_policy("load", space, addr, n, cpol)
        v = 0
        for i in range(n):
            v |= self.load_byte(space, (addr + i) & M64) << (8 * i)
        return v

    def store(self, space, addr, n, v, cpol=None):
        if cpol is not None:
            self.note_policy("store", space, addr, n, cpol)
        for i in range(n):
            self.store_byte(space, (addr + i) & M64, v >> (8 * i))

    def barrier(self, what):
        # memory is compared here; then the other waves may have written anything
        self.events.append(("barrier", dict(self.mem), self.epoch, what))
        self.mem = {}
        self.epoch += 1


def sx(v, bits):
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def f32_add(a, b):
    fa = struct.unpack("<f", struct.pack("<I", a))[0]
    fb = struct.unpack("<f", struct.pack("<I", b))[0]
    r = fa + fb
    if r != r:
        return 0x7FC00000
    try:
        return struct.unpack("<I", struct.pack("<f", r))[0]
    except OverflowError:
        return 0x7F800000 if r > 0 else 0xFF800000


VCMP = re.compile(r"V_CMP_(EQ|NE|LT|LE|GT|GE|LG)_(U32|I32|U64|I64)_(e32|e64)")
SCMP = re.compile(r"S_CMP_(EQ|LG|LT|LE|GT|GE)_(U32|I32|U64)")


def compare(pred, ty, a, b):
    bits = 64 if ty.endswith("64") else 32
    if ty[0] == "I":
        a, b = sx(a, bits), sx(b, bits)
    return {"EQ": a == b, "NE": a != b, "LG": a != b, "LT": a < b, "LE": a <= b, "GT": a > b,
            "GE": a >= b}[pred]


TERMINATORS = re.compile(r"^(S_ENDPGM|S_BRANCH|S_CBRANCH_\w+|SI_IF|SI_ELSE|SI_LOOP|SI_RETURN\w*|"
                         r"S_SETPC_B64\w*|SI_BRCOND|S_CODE_END|SI_RETURN_TO_EPILOG)$")
NOOPS = {"S_WAITCNT", "S_NOP", "SCHED_BARRIER", "S_SETPRIO", "KILL", "S_WAITCNT_soft",
         "S_WAITCNT_VSCNT", "SCHED_GROUP_BARRIER", "S_WAIT_LOADCNT", "S_WAIT_DSCNT",
         "S_WAIT_STORECNT", "S_WAIT_KMCNT", "S_WAIT_LOADCNT_DSCNT", "S_WAIT_STORECNT_DSCNT"}


def step(m: Machine, ins: Inst):
    op = ins.opcode
    o = ins.ops
    d = ins.defs
    g = m.g
    base = strip_opcode(op)

    def imp_def(reg):
        return any(x.reg == reg and "implicit-def" in x.flags for x in ins.implicit)

    if op in NOOPS:
        return
    if TERMINATORS.match(op):
        vals = tuple(tuple(m.read(x)) if x.kind == "reg" else x.text for x in o)
        if op in ("S_CBRANCH_SCC0", "S_CBRANCH_SCC1"):
            vals += (m.get("scc"),)
        if op in ("S_CBRANCH_VCCZ", "S_CBRANCH_VCCNZ"):
            vals += tuple(m.get(n) for n in m.vcc_names())
        m.events.append(("terminator", op, vals))
        for x in d:   # SI_IF's saved exec: a function of what it reads
            names = m.names(x)
            m.write(x, [h64("term", op, vals, i) & M32 for i in range(len(names))])
        return
    if op == "SI_IF_BREAK":    # one lane: (cond & EXEC) | previous break mask
        c, prev = m.read(o[0]), m.read(o[1])
        ex = [m.get("exec_lo"), m.get("exec_hi")]
        m.write(d[0], [(c[i] & ex[i]) | prev[i] for i in range(len(m.names(d[0])))])
        return
    if op in ("SI_END_CF", "SI_MASK_BRANCH"):
        m.events.append((op, tuple(tuple(m.read(x)) for x in o if x.kind == "reg")))
        return
    if op in ("S_BARRIER", "S_BARRIER_SIGNAL_IMM", "S_BARRIER_WAIT"):
        m.barrier(op)
        return
    if op == "COPY":
        m.write(d[0], m.read(o[0]) if o[0].kind == "reg" else [o[0].imm & M32])
        return
    if op == "REG_SEQUENCE":
        names = m.names(d[0])
        vals = [None] * len(names)
        for i in range(0, len(o), 2):
            s = sub_dwords(o[i + 1].sub)
            if s == "bad" or s is None:
                raise NotInterpreted(f"REG_SEQUENCE index {o[i + 1].sub}")
            v = m.read(o[i])
            if len(v) != len(s):
                raise NotInterpreted("REG_SEQUENCE width mismatch")
            for k, j in enumerate(s):
                vals[j] = v[k]
        if any(v is None for v in vals):
            for j, v in enumerate(vals):   # an undefined slot: an input of its own
                if v is None:
                    vals[j] = m.env.reg(("undef-slot", d[0].reg, j))
        m.write(d[0], vals)
        return
    if op == "INSERT_SUBREG":
        v = m.read(o[0])
        s = sub_dwords(o[2].sub)
        if s == "bad" or s is None:
            raise NotInterpreted("INSERT_SUBREG index")
        w = m.read(o[1])
        v = list(v)
        for k, j in enumerate(s):
            v[j] = w[k]
        m.write(d[0], v)
        return
    if op == "IMPLICIT_DEF":
        names = m.names(d[0])
        m.write(d[0], [m.env.reg(("undef", n)) for n in names])
        return
    if op == "PHI":
        preds = sorted({o[i + 1].imm for i in range(0, len(o), 2)})
        p = m.env.choice(("phi", m.block), preds)
        for i in range(0, len(o), 2):
            if o[i + 1].imm == p:
                m.write(d[0], m.read(o[i]))
                return
        raise NotInterpreted("PHI")
    # --- scalar ALU ---
    if op in ("S_MOV_B32",):
        m.write(d[0], [m.r32(o[0])])
        return
    if op in ("S_MOV_B64", "S_MOV_B64_IMM_PSEUDO", "V_MOV_B64_PSEUDO"):
        v = m.r64(o[0]) if o[0].kind == "reg" else (sx(o[0].imm, 64) & M64)
        m.write(d[0], [v & M32, v >> 32])
        return
    if op in ("S_ADD_I32", "S_ADD_U32", "S_SUB_I32", "S_SUB_U32", "S_AND_B32", "S_OR_B32",
              "S_XOR_B32", "S_LSHL_B32", "S_LSHR_B32", "S_ASHR_I32", "S_MUL_I32", "S_ADDC_U32",
              "S_ANDN2_B32", "S_ORN2_B32", "S_NAND_B32", "S_NOR_B32", "S_XNOR_B32",
              "S_AND_NOT1_B32", "S_OR_NOT1_B32", "S_MIN_U32", "S_MAX_U32", "S_MIN_I32", "S_MAX_I32"):
        a, b = m.r32(o[0]), m.r32(o[1])
        scc = None
        if op == "S_ADD_I32":
            r = (a + b) & M32
            scc = int(sx(a, 32) + sx(b, 32) != sx(r, 32))
        elif op == "S_ADD_U32":
            r = (a + b) & M32
            scc = int(a + b > M32)
        elif op == "S_ADDC_U32":
            c = m.get("scc") & 1
            r = (a + b + c) & M32
            scc = int(a + b + c > M32)
        elif op == "S_SUB_I32":
            r = (a - b) & M32
            scc = int(sx(a, 32) - sx(b, 32) != sx(r, 32))
        elif op == "S_SUB_U32":
            r = (a - b) & M32
            scc = int(b > a)
        elif op == "S_MUL_I32":
            r = (sx(a, 32) * sx(b, 32)) & M32
        elif op in ("S_MIN_U32", "S_MAX_U32", "S_MIN_I32", "S_MAX_I32"):
            aa, bb = (sx(a, 32), sx(b, 32)) if op.endswith("I32") else (a, b)
            lt = aa < bb
            pick_a = lt if "MIN" in op else (aa > bb)
            r = a if pick_a or aa == bb else b
            scc = int(pick_a)
        else:
            r = {"S_AND_B32": a & b, "S_OR_B32": a | b, "S_XOR_B32": a ^ b,
                 "S_LSHL_B32": (a << (b & 31)) & M32, "S_LSHR_B32": a >> (b & 31),
                 "S_ASHR_I32": (sx(a, 32) >> (b & 31)) & M32,
                 "S_ANDN2_B32": a & ~b & M32, "S_AND_NOT1_B32": a & ~b & M32,
                 "S_ORN2_B32": (a | ~b) & M32, "S_OR_NOT1_B32": (a | ~b) & M32,
                 "S_NAND_B32": ~(a & b) & M32, "S_NOR_B32": ~(a | b) & M32,
                 "S_XNOR_B32": ~(a ^ b) & M32}[op]
            scc = int(r != 0)
        m.write(d[0], [r])
        if scc is not None:
            m.wname("scc", scc)
        return
    if op in ("S_AND_B64", "S_OR_B64", "S_XOR_B64", "S_ANDN2_B64", "S_LSHL_B64", "S_LSHR_B64"):
        a = m.r64(o[0])
        b = m.r64(o[1]) if op not in ("S_LSHL_B64", "S_LSHR_B64") else m.r32(o[1])
        r = {"S_AND_B64": a & b, "S_OR_B64": a | b, "S_XOR_B64": a ^ b, "S_ANDN2_B64": a & ~b & M64,
             "S_LSHL_B64": (a << (b & 63)) & M64, "S_LSHR_B64": a >> (b & 63)}[op]
        m.write(d[0], [r & M32, r >> 32])
        m.wname("scc", int(r != 0))
        return
    mc = SCMP.fullmatch(op)
    if mc:
        if mc.group(2) == "U64":
            a, b = m.r64(o[0]), m.r64(o[1])
        else:
            a, b = m.r32(o[0]), m.r32(o[1])
        m.wname("scc", int(compare(mc.group(1), mc.group(2), a, b)))
        return
    if op == "S_CSELECT_B32":
        m.write(d[0], [m.r32(o[0]) if m.get("scc") & 1 else m.r32(o[1])])
        return
    # --- vector ALU ---
    if op in ("V_MOV_B32_e32", "V_MOV_B32_e64", "AV_MOV_B32_IMM_PSEUDO", "V_ACCVGPR_WRITE_B32_e64",
              "V_ACCVGPR_READ_B32_e64", "V_READFIRSTLANE_B32", "V_MOV_B32_dpp"):
        if op == "V_MOV_B32_dpp":
            raise NotInterpreted(op)
        m.write(d[0], [m.r32(o[0])])
        return
    if op in ("V_ADD_U32_e64", "V_ADD_U32_e32", "V_SUB_U32_e64", "V_SUB_U32_e32", "V_SUBREV_U32_e64",
              "V_SUBREV_U32_e32", "V_AND_B32_e64", "V_AND_B32_e32", "V_OR_B32_e64", "V_OR_B32_e32",
              "V_XOR_B32_e64", "V_XOR_B32_e32", "V_LSHLREV_B32_e64", "V_LSHLREV_B32_e32",
              "V_LSHRREV_B32_e64", "V_LSHRREV_B32_e32", "V_ASHRREV_I32_e64", "V_ASHRREV_I32_e32",
              "V_MUL_U32_U24_e64", "V_MUL_U32_U24_e32", "V_MUL_LO_U32_e64", "V_MAX_U32_e64",
              "V_MIN_U32_e64", "V_ADD_NC_U32_e64", "V_ADD_NC_U32_e32", "V_SUB_NC_U32_e64"):
        if op.endswith("_e64") and len(o) > 2 and o[2].kind == "imm" and o[2].imm != 0:
            raise NotInterpreted(f"{op} with clamp")
        a, b = m.r32(o[0]), m.r32(o[1])
        k = op.rsplit("_", 1)[0]
        r = {"V_ADD_U32": a + b, "V_ADD_NC_U32": a + b, "V_SUB_U32": a - b, "V_SUB_NC_U32": a - b,
             "V_SUBREV_U32": b - a, "V_AND_B32": a & b, "V_OR_B32": a | b, "V_XOR_B32": a ^ b,
             "V_LSHLREV_B32": b << (a & 31), "V_LSHRREV_B32": b >> (a & 31),
             "V_ASHRREV_I32": sx(b, 32) >> (a & 31),
             "V_MUL_U32_U24": (a & 0xFFFFFF) * (b & 0xFFFFFF), "V_MUL_LO_U32": a * b,
             "V_MAX_U32": max(a, b), "V_MIN_U32": min(a, b)}[k]
        m.write(d[0], [r & M32])
        return
    if op in ("V_ADD3_U32_e64", "V_OR3_B32_e64", "V_LSHL_ADD_U32_e64", "V_ADD_LSHL_U32_e64",
              "V_LSHL_OR_B32_e64", "V_AND_OR_B32_e64", "V_XOR3_B32_e64"):
        a, b, c = m.r32(o[0]), m.r32(o[1]), m.r32(o[2])
        r = {"V_ADD3_U32_e64": a + b + c, "V_OR3_B32_e64": a | b | c, "V_XOR3_B32_e64": a ^ b ^ c,
             "V_LSHL_ADD_U32_e64": ((a << (b & 31)) & M32) + c,
             "V_ADD_LSHL_U32_e64": ((a + b) & M32) << (c & 31),
             "V_LSHL_OR_B32_e64": ((a << (b & 31)) & M32) | c, "V_AND_OR_B32_e64": (a & b) | c}[op]
        m.write(d[0], [r & M32])
        return
    if op in ("V_ADD_CO_U32_e64", "V_SUB_CO_U32_e64", "V_SUBREV_CO_U32_e64", "V_ADD_I32_e64",
              "V_SUB_I32_e64"):
        if len(o) > 2 and o[2].kind == "imm" and o[2].imm != 0:
            raise NotInterpreted(f"{op} with clamp")
        a, b = m.r32(o[0]), m.r32(o[1])
        if "SUBREV" in op:
            a, b = b, a
        if "ADD" in op:
            r, c = a + b, int(a + b > M32)
        else:
            r, c = a - b, int(b > a)
        m.write(d[0], [r & M32])
        m.mask_write(d[1], c)
        return
    if op in ("V_ADD_CO_U32_e32", "V_SUB_CO_U32_e32", "V_ADD_I32_e32", "V_SUB_I32_e32"):
        a, b = m.r32(o[0]), m.r32(o[1])
        if "ADD" in op:
            r, c = a + b, int(a + b > M32)
        else:
            r, c = a - b, int(b > a)
        m.write(d[0], [r & M32])
        m.vcc_write(c)
        return
    if op in ("V_ADDC_U32_e64", "V_SUBB_U32_e64", "V_ADDC_CO_U32_e64"):
        if len(o) > 3 and o[3].kind == "imm" and o[3].imm != 0:
            raise NotInterpreted(f"{op} with clamp")
        a, b = m.r32(o[0]), m.r32(o[1])
        cin = m.mask_read(o[2])
        if "ADD" in op:
            r, c = a + b + cin, int(a + b + cin > M32)
        else:
            r, c = a - b - cin, int(b + cin > a)
        m.write(d[0], [r & M32])
        m.mask_write(d[1], c)
        return
    if op in ("V_ADDC_U32_e32", "V_ADDC_CO_U32_e32"):
        a, b = m.r32(o[0]), m.r32(o[1])
        cin = m.vcc_read()
        m.write(d[0], [(a + b + cin) & M32])
        m.vcc_write(int(a + b + cin > M32))
        return
    mc = VCMP.fullmatch(op)
    if mc:
        pred, ty, enc = mc.groups()
        if ty.endswith("64"):
            a, b = m.r64(o[0]), m.r64(o[1])
        else:
            a, b = m.r32(o[0]), m.r32(o[1])
        bit = int(compare(pred, ty, a, b))
        if enc == "e32":
            m.vcc_write(bit)
        else:
            m.mask_write(d[0], bit)
        return
    if op == "V_CNDMASK_B32_e64":
        if o[0].imm != 0 or o[2].imm != 0:
            raise NotInterpreted("V_CNDMASK_B32_e64 with source modifiers")
        m.write(d[0], [m.r32(o[3]) if m.mask_read(o[4]) else m.r32(o[1])])
        return
    if op == "V_CNDMASK_B32_e32":
        m.write(d[0], [m.r32(o[1]) if m.vcc_read() else m.r32(o[0])])
        return
    if op == "V_ADD_F32_e64":
        if any(o[i].kind != "imm" or o[i].imm != 0 for i in (0, 2, 4, 5)):
            raise NotInterpreted("V_ADD_F32_e64 with modifiers")
        m.write(d[0], [f32_add(m.r32(o[1]), m.r32(o[3]))])
        return
    if op == "V_ADD_F32_e32":
        m.write(d[0], [f32_add(m.r32(o[0]), m.r32(o[1]))])
        return
    lay = mem_layout(op, m.ctx.target)
    if lay is not None:
        return step_mem(m, ins, lay)
    raise NotInterpreted(op)


def vsharp_raw(rs, g):
    """The interpreter models raw buffers only: stride 0, no swizzle, no ADD_TID, and on gfx10+
    OOB_SELECT = 3 (raw: an offset >= num_records is out of range). Other V#s: input discarded."""
    if (rs[1] >> 16) & 0x3FFF:
        raise Discard("V# stride != 0")
    if rs[1] >> 31:
        raise Discard("V# swizzle_en")
    if (rs[3] >> 23) & 1:
        raise Discard("V# add_tid_enable")
    if g >= 10 and (rs[3] >> 28) & 3 != 3:
        raise Discard("V# OOB_SELECT != 3 (gfx10+)")


def step_mem(m: Machine, ins: Inst, lay: MemLayout):
    o, d, g = ins.ops, ins.defs, m.g
    cpol = o[lay.cpol].imm if lay.cpol is not None and lay.cpol < len(o) else None
    if lay.kind == "ds":
        if o[-1].kind != "imm" or o[-1].imm != 0:
            raise NotInterpreted("GDS")
        vaddr = m.r32(o[0])
        limit = m.env.reg("LDS_SIZE")
        if g <= 8:    # gfx6-8: M0 bounds the LDS addresses this wave may touch
            limit = min(limit, m.get("m0"))
        addrs = []
        if lay.count == 2:
            addrs = [vaddr + (o[i].imm & 0xFF) * u for i, u, _, _ in lay.offsets]
        else:
            addrs = [vaddr + (o[lay.offsets[0][0]].imm & 0xFFFF)]
        e = lay.elem
        for a in addrs:
            if a > M32:
                raise Discard("LDS address wraps")
            if a % min(e, 8) != 0:
                raise Discard("misaligned DS access")
            if a < limit < a + e:
                raise Discard("DS element straddles the LDS limit")
        if lay.store:
            for k, a in enumerate(addrs):
                v = m.read(o[lay.data[k]])
                val = 0
                for i, x in enumerate(v):
                    val |= x << (32 * i)
                if a < limit:
                    m.store("lds", a, e, val)
            return
        vals = []
        for a in addrs:
            x = m.load("lds", a, e) if a < limit else 0
            if e >= 4:
                vals += [(x >> (32 * i)) & M32 for i in range(e // 4)]
            else:
                vals.append(x)   # U8/U16 zero-extended
        m.write(d[0], vals)
        return
    if lay.kind == "buffer":
        if lay.store:
            vaddr_i = 1 if len(lay.addr) == 3 else None
        i0 = lay.addr[0]
        if len(lay.addr) == 3:
            voff = m.r32(o[lay.addr[0]])
            rsrc_op, soff_op = o[lay.addr[1]], o[lay.addr[2]]
        else:
            voff = 0
            rsrc_op, soff_op = o[lay.addr[0]], o[lay.addr[1]]
        rs = m.read(rsrc_op)
        if len(rs) < 4:
            raise NotInterpreted("buffer resource not 128-bit")
        base = rs[0] | ((rs[1] & 0xFFFF) << 32)
        vsharp_raw(rs, g)
        nrec = rs[2]
        soff = m.r32(soff_op) if soff_op.kind == "reg" else (soff_op.imm & M32)
        inst = o[lay.offsets[0][0]].imm
        off = voff + inst           # the range-checked offset (soffset is not range checked)
        if g <= 8 and (off + soff) % 4:
            raise Discard("misaligned buffer access on gfx6-8")
        vals = m.read(o[0]) if lay.store else None
        out = []
        for i in range(lay.count):
            o_i = off + 4 * i
            if o_i < nrec < o_i + 4:
                raise Discard("dword straddles num_records")
            inr = o_i < nrec and o_i <= M32
            addr = (base + soff + o_i) & M64
            if lay.store:
                if inr:
                    m.store("global", addr, 4, vals[i], cpol)
            else:
                out.append(m.load("global", addr, 4, cpol) if inr else 0)
        if not lay.store:
            m.write(d[0], out)
        return
    if lay.kind in ("global", "flat"):
        offv = o[lay.offsets[0][0]].imm
        if len(lay.addr) == 2:     # SADDR: saddr64 + zext(vaddr32) + offset
            if lay.store:
                saddr, vaddr = m.r64(o[2]), m.r32(o[0])
            else:
                saddr, vaddr = m.r64(o[0]), m.r32(o[1])
            addr = (saddr + vaddr + offv) & M64
        else:
            addr = (m.r64(o[0]) + offv) & M64
        if lay.store:
            v = m.read(o[1])
            for i in range(lay.count):
                m.store("global", (addr + 4 * i) & M64, 4, v[i], cpol)
            return
        m.write(d[0], [m.load("global", (addr + 4 * i) & M64, 4, cpol) for i in range(lay.count)])
        return
    if lay.kind == "smem":
        offv = o[1].imm * lay.offsets[0][1]
        addr = ((m.r64(o[0]) + offv) & M64) & ~3
        m.write(d[0], [m.load("global", (addr + 4 * i) & M64, 4, cpol) for i in range(lay.count)])
        return
    if lay.kind == "sbuf":
        rs = m.read(o[0])
        base = rs[0] | ((rs[1] & 0xFFFF) << 32)
        vsharp_raw(rs, g)
        nrec = rs[2]
        off = 0
        if len(lay.addr) == 2:
            off += m.r32(o[1])
        if lay.offsets:
            off += o[lay.offsets[0][0]].imm * lay.offsets[0][1]
        off &= ~3
        out = []
        for i in range(lay.count):
            o_i = off + 4 * i
            if o_i < nrec < o_i + 4:
                raise Discard("dword straddles num_records")
            out.append(m.load("global", (base + o_i) & M64, 4, cpol) if o_i < nrec else 0)
        m.write(d[0], out)
        return
    raise NotInterpreted(ins.opcode)


def run_side(env, ctx, insts, label):
    m = Machine(env, ctx, label)
    for ins in insts:
        step(m, ins)
    return m


def observe(m: Machine, ctx: Ctx):
    regs = {}
    for r in ctx.live_vregs:
        try:
            w = m.vreg_width(r)
        except NotInterpreted:
            continue
        for i in range(w):
            n = f"{r}:{i}"
            regs[n] = m.get(n)
    for n in ctx.live_phys:
        regs["$" + n] = m.get(n)
    return regs


def compare_runs(env, ctx, mb: Machine, ma: Machine):
    """The first observable difference between the two sides, or None."""
    if len(mb.events) != len(ma.events):
        return ("events", [e[0] for e in mb.events], [e[0] for e in ma.events])
    for eb, ea in zip(mb.events, ma.events):
        if eb[0] != ea[0]:
            return ("event order", eb[0], ea[0])
        if eb[0] == "barrier":
            diff = mem_diff(env, eb[1], ea[1], eb[2])
            if diff:
                return ("memory at a barrier", diff)
        elif eb != ea:
            return ("event", eb, ea)
    diff = mem_diff(env, mb.mem, ma.mem, mb.epoch)
    if diff:
        return ("memory", diff)
    rb, ra = observe(mb, ctx), observe(ma, ctx)
    for k in rb:
        if rb[k] != ra.get(k, rb[k]):
            return ("register", k, rb[k], ra[k])
    for k in sorted(set(mb.policy) & set(ma.policy)):
        if mb.policy[k] != ma.policy[k]:
            return ("cache-policy", k, sorted(mb.policy[k]), sorted(ma.policy[k]))
    return None


def mem_diff(env, wb, wa, epoch):
    for key in sorted(set(wb) | set(wa)):
        vb = wb[key] if key in wb else env.byte(key[0], key[1], epoch)
        va = wa[key] if key in wa else env.byte(key[0], key[1], epoch)
        if vb != va:
            return (key[0], key[1], vb, va)
    return None


@dataclass
class JudgeResult:
    verdict: str          # differs | equal | undecided
    inputs: int = 0       # inputs compared (not discarded)
    discarded: int = 0
    reason: str = ""
    witness: dict = None


def block_insts(fn: Function, num: int, override=None):
    lines = override if override is not None else [fn.lines[i] for i in fn.blocks[num].inst_idx]
    out = []
    for l in lines:
        ins = parse_inst(l)
        if ins is not None:
            out.append(ins)
    return out


def make_ctx(target, features, fb: Function, fa: Function, num, before_lines, after_lines, lds):
    classes = dict(fb.classes)
    for k, v in fa.classes.items():
        classes.setdefault(k, v)
    ib = block_insts(fb, num, before_lines)
    ia = block_insts(fa, num, after_lines)
    for ins in ib + ia:
        for x in ins.defs:
            if x.kind == "reg" and x.cls and x.reg.startswith("%"):
                classes.setdefault(x.reg, x.cls)
    defined = set()
    for ins in ib + ia:
        for x in ins.defs:
            if x.kind == "reg" and x.reg.startswith("%"):
                defined.add(x.reg)
    # live-out: what the after-file's other blocks read (the code that runs after the mutant);
    # a register only the before-file's other blocks read was renamed by the pass (copy
    # propagation) and is compared where the after-file reads its replacement
    used_elsewhere = set()
    live_phys = set()
    for n, b in fa.blocks.items():
        if n == num:
            continue
        for ins in block_insts(fa, n):
            for x in ins.ops + ins.implicit:
                if x.kind == "reg" and x.reg.startswith("%") and "implicit-def" not in x.flags:
                    used_elsewhere.add(x.reg)
    for fn in (fb, fa):
        blk = fn.blocks[num]
        succ = blk.successors or [n for n in fn.blocks if n > num][:1]
        for s in succ:
            if s in fn.blocks:
                for r in fn.blocks[s].liveins:
                    for dw in phys_dwords(r) or []:
                        live_phys.add(dw)
    live = sorted(defined & used_elsewhere)
    return Ctx(target, wave_size(target, features), lds, classes, live, sorted(live_phys)), ib, ia


def judge(ctx, ib, ia, label, n_inputs, seed, extra_inputs=()):
    res = JudgeResult("equal")
    plans = [(f"x{i}", fx, mem) for i, (fx, mem) in enumerate(extra_inputs)]
    plans += [(f"{seed}:{i}", None, None) for i in range(n_inputs)]
    for key, fx, mem in plans:
        env = Env(key, ctx, fx, mem)
        try:
            mb = run_side(env, ctx, ib, label)
            ma = run_side(env, ctx, ia, label)
        except Discard as e:
            res.discarded += 1
            res.reason = res.reason or f"inputs discarded: {e}"
            continue
        except NotInterpreted as e:
            return JudgeResult("undecided", res.inputs, res.discarded, f"not interpreted: {e}")
        res.inputs += 1
        diff = compare_runs(env, ctx, mb, ma)
        if diff:
            ins = {str(k): (hex(v) if isinstance(v, int) else v) for k, v in sorted(env.fixed.items(), key=str)}
            return JudgeResult("differs", res.inputs, res.discarded, str(diff), {"inputs": ins, "difference": diff})
    if res.inputs < max(8, n_inputs // 20):
        res.verdict = "undecided"
        res.reason = f"only {res.inputs} inputs in the interpreter's domain ({res.reason})"
    return res


def cex_inputs(cd):
    """tv's counterexample data as an extra input for the interpreter (never as the judge)."""
    if not cd:
        return None
    fixed, mem = {}, {}
    for e in cd.get("live_in", []):
        name, val = e.get("reg", ""), e.get("value", "")
        try:
            v = int(val, 16) if isinstance(val, str) else int(val)
        except ValueError:
            continue
        m = re.fullmatch(r"%(\d+)(?:\.([a-z0-9_]+))?", name)
        if m:
            idx = sub_dwords(m.group(2)) if m.group(2) else [0, 1, 2, 3, 4, 5, 6, 7]
            if idx == "bad" or idx is None:
                continue
            if not m.group(2):
                for i in range(8):
                    fixed[f"%{m.group(1)}:{i}"] = (v >> (32 * i)) & M32
                continue
            for k, i in enumerate(idx):
                fixed[f"%{m.group(1)}:{i}"] = (v >> (32 * k)) & M32
            continue
        m = re.fullmatch(r"([sv])\[(\d+):(\d+)\]", name)
        if m:
            for k, i in enumerate(range(int(m.group(2)), int(m.group(3)) + 1)):
                fixed[f"{m.group(1)}{i}"] = (v >> (32 * k)) & M32
            continue
        if re.fullmatch(r"[sv]\d+|m0|vcc_lo|vcc_hi|scc|LDS_SIZE|LANE_ID", name):
            fixed[name] = v & M32
    for e in cd.get("memory", []):
        sp = "lds" if e.get("space") == "LDS" else "global"
        try:
            mem[(sp, int(e["addr"]))] = int(e["byte"]) & 0xFF
        except (KeyError, ValueError, TypeError):
            pass
    return fixed, mem


# ----------------------------------------------------------------------------------------------
# Mutation operators (each: block instruction lines -> list of (description, new lines))
# ----------------------------------------------------------------------------------------------

@dataclass
class Unit:
    """One block tv proves: pair, function, block number, target."""
    pair: int
    func: str
    block: int
    target: str


@dataclass
class Mutant:
    id: int
    unit: Unit
    op: str
    desc: str
    before_lines: list | None   # None: the before-block unchanged
    after_lines: list
    verdict: str = ""
    reason: str = ""
    cex: dict = None
    judge: JudgeResult = None


def replace_span(line, op: Operand, new):
    return line[: op.start] + new + line[op.end:]


def operand_core(op: Operand):
    """The operand text without its flags (`killed %15` -> `%15`)."""
    words = op.text.split()
    while len(words) > 1 and words[0] in OPERAND_FLAGS:
        words.pop(0)
    return " ".join(words)


def reg_text(op: Operand):
    return op.reg + (("." + op.sub) if op.sub else "")


def op_width_bank(op: Operand, classes):
    if op.kind != "reg":
        return None
    if op.reg.startswith("%"):
        cls = classes.get(op.reg)
        if cls is None:
            return None
        w = class_dwords(cls)
        if op.sub:
            s = sub_dwords(op.sub)
            if s == "bad" or s is None:
                return None
            w = len(s)
        return (w, class_bank(cls))
    d = phys_dwords(op.reg)
    if d is None:
        return None
    w = len(d)
    if op.sub:
        s = sub_dwords(op.sub)
        if s == "bad" or s is None:
            return None
        w = len(s)
    return (w, phys_bank(op.reg))


def op_imm(lines, ctx):
    out = []
    for i, l in enumerate(lines):
        ins = parse_inst(l)
        if ins is None:
            continue
        lay = mem_layout(ins.opcode, ctx["target"])
        if lay is not None:
            for idx, unit, lo, hi in lay.offsets:
                if idx >= len(ins.ops) or ins.ops[idx].kind != "imm":
                    continue
                x = ins.ops[idx]
                step_ = 1 if unit > 1 else max(lay.elem if lay.kind == "ds" and lay.count == 1 else 4, 1)
                for dv in (step_, -step_, 2 * step_):
                    nv = x.imm + dv
                    if lo <= nv <= hi and (lo, hi) != (0, 0):
                        out.append((f"{ins.opcode} offset {x.imm} -> {nv}",
                                    lines[:i] + [replace_span(l, x, str(nv))] + lines[i + 1:]))
            continue
        if ins.opcode in ("COPY", "REG_SEQUENCE", "PHI") or TERMINATORS.match(ins.opcode):
            continue
        # an ALU immediate source (not a modifier/clamp field)
        skip = set()
        if ins.opcode.endswith("_e64") and ins.opcode.startswith("V_"):
            if ins.opcode.startswith("V_CNDMASK") or ins.opcode.startswith("V_ADD_F32"):
                skip = {0, 2, 4, 5}
            elif ins.opcode.startswith(("V_ADD_U32", "V_SUB_U32", "V_ADD_CO", "V_SUB_CO", "V_MUL_U32_U24")):
                skip = {2}
            elif ins.opcode.startswith("V_ADDC"):
                skip = {3}
        for k, x in enumerate(ins.ops):
            if k in skip or x.kind != "imm":
                continue
            for dv in (1, -1):
                nv = x.imm + dv
                out.append((f"{ins.opcode} immediate {x.imm} -> {nv}",
                            lines[:i] + [replace_span(l, x, str(nv))] + lines[i + 1:]))
    return out


def op_swap(lines, ctx):
    out = []
    classes = ctx["classes"]
    for i, l in enumerate(lines):
        ins = parse_inst(l)
        if ins is None or TERMINATORS.match(ins.opcode):
            continue
        if ins.opcode in ("REG_SEQUENCE", "PHI"):
            cand = [ins.ops[k] for k in range(0, len(ins.ops), 2)]
        else:
            cand = [x for x in ins.ops if x.kind == "reg"]
        for a in range(len(cand)):
            for b in range(a + 1, len(cand)):
                x, y = cand[a], cand[b]
                wx, wy = op_width_bank(x, classes), op_width_bank(y, classes)
                if wx is None or wx != wy or reg_text(x) == reg_text(y):
                    continue
                nl = l[: x.start] + operand_core(y) + l[x.end: y.start] + operand_core(x) + l[y.end:]
                out.append((f"{ins.opcode}: {reg_text(x)} <-> {reg_text(y)}", lines[:i] + [nl] + lines[i + 1:]))
    return out


def op_subreg(lines, ctx):
    out = []
    classes = ctx["classes"]
    for i, l in enumerate(lines):
        ins = parse_inst(l)
        if ins is None or TERMINATORS.match(ins.opcode):
            continue
        for x in ins.ops:
            if x.kind != "reg" or not x.sub or not x.reg.startswith("%"):
                continue
            s = sub_dwords(x.sub)
            cls = classes.get(x.reg)
            if s in (None, "bad") or cls is None:
                continue
            W, w = class_dwords(cls), len(s)
            for start in range(0, W - w + 1):
                if start == s[0]:
                    continue
                nt = operand_core(x).replace("." + x.sub, "." + sub_name(start, w), 1)
                out.append((f"{ins.opcode}: {x.reg}.{x.sub} -> .{sub_name(start, w)}",
                            lines[:i] + [replace_span(l, x, nt)] + lines[i + 1:]))
        if ins.opcode == "REG_SEQUENCE":
            idx = [ins.ops[k] for k in range(1, len(ins.ops), 2)]
            for a in range(len(idx)):
                for b in range(a + 1, len(idx)):
                    x, y = idx[a], idx[b]
                    sx_, sy = sub_dwords(x.sub), sub_dwords(y.sub)
                    if sx_ in (None, "bad") or sy in (None, "bad") or len(sx_) != len(sy):
                        continue
                    nl = l[: x.start] + y.text + l[x.end: y.start] + x.text + l[y.end:]
                    out.append((f"REG_SEQUENCE slots {x.sub} <-> {y.sub}", lines[:i] + [nl] + lines[i + 1:]))
    return out


def op_cmp(lines, ctx):
    out = []
    neg = {"EQ": "NE", "NE": "EQ", "LT": "GE", "GE": "LT", "GT": "LE", "LE": "GT", "LG": "EQ"}
    mir = {"LT": "GT", "GT": "LT", "LE": "GE", "GE": "LE"}
    for i, l in enumerate(lines):
        ins = parse_inst(l)
        if ins is None:
            continue
        m = re.fullmatch(r"(V|S)_CMP_([A-Z]+)_([UI])(32|64)(_e32|_e64)?", ins.opcode)
        if not m:
            continue
        v, p, su, bits, enc = m.groups()
        enc = enc or ""
        news = {f"{v}_CMP_{neg[p]}_{su}{bits}{enc}"}
        if p in mir:
            news.add(f"{v}_CMP_{mir[p]}_{su}{bits}{enc}")
        if p not in ("EQ", "NE", "LG"):
            news.add(f"{v}_CMP_{p}_{'I' if su == 'U' else 'U'}{bits}{enc}")
        for nop in sorted(news):
            out.append((f"{ins.opcode} -> {nop}", lines[:i] + [l.replace(ins.opcode, nop, 1)] + lines[i + 1:]))
    return out


def op_clobber(lines, ctx):
    out = []
    rnd = ctx["rng"]
    for i, l in enumerate(lines):
        ins = parse_inst(l)
        if ins is None or TERMINATORS.match(ins.opcode):
            continue
        seen = set()
        for x in ins.ops + [y for y in ins.implicit if y.reg == "$m0" and "implicit" in y.flags]:
            if x.kind != "reg" or not x.reg.startswith("$") or x.reg in ("$exec", "$scc"):
                continue
            dws = phys_dwords(x.reg)
            if not dws:
                continue
            indent = l[: len(l) - len(l.lstrip())]
            imm = rnd.choice([0, 4, 7, 17, 256, -1])
            for dw in dws:
                if dw in seen:
                    continue
                seen.add(dw)
                if dw.startswith("s"):
                    new = [f"{indent}$sgpr{dw[1:]} = S_MOV_B32 {imm}"]
                    n = int(dw[1:])
                    if len(dws) == 1:   # a tuple overlapping the 32-bit register
                        p = n - (n % 2)
                        new.append(f"{indent}$sgpr{p}_sgpr{p + 1} = S_MOV_B64 {imm}")
                elif dw.startswith("v"):
                    new = [f"{indent}$vgpr{dw[1:]} = V_MOV_B32_e32 {imm}, implicit $exec"]
                elif dw == "m0":
                    new = [f"{indent}$m0 = S_MOV_B32 {imm}"]
                elif dw in ("vcc_lo", "vcc_hi"):
                    new = [f"{indent}${dw} = S_MOV_B32 {imm}"]
                else:
                    continue
                for c in new:
                    out.append((f"clobber before {ins.opcode} ({x.reg}): {c.strip()}",
                                lines[:i] + [c] + lines[i:]))
    return out


def op_memmove(lines, ctx):
    out = []
    insts = [(i, parse_inst(l)) for i, l in enumerate(lines)]
    mems = [(i, ins, mem_layout(ins.opcode, ctx["target"])) for i, ins in insts if ins is not None]
    mems = [(i, ins, lay) for i, ins, lay in mems if lay is not None]
    for k in range(1, len(mems)):
        j, ij, lj = mems[k]
        for kk in range(k - 1, -1, -1):
            i, ii, li = mems[kk]
            if mem_domain(li.kind) != mem_domain(lj.kind):
                continue
            if not (li.store or lj.store):
                continue
            # j's register uses must be defined above i (SSA)
            used = {x.reg for x in ij.ops + ij.implicit if x.kind == "reg" and x.reg.startswith("%")}
            between = set()
            for q in range(i, j):
                if insts[q][1] is not None:
                    between |= {x.reg for x in insts[q][1].defs if x.kind == "reg"}
            if used & between:
                break
            nl = lines[:i] + [lines[j]] + lines[i:j] + lines[j + 1:]
            out.append((f"{ij.opcode} (line {j}) moved above {ii.opcode} (line {i})", nl))
    return out


def cpol_set(line, bit, target):
    ins = parse_inst(line)
    if ins is None:
        return line, False
    lay = mem_layout(ins.opcode, target)
    if lay is None or lay.kind in ("ds", "smem", "sbuf") or lay.cpol is None or lay.cpol >= len(ins.ops):
        return line, False
    x = ins.ops[lay.cpol]
    if x.kind != "imm":
        return line, False
    return replace_span(line, x, str(x.imm | bit)), True


def op_cpol(lines, ctx, before_lines):
    out = []
    for bit in (1, 2):
        b2, a2, idx = [], [], []
        for l in before_lines:
            b2.append(cpol_set(l, bit, ctx["target"])[0])
        for i, l in enumerate(lines):
            nl, ok = cpol_set(l, bit, ctx["target"])
            a2.append(nl)
            if ok:
                idx.append(i)
        for i in idx:
            drop = list(a2)
            ins = parse_inst(drop[i])
            lay = mem_layout(ins.opcode, ctx["target"])
            x = ins.ops[lay.cpol]
            drop[i] = replace_span(drop[i], x, str(x.imm & ~bit))
            out.append((f"cpol bit {bit} set on every access, dropped from {ins.opcode}", drop, b2))
    return out


OPERATORS = ["imm", "swap", "subreg", "cmp", "clobber", "memmove", "cpol"]


def mutants_for_block(fb: Function, fa: Function, num, target, rng, max_per, rot=0):
    ctx = {"target": target, "classes": {**fb.classes, **fa.classes}, "rng": rng}
    after = [fa.lines[i] for i in fa.blocks[num].inst_idx]
    before = [fb.lines[i] for i in fb.blocks[num].inst_idx]
    per_op = {}
    per_op["imm"] = [(d, l, None) for d, l in op_imm(after, ctx)]
    per_op["swap"] = [(d, l, None) for d, l in op_swap(after, ctx)]
    per_op["subreg"] = [(d, l, None) for d, l in op_subreg(after, ctx)]
    per_op["cmp"] = [(d, l, None) for d, l in op_cmp(after, ctx)]
    per_op["clobber"] = [(d, l, None) for d, l in op_clobber(after, ctx)]
    per_op["memmove"] = [(d, l, None) for d, l in op_memmove(after, ctx)]
    per_op["cpol"] = op_cpol(after, ctx, before)
    for k in per_op:
        rng.shuffle(per_op[k])
    # round robin across operators so every operator is sampled
    out = []
    order = OPERATORS[rot % len(OPERATORS):] + OPERATORS[: rot % len(OPERATORS)]
    while len(out) < max_per and any(per_op.values()):
        for k in order:
            if per_op[k] and len(out) < max_per:
                d, l, b = per_op[k].pop()
                if l != after or b is not None:
                    out.append((k, d, l, b))
    return out


# ----------------------------------------------------------------------------------------------
# Running tv
# ----------------------------------------------------------------------------------------------

def run_tv(gcnsmt, before, after, target, timeout, extra=()):
    cmd = [gcnsmt, "tv", before, after, "--format", "json", "--timeout", str(timeout)]
    if target:
        cmd += ["--target", target]
    cmd += list(extra)
    p = subprocess.run(cmd, capture_output=True, text=True)
    blocks = []
    summary = False
    for l in p.stdout.splitlines():
        try:
            v = json.loads(l)
        except ValueError:
            continue
        if v.get("type") == "block":
            blocks.append(v)
        elif v.get("type") == "summary":
            summary = True
    rc = p.returncode
    if rc == 2 and summary:
        rc = 4     # a block-level `error` verdict, not an input error: the blocks have verdicts
    return rc, blocks, p.stderr


def block_num(name):
    m = re.match(r"bb\.(\d+)", str(name))
    return int(m.group(1)) if m else -1


def pair_target(before_path, mf: MirFile, fname):
    a = mf.ir_attrs.get(fname)
    if a and a[0]:
        return a[0]
    return None


# Pairs without "target-cpu" whose header does not name a target: the targets their tests use
# (verifier/tests/tv_regress.rs).
KNOWN_TARGETS = {"flat_straddle": ["gfx90a"], "tvrun_features": ["gfx90a"]}


def file_targets(before_path):
    """Targets of a pair without "target-cpu": from its header comment or file name."""
    stem = os.path.basename(before_path).split(".")[0]
    if stem in KNOWN_TARGETS:
        return KNOWN_TARGETS[stem]
    with open(before_path) as f:
        head = f.read(3000)
    m = re.search(r"--target ([a-z0-9,]+)", head)
    if m:
        return m.group(1).split(",")
    m = re.search(r"\((gfx[0-9a-z]+)[;,)]", head) or re.search(r"\b(gfx[0-9]{3,4}[a-z]?)\b", head)
    if m:
        return [m.group(1)]
    m = re.search(r"(gfx[0-9]{3,4}[a-z]?)", os.path.basename(before_path))
    if m:
        return [m.group(1)]
    return []


def write_batch(dirn, name, pair, muts, files):
    """One before-file and one after-file holding every mutant's function under its own name."""
    bf, af = files[pair]
    out = {}
    for side, mf in (("before", bf), ("after", af)):
        lines = list(mf.prefix)
        defs = []
        docs = []
        for mu in muts:
            fn = mf.funcs[mu.unit.func]
            new = f"{mu.unit.func}__m{mu.id}"
            dl = list(fn.lines)
            for k, l in enumerate(dl):
                if l.startswith("name:"):
                    dl[k] = f"name:            {new}"
                    break
            blk = fn.blocks[mu.unit.block]
            repl = mu.after_lines if side == "after" else mu.before_lines
            if repl is not None:
                dl = dl[: blk.inst_idx[0]] + repl + dl[blk.inst_idx[-1] + 1:]
            docs.append(dl)
            if mu.unit.func in mf.ir_defines:
                dline = mf.ir_defines[mu.unit.func]
                defs += [dline.replace("@" + mu.unit.func + "(", "@" + new + "(", 1), "    ret void", "  }", "  "]
        if defs:
            # inside the embedded IR document, before its closing `...`
            ends = [k for k, l in enumerate(lines) if l.startswith("...")]
            if ends:
                at = ends[-1]
                lines = lines[:at] + defs + lines[at:]
        text = "\n".join(lines + [x for dl in docs for x in dl]) + "\n"
        p = os.path.join(dirn, f"{name}.{side}.mir")
        with open(p, "w") as f:
            f.write(text)
        out[side] = p
    return out["before"], out["after"]


# How bad a block verdict is, for a mutant's function-wide verdict.
RANK = {"unchanged": 0, "proved": 1, "inapplicable": 2, "unsupported": 3, "error": 4,
        "unknown": 5, "refuted": 6}


def tv_batch(args, dirn, bname, pair, muts, files, depth=0):
    target = muts[0].unit.target
    bp, ap = write_batch(dirn, bname, pair, muts, files)
    rc, blocks, err = run_tv(args.gcnsmt, bp, ap, target, args.timeout)
    if rc not in (0, 1, 3, 4):
        if len(muts) == 1:
            muts[0].verdict = "error"
            muts[0].reason = (err.strip().splitlines() or ["tv failed"])[-1][:300]
            return
        h = len(muts) // 2
        tv_batch(args, dirn, bname + "a", pair, muts[:h], files, depth + 1)
        tv_batch(args, dirn, bname + "b", pair, muts[h:], files, depth + 1)
        return
    by = {}
    for b in blocks:
        by[(b["function"], block_num(b["block"]), b.get("target"))] = b
    for mu in muts:
        b = by.get((f"{mu.unit.func}__m{mu.id}", mu.unit.block, target))
        if b is None:
            mu.verdict = "error"
            mu.reason = "no verdict for the block"
            continue
        # A mutant's verdict is its function's worst block: a changed PHI is compared on the
        # incoming edge, in the predecessor block, not in the block the mutant edited.
        fname = f"{mu.unit.func}__m{mu.id}"
        others = [v for (f, _, t), v in by.items() if f == fname and t == target]
        worst = max(others, key=lambda v: RANK.get(v["verdict"], 0), default=b)
        if RANK.get(worst["verdict"], 0) <= RANK.get(b["verdict"], 0):
            worst = b
        mu.verdict = worst["verdict"]
        mu.reason = worst.get("reason") or ""
        mu.cex = worst.get("counterexample_data") if worst is b else None
    if not args.keep:
        for p in (bp, ap):
            os.remove(p)


# ----------------------------------------------------------------------------------------------
# Main
# ----------------------------------------------------------------------------------------------

def default_pairs():
    pairs = []
    for b in sorted(glob.glob(os.path.join(ROOT, "tests/data/tv/gen/*.before.mir"))):
        pairs.append((b, b[: -len(".before.mir")] + ".after.mir"))
    for b in sorted(glob.glob(os.path.join(ROOT, "tests/data/tv/regress/*.before.mir"))):
        pairs.append((b, b[: -len(".before.mir")] + ".after.mir"))
    for d in sorted(glob.glob(os.path.join(ROOT, "tests/data/tv/bugs/*/"))):
        if os.path.exists(d + "before.mir") and os.path.exists(d + "good.mir"):
            pairs.append((d + "before.mir", d + "good.mir"))
    return pairs


def bug_toml_target(before_path):
    t = os.path.join(os.path.dirname(before_path), "bug.toml")
    if os.path.exists(t):
        m = re.search(r'target\s*=\s*"([^"]+)"', open(t).read())
        if m:
            return m.group(1).split(",")
    return None


def features_of(mf, fname):
    a = mf.ir_attrs.get(fname)
    return a[2] if a else ""


def lds_of(mf, fname):
    a = mf.ir_attrs.get(fname)
    lds = a[1] if a else 0
    return lds or mf.funcs[fname].lds_size or 0


def judge_mutant(mu, files, n_inputs, seed, extra=()):
    bf, af = files[mu.unit.pair]
    fb, fa = bf.funcs[mu.unit.func], af.funcs[mu.unit.func]
    ctx, ib, ia = make_ctx(mu.unit.target, features_of(bf, mu.unit.func), fb, fa, mu.unit.block,
                           mu.before_lines, mu.after_lines, lds_of(bf, mu.unit.func))
    ex = list(extra)
    c = cex_inputs(mu.cex)
    if c:
        ex.insert(0, c)
    return judge(ctx, ib, ia, f"bb.{mu.unit.block}", n_inputs, seed, ex)


def judge_cli(args):
    bf, af = read_mir(args.files[0]), read_mir(args.files[1])
    fname = args.function
    if fname not in bf.funcs or fname not in af.funcs:
        print(f"error: function {fname} not in both files", file=sys.stderr)
        return 2
    fb, fa = bf.funcs[fname], af.funcs[fname]
    ctx, ib, ia = make_ctx(args.target, features_of(bf, fname), fb, fa, args.block, None, None,
                           lds_of(bf, fname))
    extra = []
    if args.input:
        spec = json.loads(args.input)
        fixed = {k: (int(v, 0) if isinstance(v, str) else v) for k, v in spec.get("regs", {}).items()}
        mem = {}
        for e in spec.get("memory", []):
            mem[(e["space"], int(str(e["addr"]), 0))] = int(str(e["byte"]), 0)
        extra.append((fixed, mem))
        # show both sides on this input
        env = Env("given", ctx, fixed, mem)
        try:
            mb = run_side(env, ctx, ib, f"bb.{args.block}")
            ma = run_side(env, ctx, ia, f"bb.{args.block}")
            show = {}
            for side, mm in (("before", mb), ("after", ma)):
                show[side] = {
                    "memory": {f"{k[0]}[{k[1]}]": v for k, v in sorted(mm.mem.items())},
                    "registers": {k: v for k, v in observe(mm, ctx).items()},
                }
        except (Discard, NotInterpreted) as e:
            show = {"error": str(e)}
    else:
        show = None
    r = judge(ctx, ib, ia, f"bb.{args.block}", args.inputs, args.seed, extra)
    out = {"verdict": r.verdict, "inputs": r.inputs, "discarded": r.discarded, "reason": r.reason,
           "live_vregs": ctx.live_vregs, "live_phys": ctx.live_phys}
    if r.witness:
        out["witness"] = json.loads(json.dumps(r.witness, default=str))
    if show is not None:
        out["given_input"] = show
    print(json.dumps(out, indent=1, default=str))
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="*", help="BEFORE.mir AFTER.mir pairs (default: the repo's)")
    ap.add_argument("--gcnsmt", default=os.path.join(ROOT, "target/release/gcnsmt"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--limit", type=int, default=0, help="at most this many mutants (0: all)")
    ap.add_argument("--max-per-block", type=int, default=24)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--batch", type=int, default=40, help="mutants per tv run")
    ap.add_argument("--timeout", type=int, default=20, help="tv's per-query timeout (s)")
    ap.add_argument("--inputs", type=int, default=300, help="random inputs per judged mutant")
    ap.add_argument("--judge-refuted", type=float, default=0.25,
                    help="fraction of refuted mutants also judged (false-alarm count)")
    ap.add_argument("--target", help="target for pairs without target-cpu (else from the header)")
    ap.add_argument("--json", help="write the machine-readable report here (- for stdout)")
    ap.add_argument("--keep", help="keep the batch files in this directory")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--judge", action="store_true", help="interpreter only, on one block pair")
    ap.add_argument("--function")
    ap.add_argument("--block", type=int, default=0)
    ap.add_argument("--input", help='with --judge: a fixed input {"regs": {...}, "memory": [...]}')
    args = ap.parse_args(argv)
    if args.judge:
        if len(args.files) != 2 or not args.function or not args.target:
            print("error: --judge needs BEFORE AFTER --function F --target T", file=sys.stderr)
            return 2
        return judge_cli(args)
    t0 = time.time()
    if args.files:
        if len(args.files) % 2:
            print("error: files come in BEFORE AFTER pairs", file=sys.stderr)
            return 2
        pairs = [(args.files[i], args.files[i + 1]) for i in range(0, len(args.files), 2)]
    else:
        pairs = default_pairs()
    if not os.path.exists(args.gcnsmt):
        print(f"error: no gcnsmt at {args.gcnsmt}", file=sys.stderr)
        return 2
    log = (lambda *a: None) if args.quiet else (lambda *a: print(*a, file=sys.stderr, flush=True))
    files = {}
    units = []
    tmp = args.keep or tempfile.mkdtemp(prefix="tv_mutate.")
    os.makedirs(tmp, exist_ok=True)
    baseline = {"blocks": 0, "proved": 0}
    try:
        for pi, (b, a) in enumerate(pairs):
            try:
                bf, af = read_mir(b), read_mir(a)
            except OSError as e:
                print(f"error: {e}", file=sys.stderr)
                return 2
            files[pi] = (bf, af)
            need_target = any(bf.ir_attrs.get(n, (None,))[0] is None for n in bf.funcs)
            targets = [None]
            if need_target:
                targets = bug_toml_target(b) or ([args.target] if args.target else file_targets(b))
                if not targets:
                    print(f"error: {b}: no target-cpu and no target known; pass --target", file=sys.stderr)
                    return 2
            for t in targets:
                rc, blocks, err = run_tv(args.gcnsmt, b, a, t, args.timeout)
                if rc not in (0, 1, 3, 4):
                    print(f"error: gcnsmt tv {b} {a}: {err.strip()[-400:]}", file=sys.stderr)
                    return 2
                for blk in blocks:
                    baseline["blocks"] += 1
                    if blk["verdict"] == "proved":
                        baseline["proved"] += 1
                        f = blk["function"]
                        if f in bf.funcs and f in af.funcs:
                            units.append(Unit(pi, f, block_num(blk["block"]), blk["target"]))
        log(f"tv_mutate: {len(pairs)} pairs, {baseline['proved']} proved blocks of {baseline['blocks']}")
        rng = random.Random(args.seed)
        per_unit = []
        for ui, u in enumerate(units):
            bf, af = files[u.pair]
            ms = mutants_for_block(bf.funcs[u.func], af.funcs[u.func], u.block, u.target,
                                   random.Random(f"{args.seed}:{u.pair}:{u.func}:{u.block}:{u.target}"),
                                   args.max_per_block, rot=ui)
            per_unit.append(ms)
        # round robin across blocks up to --limit
        muts = []
        k = 0
        while True:
            added = False
            for ui, ms in enumerate(per_unit):
                if k < len(ms):
                    op, desc, la, lb = ms[k]
                    muts.append(Mutant(len(muts), units[ui], op, desc, lb, la))
                    added = True
                    if args.limit and len(muts) >= args.limit:
                        break
            k += 1
            if not added or (args.limit and len(muts) >= args.limit):
                break
        log(f"tv_mutate: {len(muts)} mutants of {len(units)} blocks; running tv in batches of {args.batch}, {args.jobs} jobs")
        groups = {}
        for mu in muts:
            groups.setdefault((mu.unit.pair, mu.unit.target), []).append(mu)
        batches = []
        for (pair, target), ms in groups.items():
            for i in range(0, len(ms), args.batch):
                batches.append((pair, ms[i: i + args.batch]))
        done = 0
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
            futs = [ex.submit(tv_batch, args, tmp, f"b{i}", pair, ms, files) for i, (pair, ms) in enumerate(batches)]
            for fu in concurrent.futures.as_completed(futs):
                fu.result()
                done += 1
                log(f"tv_mutate: batch {done}/{len(batches)} [{time.time() - t0:.0f}s]")
        t_tv = time.time() - t0
        # cex of refuted mutants of a block: extra (solver-chosen) inputs for its proved mutants
        cex_by_unit = {}
        for mu in muts:
            if mu.verdict == "refuted" and mu.cex:
                c = cex_inputs(mu.cex)
                if c:
                    cex_by_unit.setdefault(id(mu.unit), []).append(c)
        jr = random.Random(args.seed + 7)
        for mu in muts:
            if mu.verdict == "proved":
                mu.judge = judge_mutant(mu, files, args.inputs, args.seed, cex_by_unit.get(id(mu.unit), [])[:12])
            elif mu.verdict == "refuted" and jr.random() < args.judge_refuted:
                mu.judge = judge_mutant(mu, files, args.inputs, args.seed)
        # the unmutated proved blocks: the interpreter must find them equal (its own sanity check)
        base_j = {"equal": 0, "differs": 0, "undecided": 0}
        base_bad = []
        for u in units:
            bf, af = files[u.pair]
            ctx, ib, ia = make_ctx(u.target, features_of(bf, u.func), bf.funcs[u.func], af.funcs[u.func],
                                   u.block, None, None, lds_of(bf, u.func))
            r = judge(ctx, ib, ia, f"bb.{u.block}", min(args.inputs, 100), args.seed)
            base_j[r.verdict] += 1
            if r.verdict != "equal":
                base_bad.append((u, r))
        t_all = time.time() - t0
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    return report(args, pairs, muts, baseline, base_j, base_bad, t_tv, t_all)


COLS = ["tried", "refuted", "unknown", "unsupported", "error", "unchanged", "proved-equivalent",
        "proved-undecided", "proved-but-wrong", "refuted-judged", "refuted-but-equal"]


def classify(mu):
    if mu.verdict == "proved":
        if mu.judge is None or mu.judge.verdict == "undecided":
            return "proved-undecided"
        return "proved-but-wrong" if mu.judge.verdict == "differs" else "proved-equivalent"
    if mu.verdict in ("refuted", "unknown", "unsupported", "error", "unchanged"):
        return mu.verdict
    return "error"


def report(args, pairs, muts, baseline, base_j, base_bad, t_tv, t_all):
    rows = {op: {c: 0 for c in COLS} for op in OPERATORS}
    tot = {c: 0 for c in COLS}
    wrong, undecided = [], {}
    for mu in muts:
        c = classify(mu)
        for r in (rows[mu.op], tot):
            r["tried"] += 1
            r[c] += 1
            if mu.verdict == "refuted" and mu.judge is not None:
                r["refuted-judged"] += 1
                if mu.judge.verdict == "equal":
                    r["refuted-but-equal"] += 1
        if c == "proved-but-wrong":
            wrong.append(mu)
        if c == "proved-undecided":
            why = mu.judge.reason if mu.judge else "not judged"
            why = re.sub(r"\d+ inputs", "N inputs", why)
            undecided[why] = undecided.get(why, 0) + 1
    out = sys.stdout
    hdr = ["operator"] + COLS
    print("\n" + " | ".join(hdr), file=out)
    for op in OPERATORS:
        print(" | ".join([op] + [str(rows[op][c]) for c in COLS]), file=out)
    print(" | ".join(["all"] + [str(tot[c]) for c in COLS]), file=out)
    print(f"\nbaseline: {len(pairs)} pairs, {baseline['blocks']} blocks, {baseline['proved']} proved; "
          f"interpreter on the unmutated proved blocks: {base_j['equal']} equal, "
          f"{base_j['differs']} differs, {base_j['undecided']} undecided", file=out)
    for u, r in base_bad[:20]:
        print(f"  baseline {u.func} bb.{u.block} {u.target}: {r.verdict}: {r.reason}", file=out)
    if undecided:
        print("proved but undecided by the interpreter:", file=out)
        for k, v in sorted(undecided.items(), key=lambda x: -x[1]):
            print(f"  {v:5d}  {k}", file=out)
    if wrong:
        print(f"\nPROVED-BUT-WRONG: {len(wrong)} mutants tv proves that the interpreter shows differ", file=out)
        for mu in wrong:
            print_mutant(mu, pairs, out)
    print(f"\ntime: tv {t_tv:.0f}s, total {t_all:.0f}s", file=out)
    if args.json:
        data = {
            "totals": tot, "per_operator": rows, "baseline": baseline, "baseline_judge": base_j,
            "time_s": round(t_all, 1), "time_tv_s": round(t_tv, 1),
            "mutants": [
                {"id": mu.id, "pair": pairs[mu.unit.pair][1], "function": mu.unit.func,
                 "block": mu.unit.block, "target": mu.unit.target, "operator": mu.op,
                 "description": mu.desc, "verdict": mu.verdict, "class": classify(mu),
                 "reason": mu.reason,
                 "judge": None if mu.judge is None else {
                     "verdict": mu.judge.verdict, "inputs": mu.judge.inputs,
                     "discarded": mu.judge.discarded, "reason": mu.judge.reason,
                     "witness": mu.judge.witness},
                 "after_block": mu.after_lines if classify(mu) == "proved-but-wrong" else None,
                 "before_block": mu.before_lines if classify(mu) == "proved-but-wrong" else None}
                for mu in muts],
        }
        s = json.dumps(data, indent=1, default=str)
        if args.json == "-":
            print(s)
        else:
            with open(args.json, "w") as f:
                f.write(s)
    return 1 if wrong else 0


def print_mutant(mu, pairs, out):
    print(f"--- mutant {mu.id} [{mu.op}] {mu.unit.func} bb.{mu.unit.block} {mu.unit.target} "
          f"({os.path.relpath(pairs[mu.unit.pair][1], ROOT)})", file=out)
    print(f"    {mu.desc}", file=out)
    if mu.before_lines is not None:
        print("    before-block (mutated):", file=out)
        for l in mu.before_lines:
            print("      " + l.strip(), file=out)
    print("    after-block (mutant):", file=out)
    for l in mu.after_lines:
        print("      " + l.strip(), file=out)
    j = mu.judge
    print(f"    interpreter: differs after {j.inputs} inputs: {j.reason}", file=out)
    if j.witness:
        ins = j.witness.get("inputs", {})
        print("    input: " + ", ".join(f"{k}={v}" for k, v in list(ins.items())[:40]), file=out)


if __name__ == "__main__":
    sys.exit(main())
