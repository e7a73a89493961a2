"""The MIR text model and registers: just enough of LLVM's MIR syntax to find a function's
blocks, their instructions and operands (with their spans in the line, so the mutation operators
can edit the text in place), the virtual-register classes, and physical registers by dword."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

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
