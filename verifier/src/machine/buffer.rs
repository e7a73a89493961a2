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
use gcnsmt_semantics::domain::{BvOp, Domain};
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

/// A cache-control op (`buffer_wbinvl1`, `buffer_gl0_inv`, ...; `buffer_cache.pcode`): its
/// entry through the generic memory frame with no operands, so it changes nothing a single
/// thread sees. `None` for another operand-less MUBUF mnemonic (no entry).
fn cache_control(line: &crate::rules::Line, mn: &str, mloc: crate::rules::Loc) -> Option<Bound> {
    let entry = mn.to_ascii_uppercase();
    let def = gcnsmt_semantics::defs::Library::builtin().get(&entry)?;
    Some(Bound {
        op: Op::Mem(Box::new(super::op::MemOp {
            mnemonic: mn.to_string(),
            def,
            entry,
            inputs: Vec::new(),
            outputs: Vec::new(),
            mem: gcnsmt_semantics::eval::MemView::Space(gcnsmt_semantics::eval::AddrSpace::Global),
            writes_memory: false,
            scalar: true,
        })),
        loc: mloc,
        text: line.text.trim().to_string(),
        fields: Vec::new(),
        var_uses: Vec::new(),
    })
}

/// The semantics entry of a decoded MUBUF/VBUFFER instruction and its name, as `verify`
/// runs it and `lift` prints it (one decision for both).
///
/// Errors: a sentence saying what is not modelled (an operation without an entry).
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
    // gfx8.0 keeps each d16 component in its own VGPR (LLVM's UnpackedD16VMem): the
    // `_UNPACKED` entries (buffer_format.pcode); the others give gfx9+'s packed layout.
    let entry = if target == Target::Gfx802 && mn.contains("d16") && shape.vdata > 1 {
        format!("{}_UNPACKED", mn.to_ascii_uppercase())
    } else {
        mn.to_ascii_uppercase()
    };
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
    let (rule, line, target, mn) = (cx.rule, cx.line, cx.target, cx.mn);
    // The lifter's assembler checks the line as llvm-mc does; variables are holes in it.
    let mut holes = super::holes::RuleHoles::new(cx);
    let inst: MubufInst = parse_mubuf_with(target, &line.text, &mut holes)
        .map_err(|e| rule.error(loc_at(line, e.col), e.msg))?;
    let shape = inst.shape;
    let (def, entry) = buffer_semantics(target, &inst).map_err(|why| rule.error(mloc, why))?;
    if shape.class == MubufClass::Cache {
        // No operands: bound through the generic memory frame (see `cache_control`).
        return cache_control(line, mn, mloc)
            .ok_or_else(|| rule.error(mloc, format!("{mn}: no semantics entry {entry}")));
    }
    let vdata = if inst.lds {
        Vec::new()
    } else {
        holes.keys(Role::Vdata, inst.vdata)
    };
    let vaddr = holes.keys(Role::Vaddr, inst.vaddr);
    // Operands before SRSRC: vdata and vaddr, vaddr only for `lds` loads, none for
    // buffer_store_lds_dword.
    let skip = if shape.lds_only {
        0
    } else if inst.lds {
        1
    } else {
        2
    };
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
            let (_, c) = &syn.operands[skip];
            return Err(rule.error(
                loc_at(line, *c),
                format!("{mn}: a V# in trap-handler registers is not modelled in rules"),
            ));
        }
    };
    let (st, sc) = &syn.operands[skip + 1];
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
    let vd = if !op.vdata.is_empty() {
        read(d, m, &op.vdata)
    } else if op.lds && op.class == MubufClass::Store {
        // buffer_store_lds_dword: the dword comes from LDS (CLRX GcnInstrsMubuf.md:
        // `VAL = *(UINT32*)(LDS + (M0&0xffff) + OFFSET + LANEID*4)`).
        let a = lds_dma_addr(d, env, m, &off, 4);
        let lds = &m.mem[AddrSpace::Lds];
        let mut v: Option<D::Bv> = None;
        for k in 0..4u32 {
            let kk = d.bv(k as u128, 32);
            let ak = d.op(BvOp::Add, &a, &kk);
            let byte = d.load(lds, &ak);
            v = Some(match v {
                None => byte,
                Some(lo) => d.concat(&byte, &lo),
            });
        }
        v.expect("four bytes")
    } else {
        let w = op.def.output_width("VDATA").unwrap_or(32).max(32);
        d.bv(0, w)
    };
    vars.insert("VDATA".to_string(), bits(vd.clone(), d));
    vars.insert("DATA".to_string(), bits(vd.clone(), d));
    vars.insert("RETURN_DATA".to_string(), bits(vd, d));
    let (out, mem) = run(d, &frame, &op.def.body, vars, m.mem.clone())
        .map_err(|e| format!("{}: {}", op.entry, e.msg))?;
    m.mem = mem;
    match op.class {
        MubufClass::Load if op.lds => {
            let Val::Bits(v, _) = &out["VDATA"] else {
                return Err("VDATA is a boolean".into());
            };
            lds_dma_write(d, env, m, op, &off, v);
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

/// The LDS address of lane LANE_ID's part of an LDS DMA access of `size` bytes per lane:
/// M0[15:0] (or M0[17:0], setting `lds_dma_m0`) + the instruction offset (unless
/// `lds_dma_offset=GLOBAL`) + LANE_ID * 4, or * 16 for 12- and 16-byte accesses (LLVM
/// AMDGPUDMAOperations, "GFX9 LDS DMA": "implicitly offset by 4 * lane_id bytes for sizes up
/// to 4 bytes, and by 16 * lane_id bytes for larger sizes").
///
/// Byte exact under every `alignment`, DWORD included (gfx6-gfx8), although DS accesses are
/// rounded there: no source rounds the DMA's LDS address (CLRX `GcnMemHandling.md`
/// `LDS_ADDR = LDS_BASE + (M0&0xffff) + LANEID*4` and `GcnInstrsMubuf.md` BUFFER_STORE_LDS_DWORD
/// have no `&~3`, which CLRX writes for every DS op; LLVM's DMA description and tinygrad's
/// emulator neither), and the alignment mode is the rule for instruction-computed addresses.
fn lds_dma_addr<D: Domain>(
    d: &mut D,
    env: &Env<D>,
    m: &Machine<D>,
    off: &D::Bv,
    size: u32,
) -> D::Bv {
    use gcnsmt_semantics::settings::{LdsDmaM0, LdsDmaOffset};
    let m0 = read(d, m, &[RegKey::m0()]);
    let hi = match env.settings.lds_dma_m0 {
        LdsDmaM0::Bits16 => 15,
        LdsDmaM0::Bits18 => 17,
    };
    let lo = d.extract(&m0, hi, 0);
    let mut a = d.zext(&lo, 31 - hi);
    if env.settings.lds_dma_offset == LdsDmaOffset::Both {
        a = d.op(BvOp::Add, &a, off);
    }
    let stride = d.bv(if size > 4 { 16 } else { 4 }, 32);
    let lane = d.op(BvOp::Mul, &env.lane_id, &stride);
    d.op(BvOp::Add, &a, &lane)
}

/// LDS DMA: the loaded value `v` (0 for an out-of-range lane, rocjitsu PR #10928) goes to LDS
/// instead of VGPRs, unbounded. Sub-dword loads write a dword, zero-extended (CLRX
/// GcnMemHandling.md: "If element size is smaller than 4-byte, then stored 4-byte value will
/// be zero-extended"); dwordx3/x4 (gfx950) write 12/16 bytes.
fn lds_dma_write<D: Domain>(
    d: &mut D,
    env: &Env<D>,
    m: &mut Machine<D>,
    op: &BufOp,
    off: &D::Bv,
    v: &D::Bv,
) {
    let mn = &op.mnemonic;
    let data_bits = if mn.contains("byte") {
        8
    } else if mn.contains("short") {
        16
    } else {
        d.width(v)
    };
    let low = d.extract(v, data_bits - 1, 0);
    let bytes = data_bits.max(32) / 8;
    let val = if data_bits < 32 {
        d.zext(&low, 32 - data_bits)
    } else {
        low
    };
    let a = lds_dma_addr(d, env, m, off, bytes);
    let mut lds = m.mem[AddrSpace::Lds].clone();
    for k in 0..bytes {
        let kk = d.bv(k as u128, 32);
        let ak = d.op(BvOp::Add, &a, &kk);
        let byte = d.extract(&val, 8 * k + 7, 8 * k);
        lds = d.store(&lds, &ak, &byte);
    }
    m.mem[AddrSpace::Lds] = lds;
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
