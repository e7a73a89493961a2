"""Targets and memory-instruction layouts: the generation of a target, its wave size, and where
a memory instruction keeps its address, data, offset fields and cache policy (read by both the
interpreter and the mutation operators)."""

from __future__ import annotations

import re
from dataclasses import dataclass

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
