"""The mutation operators: each takes a block's instruction lines and returns (description, new
lines) for every mutant it can make; `mutants_for_block` samples them round-robin across
operators."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .interp import TERMINATORS
from .interp_mem import JudgeResult
from .mir import (OPERAND_FLAGS, Function, Operand, class_bank, class_dwords, parse_inst,
                  phys_bank, phys_dwords, sub_dwords, sub_name)
from .targets import mem_domain, mem_layout

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
