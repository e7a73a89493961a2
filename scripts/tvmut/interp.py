"""The independent concrete interpreter (one lane, written from the AMD ISA manuals, not from
gcnsmt's Rust code): the inputs (drawn lazily by name so both sides read the same values), the
machine state, and `step`, one instruction at a time, split by instruction family. Memory
instructions are in interp_mem.py."""

from __future__ import annotations

import hashlib
import re
import struct
from dataclasses import dataclass

from .mir import Inst, Operand, class_dwords, phys_dwords, sub_dwords
from .targets import gfx_major, mem_layout

M32 = 0xFFFFFFFF
M64 = (1 << 64) - 1

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


def step_control(m: Machine, ins: Inst) -> bool:
    """No-ops, terminators, SI_IF_BREAK, SI_END_CF and barriers."""
    op, o, d = ins.opcode, ins.ops, ins.defs
    if op in NOOPS:
        return True
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
        return True
    if op == "SI_IF_BREAK":    # one lane: (cond & EXEC) | previous break mask
        c, prev = m.read(o[0]), m.read(o[1])
        ex = [m.get("exec_lo"), m.get("exec_hi")]
        m.write(d[0], [(c[i] & ex[i]) | prev[i] for i in range(len(m.names(d[0])))])
        return True
    if op in ("SI_END_CF", "SI_MASK_BRANCH"):
        m.events.append((op, tuple(tuple(m.read(x)) for x in o if x.kind == "reg")))
        return True
    if op in ("S_BARRIER", "S_BARRIER_SIGNAL_IMM", "S_BARRIER_WAIT"):
        m.barrier(op)
        return True
    return False


def step_pseudo(m: Machine, ins: Inst) -> bool:
    """The generic MIR pseudos: COPY, REG_SEQUENCE, INSERT_SUBREG, IMPLICIT_DEF, PHI."""
    op, o, d = ins.opcode, ins.ops, ins.defs
    if op == "COPY":
        m.write(d[0], m.read(o[0]) if o[0].kind == "reg" else [o[0].imm & M32])
        return True
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
        return True
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
        return True
    if op == "IMPLICIT_DEF":
        names = m.names(d[0])
        m.write(d[0], [m.env.reg(("undef", n)) for n in names])
        return True
    if op == "PHI":
        preds = sorted({o[i + 1].imm for i in range(0, len(o), 2)})
        p = m.env.choice(("phi", m.block), preds)
        for i in range(0, len(o), 2):
            if o[i + 1].imm == p:
                m.write(d[0], m.read(o[i]))
                return True
        raise NotInterpreted("PHI")
    return False


def step_salu(m: Machine, ins: Inst) -> bool:
    """Scalar ALU: moves, 32- and 64-bit arithmetic and logic with SCC, compares, S_CSELECT."""
    op, o, d = ins.opcode, ins.ops, ins.defs
    if op in ("S_MOV_B32",):
        m.write(d[0], [m.r32(o[0])])
        return True
    if op in ("S_MOV_B64", "S_MOV_B64_IMM_PSEUDO", "V_MOV_B64_PSEUDO"):
        v = m.r64(o[0]) if o[0].kind == "reg" else (sx(o[0].imm, 64) & M64)
        m.write(d[0], [v & M32, v >> 32])
        return True
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
        return True
    if op in ("S_AND_B64", "S_OR_B64", "S_XOR_B64", "S_ANDN2_B64", "S_LSHL_B64", "S_LSHR_B64"):
        a = m.r64(o[0])
        b = m.r64(o[1]) if op not in ("S_LSHL_B64", "S_LSHR_B64") else m.r32(o[1])
        r = {"S_AND_B64": a & b, "S_OR_B64": a | b, "S_XOR_B64": a ^ b, "S_ANDN2_B64": a & ~b & M64,
             "S_LSHL_B64": (a << (b & 63)) & M64, "S_LSHR_B64": a >> (b & 63)}[op]
        m.write(d[0], [r & M32, r >> 32])
        m.wname("scc", int(r != 0))
        return True
    mc = SCMP.fullmatch(op)
    if mc:
        if mc.group(2) == "U64":
            a, b = m.r64(o[0]), m.r64(o[1])
        else:
            a, b = m.r32(o[0]), m.r32(o[1])
        m.wname("scc", int(compare(mc.group(1), mc.group(2), a, b)))
        return True
    if op == "S_CSELECT_B32":
        m.write(d[0], [m.r32(o[0]) if m.get("scc") & 1 else m.r32(o[1])])
        return True
    return False


def step_valu(m: Machine, ins: Inst) -> bool:
    """Vector ALU without lane masks: moves, two- and three-operand integer operations."""
    op, o, d = ins.opcode, ins.ops, ins.defs
    if op in ("V_MOV_B32_e32", "V_MOV_B32_e64", "AV_MOV_B32_IMM_PSEUDO", "V_ACCVGPR_WRITE_B32_e64",
              "V_ACCVGPR_READ_B32_e64", "V_READFIRSTLANE_B32", "V_MOV_B32_dpp"):
        if op == "V_MOV_B32_dpp":
            raise NotInterpreted(op)
        m.write(d[0], [m.r32(o[0])])
        return True
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
        return True
    if op in ("V_ADD3_U32_e64", "V_OR3_B32_e64", "V_LSHL_ADD_U32_e64", "V_ADD_LSHL_U32_e64",
              "V_LSHL_OR_B32_e64", "V_AND_OR_B32_e64", "V_XOR3_B32_e64"):
        a, b, c = m.r32(o[0]), m.r32(o[1]), m.r32(o[2])
        r = {"V_ADD3_U32_e64": a + b + c, "V_OR3_B32_e64": a | b | c, "V_XOR3_B32_e64": a ^ b ^ c,
             "V_LSHL_ADD_U32_e64": ((a << (b & 31)) & M32) + c,
             "V_ADD_LSHL_U32_e64": ((a + b) & M32) << (c & 31),
             "V_LSHL_OR_B32_e64": ((a << (b & 31)) & M32) | c, "V_AND_OR_B32_e64": (a & b) | c}[op]
        m.write(d[0], [r & M32])
        return True
    return False


def step_valu_carry(m: Machine, ins: Inst) -> bool:
    """Vector add/sub with a carry or borrow in VCC or a lane-mask register."""
    op, o, d = ins.opcode, ins.ops, ins.defs
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
        return True
    if op in ("V_ADD_CO_U32_e32", "V_SUB_CO_U32_e32", "V_ADD_I32_e32", "V_SUB_I32_e32"):
        a, b = m.r32(o[0]), m.r32(o[1])
        if "ADD" in op:
            r, c = a + b, int(a + b > M32)
        else:
            r, c = a - b, int(b > a)
        m.write(d[0], [r & M32])
        m.vcc_write(c)
        return True
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
        return True
    if op in ("V_ADDC_U32_e32", "V_ADDC_CO_U32_e32"):
        a, b = m.r32(o[0]), m.r32(o[1])
        cin = m.vcc_read()
        m.write(d[0], [(a + b + cin) & M32])
        m.vcc_write(int(a + b + cin > M32))
        return True
    return False


def step_valu_cmp(m: Machine, ins: Inst) -> bool:
    """Vector compares and V_CNDMASK: a lane's bit of VCC or a lane mask."""
    op, o, d = ins.opcode, ins.ops, ins.defs
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
        return True
    if op == "V_CNDMASK_B32_e64":
        if o[0].imm != 0 or o[2].imm != 0:
            raise NotInterpreted("V_CNDMASK_B32_e64 with source modifiers")
        m.write(d[0], [m.r32(o[3]) if m.mask_read(o[4]) else m.r32(o[1])])
        return True
    if op == "V_CNDMASK_B32_e32":
        m.write(d[0], [m.r32(o[1]) if m.vcc_read() else m.r32(o[0])])
        return True
    return False


def step_valu_float(m: Machine, ins: Inst) -> bool:
    """V_ADD_F32 (no modifiers)."""
    op, o, d = ins.opcode, ins.ops, ins.defs
    if op == "V_ADD_F32_e64":
        if any(o[i].kind != "imm" or o[i].imm != 0 for i in (0, 2, 4, 5)):
            raise NotInterpreted("V_ADD_F32_e64 with modifiers")
        m.write(d[0], [f32_add(m.r32(o[1]), m.r32(o[3]))])
        return True
    if op == "V_ADD_F32_e32":
        m.write(d[0], [f32_add(m.r32(o[0]), m.r32(o[1]))])
        return True
    return False


# The families `step` tries in turn; each returns True when it interpreted the instruction.
STEP_FAMILIES = (step_control, step_pseudo, step_salu, step_valu, step_valu_carry, step_valu_cmp,
                 step_valu_float)


def step(m: Machine, ins: Inst):
    """One instruction on the machine; NotInterpreted for one the interpreter lacks."""
    for family in STEP_FAMILIES:
        if family(m, ins):
            return
    lay = mem_layout(ins.opcode, m.ctx.target)
    if lay is not None:
        # imported here, not at the top: interp_mem builds on Machine, so a top-level import
        # would be a cycle
        from .interp_mem import step_mem
        return step_mem(m, ins, lay)
    raise NotInterpreted(ins.opcode)
