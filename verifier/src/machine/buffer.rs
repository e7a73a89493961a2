//! MUBUF/VBUFFER instructions in rules: binding a line and executing it.
//!
//! The line is validated by the lifter's own MUBUF parser ([`gcnsmt_lifter::parse_mubuf`]), on a
//! stand-in text where rule variables are replaced by registers of the width the operand
//! needs, so the rules accept exactly the syntax, modifiers and offsets llvm-mc accepts for
//! the target. Semantics come from `semantics/pcode/buffer_*.pcode`; the address and range
//! check from `gcnsmt_semantics::buffer`.

use super::op::{Bound, BufOp, Field, Op};
use super::operands::{loc_at, LineCx};
use super::regkey::{Class, RegKey, Src};
use super::state::{bits, eval_imm, read, write, Env, Machine};
use crate::rules::{InputError, Loc};
use gcnsmt_lifter::mubuf_table::{MubufClass, MubufLayout};
use gcnsmt_lifter::Role;
use gcnsmt_lifter::{parse_mubuf_with, AsmSyntax, MubufInst};
use gcnsmt_semantics::buffer::{BufferMode, VsharpLayout};
use gcnsmt_semantics::domain::Domain;
use gcnsmt_semantics::eval::{run, AddrSpace, Frame, MemView, Val};
use gcnsmt_semantics::ir::Expr;
use gcnsmt_semantics::target::Target;
use gcnsmt_semantics::ty::{Kind, Ty};
use std::collections::BTreeMap;

/// Whether an instruction line (or mnemonic) is a MUBUF/VBUFFER one (`buffer_*`, `tbuffer_*`).
pub fn is_buffer_line(text: &str) -> bool {
    let m = text.trim_start().to_ascii_lowercase();
    m.starts_with("buffer_") || m.starts_with("tbuffer_")
}

/// The semantics entry of a decoded MUBUF/VBUFFER instruction and its name, as `verify`
/// runs it and `lift` prints it (one decision for both).
///
/// Errors: a sentence saying what is not modelled (cache control, the d16 format forms'
/// unpacked register layout of gfx802, `lds` forms other than `buffer_load_dword`).
pub fn buffer_semantics(
    target: Target,
    inst: &MubufInst,
) -> Result<(&'static gcnsmt_semantics::ir::Def, String), String> {
    let mn = inst.mnemonic.to_ascii_lowercase();
    let shape = inst.shape;
    let unsupported = |what: &str| {
        Err(format!(
            "{mn}: unsupported: {what} is not modelled, so gcnsmt gives no verdict on it"
        ))
    };
    if shape.class == MubufClass::Cache {
        return unsupported("cache control (the memory model has one agent and no caches)");
    }
    // gfx8.0 keeps each d16 component in its own VGPR (LLVM's UnpackedD16VMem); the
    // pseudocode entries give the packed layout of gfx9+.
    if target == Target::Gfx802 && mn.contains("d16") && shape.vdata > 1 {
        return unsupported("the unpacked d16 register layout of gfx8.0");
    }
    if inst.lds && (shape.vdata != 1 || !mn.ends_with("dword")) {
        return unsupported("the `lds` form (LDS DMA) of a load other than buffer_load_dword");
    }
    let entry = mn.to_ascii_uppercase();
    match gcnsmt_semantics::defs::Library::builtin().get(&entry) {
        Some(def) => Ok((def, entry)),
        None => unsupported("this operation"),
    }
}

/// Bind one MUBUF/VBUFFER line.
///
/// Errors (file:line:col): anything llvm-mc's syntax rejects for the target (through the
/// lifter's parser), register classes and widths, and instructions gcnsmt does not model
/// ([`buffer_semantics`]).
pub(crate) fn bind_buf(cx: LineCx, syn: &AsmSyntax, mloc: Loc) -> Result<Bound, InputError> {
    let LineCx {
        rule,
        line,
        target,
        mn,
        ..
    } = cx;
    // The lifter's assembler checks the line as llvm-mc does; variables are holes in it.
    let mut holes = super::holes::RuleHoles::new(cx);
    let inst: MubufInst = parse_mubuf_with(target, &line.text, &mut holes)
        .map_err(|e| rule.error(loc_at(line, e.col), e.msg))?;
    let shape = inst.shape;
    let (def, entry) = buffer_semantics(target, &inst).map_err(|why| rule.error(mloc, why))?;
    let vdata = if inst.lds {
        Vec::new()
    } else {
        holes.keys(Role::Vdata, inst.vdata)
    };
    let vaddr = holes.keys(Role::Vaddr, inst.vaddr);
    let srsrc = match holes.keys(Role::Srsrc, None) {
        k if !k.is_empty() => k,
        _ if inst.srsrc < 104 => (0..4)
            .map(|i| RegKey {
                base: "s".into(),
                idx: u32::from(inst.srsrc) + i,
                lane: None,
            })
            .collect(),
        _ => {
            let (_, c) = &syn.operands[2 - usize::from(inst.lds)];
            return Err(rule.error(
                loc_at(line, *c),
                format!("{mn}: a V# in trap-handler registers is not modelled in rules"),
            ));
        }
    };
    let (st, sc) = &syn.operands[3 - usize::from(inst.lds)];
    let stt = st.trim();
    let hole = holes.keys(Role::Soffset, None);
    let mut var_uses = std::mem::take(&mut holes.uses);
    let soffset = if !hole.is_empty() {
        Src::Reg(hole)
    } else if stt == "null" || stt == "off" {
        Src::Imm(Expr::Lit {
            value: 0,
            suffix: gcnsmt_semantics::ir::LitSuffix::None,
            hex: false,
        })
    } else if stt.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
        Src::Imm(cx.imm_expr(stt, *sc)?)
    } else {
        // A concrete scalar the assembler accepted (`s5`, `m0`, `vcc_lo`).
        Src::Reg(cx.regs(stt, *sc, 1, "soffset", Class::Sgpr, &mut var_uses)?)
    };
    let mut fields: Vec<Field> = Vec::new();
    let mut offset = None;
    for (name, v, col) in &syn.modifiers {
        if name == "offset" {
            if let Some(v) = v {
                let max = if MubufLayout::of(target) == MubufLayout::Vbuffer {
                    0x7f_ffff
                } else {
                    4095
                };
                let f = cx.field("offset", v, col + 7, max)?;
                offset = Some(f.expr.clone());
                fields.push(f);
            }
        }
    }
    let returns = shape.class == MubufClass::Atomic && inst.returns();
    // What an atomic returns is what its semantics writes to RETURN_DATA (half of VDATA for
    // cmpswap, whose VDATA also holds the compare value).
    let return_dwords = def
        .output_width("RETURN_DATA")
        .map_or(shape.vdata as u32, |w| w.div_ceil(32));
    Ok(Bound {
        op: Op::Buf(Box::new(BufOp {
            mnemonic: mn.to_string(),
            def,
            entry,
            class: shape.class,
            mode: BufferMode {
                target,
                offen: inst.offen,
                idxen: inst.idxen,
                addr64: inst.addr64,
            },
            returns,
            return_dwords,
            vdata,
            vaddr,
            srsrc,
            soffset,
            offset,
            lds: inst.lds,
            format: shape.typed.then_some(inst.format),
        })),
        loc: mloc,
        text: line.text.trim().to_string(),
        fields,
        var_uses,
    })
}

/// Execute one buffer instruction.
///
/// Errors: a semantics entry that fails to evaluate (an internal error).
pub fn step<D: Domain>(
    d: &mut D,
    env: &Env<D>,
    m: &mut Machine<D>,
    op: &BufOp,
) -> Result<(), String> {
    let aliases = op.def.aliases_for(&op.entry).unwrap_or(&[]);
    let frame = Frame {
        settings: env.settings,
        mem: MemView::Space(AddrSpace::Global),
        aliases,
        buffer: Some(op.mode),
    };
    let mut vars = BTreeMap::new();
    let vaddr = if op.vaddr.is_empty() {
        d.bv(0, 32)
    } else {
        read(d, m, &op.vaddr)
    };
    vars.insert("VADDR".to_string(), bits(vaddr, d));
    let rsrc = read(d, m, &op.srsrc);
    vars.insert("SRSRC".to_string(), bits(rsrc, d));
    let soff = match &op.soffset {
        Src::Reg(r) => read(d, m, r),
        Src::Imm(e) => {
            let v = eval_imm(d, env, m, e)?;
            d.extract(&v, 31, 0)
        }
    };
    vars.insert("SOFFSET".to_string(), bits(soff, d));
    let off = match &op.offset {
        Some(e) => {
            let v = eval_imm(d, env, m, e)?;
            d.extract(&v, 31, 0)
        }
        None => d.bv(0, 32),
    };
    vars.insert(
        "OFFSET".to_string(),
        Val::Bits(off.clone(), Ty::Bits(Kind::U, 32)),
    );
    vars.insert("LANE_ID".to_string(), bits(env.lane_id.clone(), d));
    if let Some(f) = op.format {
        let v = d.bv(u128::from(f), 7);
        vars.insert("FORMAT".to_string(), Val::Bits(v, Ty::Bits(Kind::B, 7)));
    }
    let vd = if op.vdata.is_empty() {
        d.bv(0, 32)
    } else {
        read(d, m, &op.vdata)
    };
    vars.insert("VDATA".to_string(), bits(vd.clone(), d));
    vars.insert("DATA".to_string(), bits(vd.clone(), d));
    vars.insert("RETURN_DATA".to_string(), bits(vd, d));
    let (out, mem) = run(d, &frame, &op.def.body, vars, m.mem.clone())
        .map_err(|e| format!("{}: {}", op.entry, e.msg))?;
    m.mem = mem;
    match op.class {
        MubufClass::Load if op.lds => {
            // LDS DMA (CLRX GcnMemHandling.md: LDS_ADDR = LDS_BASE + (M0 & 0xffff) + LANEID*4;
            // the instruction offset applies to both addresses; an out-of-range lane writes 0,
            // rocjitsu PR #10928). The dword is VDATA as the load computed it (0 out of range).
            let Val::Bits(v, _) = &out["VDATA"] else {
                return Err("VDATA is a boolean".into());
            };
            let m0 = read(d, m, &[RegKey::m0()]);
            let lo = d.extract(&m0, 15, 0);
            let base = d.zext(&lo, 16);
            let four = d.bv(4, 32);
            let lane4 = d.op(gcnsmt_semantics::domain::BvOp::Mul, &env.lane_id, &four);
            let mut a = d.op(gcnsmt_semantics::domain::BvOp::Add, &base, &off);
            a = d.op(gcnsmt_semantics::domain::BvOp::Add, &a, &lane4);
            let mut lds = m.mem[AddrSpace::Lds].clone();
            for k in 0..4u32 {
                let kk = d.bv(k as u128, 32);
                let ak = d.op(gcnsmt_semantics::domain::BvOp::Add, &a, &kk);
                let byte = d.extract(v, 8 * k + 7, 8 * k);
                lds = d.store(&lds, &ak, &byte);
            }
            m.mem[AddrSpace::Lds] = lds;
        }
        MubufClass::Load => write(d, m, &op.vdata, &out["VDATA"])?,
        MubufClass::Atomic if op.returns => {
            let keys = &op.vdata[..op.return_dwords as usize];
            let Val::Bits(v, t) = &out["RETURN_DATA"] else {
                return Err("RETURN_DATA is a boolean".into());
            };
            let w = 32 * keys.len() as u32;
            let v = if d.width(v) > w {
                d.extract(v, w - 1, 0)
            } else {
                v.clone()
            };
            write(d, m, keys, &Val::Bits(v, *t))?;
        }
        _ => {}
    }
    Ok(())
}

/// The V#s that buffer instructions of `prog` read, decoded from concrete register values:
/// one entry per distinct SRSRC tuple, named like `%rsrc` or `s[8:11]`.
pub fn vsharps<'a>(
    prog: impl Iterator<Item = &'a Bound>,
    regs: &BTreeMap<RegKey, gcnsmt_semantics::interp::Bits>,
    target: Target,
) -> Vec<(String, Vec<(&'static str, u128)>)> {
    let mut seen: Vec<Vec<RegKey>> = Vec::new();
    let mut out = Vec::new();
    for b in prog {
        let Op::Buf(op) = &b.op else { continue };
        if seen.contains(&op.srsrc) {
            continue;
        }
        seen.push(op.srsrc.clone());
        let mut v: u128 = 0;
        for (i, k) in op.srsrc.iter().enumerate() {
            v |= (regs.get(k).map_or(0, |b| b.value) & 0xffff_ffff) << (32 * i);
        }
        let k0 = &op.srsrc[0];
        let name = if k0.is_var() {
            k0.base.clone()
        } else {
            format!("{}[{}:{}]", k0.base, k0.idx, k0.idx + 3)
        };
        out.push((
            format!("{name} = 0x{v:032x}"),
            VsharpLayout::of(target).decode(v),
        ));
    }
    out
}
