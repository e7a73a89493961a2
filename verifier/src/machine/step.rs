//! Executing bound instructions over any semantics domain.

use super::op::{Bound, CrossKind, MemIn, MemOp, Op, VsharpPart};
use super::regkey::{RegKey, Src};
use super::state::{bits, eval_imm, read, write, Env, Machine};
use gcnsmt_lifter::lift::wave_size;
use gcnsmt_lifter::table::DsScope;
use gcnsmt_semantics::domain::Domain;
use gcnsmt_semantics::eval::{run, AddrSpace, Frame, MemState, MemView, PerSpace, Val};
use gcnsmt_semantics::ir::Expr;
use gcnsmt_semantics::target::Gen;
use gcnsmt_semantics::ty::{Kind, Ty};
use std::collections::{BTreeMap, BTreeSet};

/// Execute one bound instruction.
///
/// Errors: a semantics entry that fails to evaluate (an internal error in `semantics/`).
pub fn step<D: Domain>(
    d: &mut D,
    env: &Env<D>,
    m: &mut Machine<D>,
    b: &Bound,
) -> Result<(), String> {
    match &b.op {
        Op::Ds { .. } => step_ds(d, env, m, &b.op),
        Op::Buf(op) => super::buffer::step(d, env, m, op),
        Op::Mem(op) => step_mem(d, env, m, op),
        Op::Lane { lane, inner } => step_lane(d, env, m, *lane, inner),
        Op::Cross { .. } => step_cross(d, env, m, &b.op),
        Op::Alu { .. } => step_alu(d, env, m, &b.op),
    }
}

/// Execute an [`Op::Ds`]: bind its registers and offset fields, run its entry, write
/// `RETURN_DATA` back to `vdst` (if it has one).
fn step_ds<D: Domain>(d: &mut D, env: &Env<D>, m: &mut Machine<D>, op: &Op) -> Result<(), String> {
    let Op::Ds {
        mnemonic,
        def,
        entry,
        vdst,
        addr,
        data0,
        data1,
        offset,
        offset0,
        offset1,
        gds,
        shape,
        ..
    } = op
    else {
        unreachable!("step passes only Op::Ds")
    };
    let aliases = def.aliases_for(entry).unwrap_or(&[]);
    let space = match (shape.scope, *gds) {
        (DsScope::WaveGws, _) => AddrSpace::Gws,
        (DsScope::WaveGsReg, _) => AddrSpace::GsReg,
        (_, true) => AddrSpace::Gds,
        (_, false) => AddrSpace::Lds,
    };
    let frame = Frame {
        settings: env.settings,
        mem: MemView::Space(space),
        aliases,
        buffer: None,
    };
    let (o0, o1) = ds_offsets(d, env, m, offset, offset0, offset1)?;
    let off = d.concat(&o1, &o0);
    let mut vars = BTreeMap::new();
    let a = read(d, m, addr);
    vars.insert("ADDR".to_string(), bits(a, d));
    let x = read(d, m, data0);
    vars.insert("DATA0".to_string(), bits(x, d));
    // Values are at most 128 bits wide: an 8-dword DATA1 (the gfx12 BVH8 stack pushes) is
    // DATA1 (dwords 0-3) and DATA1_HI (dwords 4-7).
    let (lo, hi) = data1.split_at(data1.len().min(4));
    let y = read(d, m, lo);
    vars.insert("DATA1".to_string(), bits(y, d));
    if !hi.is_empty() {
        let y = read(d, m, hi);
        vars.insert("DATA1_HI".to_string(), bits(y, d));
    }
    vars.insert("OFFSET".to_string(), Val::Bits(off, Ty::Bits(Kind::U, 16)));
    vars.insert("OFFSET0".to_string(), Val::Bits(o0, Ty::Bits(Kind::U, 8)));
    vars.insert("OFFSET1".to_string(), Val::Bits(o1, Ty::Bits(Kind::U, 8)));
    let m0 = read(d, m, &[RegKey::m0()]);
    vars.insert("M0".to_string(), bits(m0, d));
    vars.insert("LDS_SIZE".to_string(), bits(env.lds_size.clone(), d));
    vars.insert("LANE_ID".to_string(), bits(env.lane_id.clone(), d));
    if shape.scope != DsScope::Lane {
        vars.insert("EXEC".to_string(), bits(wave_exec(d, env, m), d));
    }
    let rd = if vdst.is_empty() {
        d.bv(0, 128)
    } else {
        read(d, m, vdst)
    };
    vars.insert("RETURN_DATA".to_string(), bits(rd, d));
    let (out, mem) = run(d, &frame, &def.body, vars, m.mem.clone())
        .map_err(|e| format!("{entry}: {}", e.msg))?;
    m.mem = mem;
    if !vdst.is_empty() {
        write(d, m, vdst, &out["RETURN_DATA"])?;
    }
    if gcnsmt_lifter::table::writes_addr(mnemonic) {
        write(d, m, addr, &out["ADDR"])?;
    }
    Ok(())
}

/// The wave's EXEC mask, 64 bits: `exec_hi:exec_lo` on wave64 targets, `exec_lo` zero-extended
/// on wave32 ones (their `exec_hi` is no part of the mask).
fn wave_exec<D: Domain>(d: &mut D, env: &Env<D>, m: &Machine<D>) -> D::Bv {
    if wave_size(env.target) == 64 {
        read(d, m, &[RegKey::exec_lo(), RegKey::exec_hi()])
    } else {
        let lo = read(d, m, &[RegKey::exec_lo()]);
        d.zext(&lo, 32)
    }
}

/// A DS instruction's two 8-bit offset bytes `(OFFSET0, OFFSET1)`: the low and high bytes of
/// the 16-bit `offset`, or the `offset0`/`offset1` fields (absent ones are 0).
fn ds_offsets<D: Domain>(
    d: &mut D,
    env: &Env<D>,
    m: &Machine<D>,
    offset: &Option<Expr>,
    offset0: &Option<Expr>,
    offset1: &Option<Expr>,
) -> Result<(D::Bv, D::Bv), String> {
    let field8 = |d: &mut D, e: &Option<Expr>| -> Result<D::Bv, String> {
        match e {
            Some(e) => {
                let v = eval_imm(d, env, m, e)?;
                Ok(d.extract(&v, 7, 0))
            }
            None => Ok(d.bv(0, 8)),
        }
    };
    Ok(match offset {
        Some(e) => {
            let v = eval_imm(d, env, m, e)?;
            (d.extract(&v, 7, 0), d.extract(&v, 15, 8))
        }
        None => (field8(d, offset0)?, field8(d, offset1)?),
    })
}

/// Execute an [`Op::Lane`]: `inner` as lane `lane`, kept only where that lane's EXEC bit is set.
fn step_lane<D: Domain>(
    d: &mut D,
    env: &Env<D>,
    m: &mut Machine<D>,
    lane: u32,
    inner: &Bound,
) -> Result<(), String> {
    let id = read(d, m, &[RegKey::lane_id(lane)]);
    let on = exec_bit(d, m, &id);
    let before = m.clone();
    let lenv = env.clone_with_lane(id);
    step(d, &lenv, m, inner)?;
    match d.known(&on) {
        Some(true) => {}
        Some(false) => *m = before,
        None => *m = merge(d, &on, m, &before),
    }
    clear_inactive_mask_bits(d, m, inner)
}

/// A VALU lane-mask write (a VOPC compare's D0, a VOP3b carry-out's SDST) writes the whole
/// mask with 0 in every inactive lane's bit: `VCC[n] = EXEC[n] & test` (AMD RDNA2 ISA guide
/// 3.9 "Vector Compares"; LLVM selects `llvm.amdgcn.ballot` of a compare as the lone compare,
/// breaker19 03). Each lane's run sets its own bit; ANDing the mask with EXEC after every run
/// clears the others' bits. Safe between runs: a later lane reads only its own bit of a mask
/// source, and that bit survives because the lane is active (an inactive lane's run is
/// discarded). A mask written to EXEC itself is unchanged by the AND.
fn clear_inactive_mask_bits<D: Domain>(
    d: &mut D,
    m: &mut Machine<D>,
    inner: &Bound,
) -> Result<(), String> {
    let Op::Alu { alu, d0, sdst, .. } = &inner.op else {
        return Ok(());
    };
    if alu.scalar {
        return Ok(());
    }
    let masks = [(alu.dmask, d0), (alu.sdst, sdst)];
    for (_, keys) in masks
        .iter()
        .filter(|(is_mask, k)| *is_mask && !k.is_empty())
    {
        let v = read(d, m, keys);
        let exec = read(d, m, &[RegKey::exec_lo(), RegKey::exec_hi()]);
        let w = d.width(&v);
        let e = d.extract(&exec, w - 1, 0);
        let masked = d.op(gcnsmt_semantics::domain::BvOp::And, &v, &e);
        write(d, m, keys, &bits(masked, d))?;
    }
    Ok(())
}

/// Execute an [`Op::Cross`] once for the whole wave. Errors: a rule not expanded by `--lanes`.
fn step_cross<D: Domain>(
    d: &mut D,
    env: &Env<D>,
    m: &mut Machine<D>,
    op: &Op,
) -> Result<(), String> {
    let Op::Cross {
        mnemonic,
        kind,
        vdst,
        addr,
        data0,
        offset,
        lanes,
        fill,
    } = op
    else {
        unreachable!("step passes only Op::Cross")
    };
    if *lanes == 0 {
        return Err(format!(
            "{mnemonic} is a cross-lane instruction; it runs only with --lanes N"
        ));
    }
    let ids: Vec<D::Bv> = (0..*lanes)
        .map(|l| read(d, m, &[RegKey::lane_id(l)]))
        .collect();
    let active: Vec<D::Bool> = ids.iter().map(|id| exec_bit(d, m, id)).collect();
    let per_lane = |d: &mut D, keys: &[RegKey]| -> Vec<D::Bv> {
        (0..*lanes)
            .map(|l| {
                let ks: Vec<RegKey> = keys.iter().map(|k| k.in_lane(l)).collect();
                read(d, m, &ks)
            })
            .collect()
    };
    let old = per_lane(d, vdst);
    let (a, mut data) = (per_lane(d, addr), per_lane(d, data0));
    // bpermute_fi reads lanes outside the check too: lane `lanes + i` of DATA0 is what present
    // lane i fetches from one (free inputs, crate::lanes::expand declares them); a transpose's
    // missing sources give each lane its fill (declared there too).
    let absent: Vec<D::Bv> = match kind {
        CrossKind::BpermuteFi => (0..*lanes)
            .map(|i| {
                let ks: Vec<RegKey> = data0.iter().map(|k| k.in_lane(lanes + i)).collect();
                read(d, m, &ks)
            })
            .collect(),
        CrossKind::Transpose(_) => per_lane(d, fill),
        _ => Vec::new(),
    };
    // A transpose moves what each lane reads from LDS at its own address.
    if let CrossKind::Transpose(t) = kind {
        data = Vec::with_capacity(a.len());
        for (i, addr) in a.iter().enumerate() {
            let v = super::transpose::lane_read(
                d,
                env,
                m,
                (*t, *offset),
                &ids[i],
                addr.clone(),
                &active[i],
            )?;
            data.push(v);
        }
    }
    let out = super::cross::run_cross(
        d,
        &super::cross::CrossArgs {
            kind: *kind,
            target: env.target,
            ids: &ids,
            active: &active,
            old: &old,
            addr: &a,
            data0: &data,
            absent: &absent,
            offset: *offset,
        },
    );
    for l in 0..*lanes {
        let ks: Vec<RegKey> = vdst.iter().map(|k| k.in_lane(l)).collect();
        let v = bits(out[l as usize].clone(), d);
        write(d, m, &ks, &v)?;
    }
    Ok(())
}

/// Execute an [`Op::Alu`]: sources as `S0`, `S1`, ... (immediates as their low 32 bits), `D0`
/// and `SDST` in and out, and SCC (0 or 1) out where the entry assigns it.
fn step_alu<D: Domain>(d: &mut D, env: &Env<D>, m: &mut Machine<D>, op: &Op) -> Result<(), String> {
    let Op::Alu {
        def,
        alu,
        d0,
        sdst,
        srcs,
        mods,
        ..
    } = op
    else {
        unreachable!("step passes only Op::Alu")
    };
    let frame = Frame::plain(env.settings);
    let mut vars = BTreeMap::new();
    let mut read_srcs = Vec::with_capacity(srcs.len());
    for (i, s) in srcs.iter().enumerate() {
        let v = match s {
            Src::Reg(r) => read(d, m, r),
            Src::Imm(e) => {
                let v = eval_imm(d, env, m, e)?;
                let lo = d.extract(&v, 31, 0);
                // A 64-bit source immediate is an inline constant (the binder checks
                // -16..=64): its 64-bit value is the 32-bit one sign-extended; a packed f32
                // op's (gfx1250 only, the binder checks) is its 32 bits in both lanes
                // (machine/pk_imm.rs).
                if alu.mods == gcnsmt_lifter::lift::AluMods::Packed32 {
                    d.concat(&lo, &lo)
                } else if alu.wide_srcs >> i & 1 == 1 {
                    d.sext(&lo, 32)
                } else {
                    lo
                }
            }
        };
        let v = super::mods::source(d, alu, mods, i, v);
        read_srcs.push(v.clone());
        vars.insert(format!("S{i}"), bits(v, d));
    }
    if alu.mods == gcnsmt_lifter::lift::AluMods::True16 {
        let sel = d.bv(u128::from(mods.op_sel), 4);
        vars.insert("OPSEL".to_string(), bits(sel, d));
    }
    if alu.mods == gcnsmt_lifter::lift::AluMods::PackedMov {
        let sel = d.bv(u128::from(mods.op_sel), 2);
        vars.insert("OPSEL".to_string(), bits(sel, d));
    }
    let old = read(d, m, d0);
    vars.insert("D0".to_string(), bits(old, d));
    if alu.sdst {
        let s = read(d, m, sdst);
        vars.insert("SDST".to_string(), bits(s, d));
    }
    vars.insert("LANE_ID".to_string(), bits(env.lane_id.clone(), d));
    let scc = super::op::writes_scc(alu, def);
    if scc {
        // The old SCC in, as a condition: an entry that assigned it on one path only would
        // keep it on the others.
        let old = read(d, m, &[RegKey::scc()]);
        let zero = d.bv(0, 32);
        let clear = d.cmp(gcnsmt_semantics::domain::CmpOp::Eq, &old, &zero);
        vars.insert("SCC".to_string(), Val::Bool(d.lnot(&clear)));
    }
    let (out, mem) = run(d, &frame, &def.body, vars, m.mem.clone())
        .map_err(|e| format!("{}: {}", alu.entry, e.msg))?;
    m.mem = mem;
    if scc {
        let set = gcnsmt_semantics::eval::truth(d, out["SCC"].clone());
        let (one, zero) = (d.bv(1, 32), d.bv(0, 32));
        let v = d.ite(&set, &one, &zero);
        m.regs.insert(RegKey::scc(), v);
    }
    let d0_out = match &out["D0"] {
        Val::Bits(v, _) if mods.clamp => {
            let r = super::mods::result(d, alu, mods, &read_srcs, v.clone());
            bits(r, d)
        }
        v => v.clone(),
    };
    write(d, m, d0, &d0_out)?;
    if alu.sdst {
        write(d, m, sdst, &out["SDST"])?;
    }
    Ok(())
}

/// Whether EXEC (`exec_hi:exec_lo`, 64 bits; a missing `exec_hi` reads 0) has the bit of lane
/// `id` set.
pub(crate) fn exec_bit<D: Domain>(d: &mut D, m: &Machine<D>, id: &D::Bv) -> D::Bool {
    let exec = read(d, m, &[RegKey::exec_lo(), RegKey::exec_hi()]);
    let sh = d.zext(id, 32);
    let shifted = d.op(gcnsmt_semantics::domain::BvOp::LShr, &exec, &sh);
    let bit = d.extract(&shifted, 0, 0);
    let one = d.bv(1, 1);
    d.cmp(gcnsmt_semantics::domain::CmpOp::Eq, &bit, &one)
}

/// `on ? a : b`, register by register and memory by memory (a register one side lacks reads
/// as the zero [`read`] gives it).
pub(crate) fn merge<D: Domain>(
    d: &mut D,
    on: &D::Bool,
    a: &Machine<D>,
    b: &Machine<D>,
) -> Machine<D> {
    let keys: BTreeSet<&RegKey> = a.regs.keys().chain(b.regs.keys()).collect();
    let mut regs = BTreeMap::new();
    for k in keys {
        let x = a.regs.get(k).cloned().unwrap_or_else(|| d.bv(0, 32));
        let y = b.regs.get(k).cloned().unwrap_or_else(|| d.bv(0, 32));
        regs.insert(k.clone(), d.ite(on, &x, &y));
    }
    let mem = MemState {
        spaces: PerSpace::from_fn(|s| d.ite_mem(on, &a.mem[s], &b.mem[s])),
        ub: d.ite_bool(on, &a.mem.ub, &b.mem.ub),
    };
    Machine { regs, mem }
}

/// Run a sequence of instructions.
pub fn exec<D: Domain>(
    d: &mut D,
    env: &Env<D>,
    m: &mut Machine<D>,
    prog: &[Bound],
) -> Result<(), String> {
    for b in prog {
        step(d, env, m, b)?;
    }
    Ok(())
}

/// Execute a [`MemOp`]: bind its inputs, run its entry, write its outputs.
fn step_mem<D: Domain>(
    d: &mut D,
    env: &Env<D>,
    m: &mut Machine<D>,
    op: &MemOp,
) -> Result<(), String> {
    let frame = Frame {
        settings: env.settings,
        mem: op.mem,
        aliases: op.def.aliases_for(&op.entry).unwrap_or(&[]),
        buffer: None,
    };
    let mut vars = BTreeMap::new();
    for (name, input) in &op.inputs {
        let v = match input {
            MemIn::Regs(k) => bits(read(d, m, k), d),
            MemIn::Zero(w) => Val::Bits(d.bv(0, *w), Ty::Bits(Kind::U, *w)),
            MemIn::Signed(e) => {
                let v = eval_imm(d, env, m, e)?;
                Val::Bits(d.extract(&v, 31, 0), Ty::Bits(Kind::I, 32))
            }
            MemIn::GvsOffset(k, scale) => {
                let v = read(d, m, k);
                let v = d.sext(&v, 32);
                let s = d.bv(u128::from(*scale), 64);
                bits(d.op(gcnsmt_semantics::domain::BvOp::Mul, &v, &s), d)
            }
            MemIn::Vsharp(k, layout, part) => {
                let rsrc = read(d, m, k);
                if *part == VsharpPart::Size && env.target.gen() == Gen::Gfx12 {
                    let ub = super::smem::stride_scale_undefined(d, &rsrc);
                    m.mem.ub = d.or(&m.mem.ub, &ub);
                }
                let size = env.settings.sbuffer_size;
                bits(super::smem::vsharp_input(d, *layout, *part, size, &rsrc), d)
            }
            MemIn::DwordAligned(k) => {
                let v = read(d, m, k);
                let w = d.width(&v);
                let mask = d.bv((u128::MAX >> (128 - w)) & !3, w);
                bits(d.op(gcnsmt_semantics::domain::BvOp::And, &v, &mask), d)
            }
        };
        vars.insert(name.to_string(), v);
    }
    vars.insert("LANE_ID".to_string(), bits(env.lane_id.clone(), d));
    for (name, keys) in &op.outputs {
        // Outputs start as the registers' old values (partial writes keep the rest).
        vars.insert(name.to_string(), bits(read(d, m, keys), d));
    }
    let (out, mem) = run(d, &frame, &op.def.body, vars, m.mem.clone())
        .map_err(|e| format!("{}: {}", op.entry, e.msg))?;
    m.mem = mem;
    for (name, keys) in &op.outputs {
        write(d, m, keys, &out[*name])?;
    }
    Ok(())
}
