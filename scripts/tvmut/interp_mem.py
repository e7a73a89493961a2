"""The interpreter's memory instructions (LDS, buffer, global/flat, scalar loads), then running
both sides of a block pair on many inputs: what is observed, how two runs are compared, and the
verdict (`judge`); tv's counterexamples become extra inputs here."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .interp import M32, M64, Ctx, Discard, Env, Machine, NotInterpreted, step
from .mir import Function, Inst, parse_inst, phys_dwords, sub_dwords
from .targets import MemLayout, wave_size

# ----------------------------------------------------------------------------------------------
# Memory instructions
# ----------------------------------------------------------------------------------------------

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


# ----------------------------------------------------------------------------------------------
# Running both sides and judging
# ----------------------------------------------------------------------------------------------

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
