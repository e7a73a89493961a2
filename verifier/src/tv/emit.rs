//! One MIR instruction -> rule assembly lines for a target: register operands split into
//! 32-bit rule variables (`%r38_1`) or concrete registers, immediates as llvm-mc writes them,
//! copies as one move per dword. Errors are the reason the instruction is not modelled.

use super::mir::{Block, Inst, OpKind, Operand};
use super::opcodes::{self, MirOp};
use gcnsmt_lifter::table::DsShape;
use gcnsmt_lifter::table::OffsetKind;
use gcnsmt_lifter::GlobalOp;
use gcnsmt_semantics::target::Target;
use std::collections::{BTreeMap, BTreeSet};

/// Renamed physical registers (see [`Side::rename`]) are rule variables with this prefix; the
/// lowering declares every such variable `Dead:`.
pub const PHYS_PREFIX: &str = "phys_";

/// The rule variable a renamed 32-bit cell (`s0`, `vcc_lo`) becomes.
pub fn renamed_cell(cell: &str) -> String {
    format!("%{PHYS_PREFIX}{cell}")
}

/// What one side of the pair needs from the function.
#[derive(Clone)]
pub struct Side<'a> {
    /// The MIR file's path, for messages.
    pub file: &'a str,
    /// The block to translate.
    pub block: &'a Block,
    /// Its function's virtual-register classes (`%N` -> `vgpr_32`, `sreg_64`, ...), which give
    /// each register's bank and width in dwords.
    pub classes: &'a BTreeMap<u32, String>,
    /// The 32-bit cells of physical registers (`s0`, `vcc_lo`, `v3`) the blocks write but do
    /// not leave live: each becomes the rule variable `%phys_CELL` (declared dead) wherever any
    /// name covering it is used (`$sgpr0`, `$sgpr0_sgpr1`, `$vcc`), so a pass may add or drop
    /// such a write (a `vcc` carry) while overlapping names still share one register file.
    pub rename: BTreeSet<String>,
    /// The function's MODE (`machineFunctionInfo: mode:`), which the float ops read.
    pub mode: super::fpmode::FpMode,
    /// Its function's frame and frame-index inputs (`frame.rs`).
    pub frame: &'a super::frame::Frame,
    /// A VGPR-to-SGPR `COPY` means each lane's value (`vgpr_to_sgpr_copy=PER_LANE`, `v2s.rs`),
    /// not the first active lane's.
    pub per_lane: bool,
}

/// Number of 32-bit registers of a register class (`vgpr_32` 1, `vreg_64` 2, `sgpr_128` 4,
/// `sreg_64_xexec` 2), or `None` for classes the lowering does not split (`vreg_1`, 16-bit).
pub fn class_dwords(cls: &str) -> Option<u32> {
    let bits: u32 = cls.split('_').skip(1).find_map(|p| p.parse().ok())?;
    (bits >= 32 && bits.is_multiple_of(32)).then_some(bits / 32)
}

/// The start of a lowering error that is the input's fault, not a gap in the model: an
/// instruction with other operands than its LLVM definition has, or a field value its
/// encoding cannot hold (no llc output has either). `tv` reports it as an input error
/// (`error`, exit 2) at the instruction rather than `unsupported`.
pub const MALFORMED: &str = "malformed instruction: ";

/// The register file a class lives in: `v` (VGPR, or `av_*`: VGPR or AGPR, which hold the
/// same values; the allocator picks), `s` (SGPR) or `a` (AGPR only).
pub fn class_bank(cls: &str) -> char {
    if cls.starts_with("sgpr") || cls.starts_with("sreg") || cls.starts_with("ccr_sgpr") {
        's'
    } else if cls.starts_with("agpr") || cls.starts_with("areg") {
        'a'
    } else {
        'v'
    }
}

/// The 32-bit pieces of a register operand: rule variable names or concrete registers.
pub(super) fn dwords(side: &Side, o: &Operand, target: Target) -> Result<Vec<String>, String> {
    match &o.kind {
        OpKind::VReg { id, sub } => {
            let cls = side
                .classes
                .get(id)
                .ok_or_else(|| format!("%{id} has no register class"))?;
            let n = class_dwords(cls)
                .ok_or_else(|| format!("%{id} has class {cls}, which is not split into dwords"))?;
            let idx: Vec<u32> = match sub {
                None => (0..n).collect(),
                Some(s) => {
                    sub_indices(s).ok_or_else(|| format!("sub-register {s} not modelled"))?
                }
            };
            if idx.iter().any(|k| *k >= n) {
                return Err(format!(
                    "%{id}.{} is outside class {cls}",
                    sub.as_deref().unwrap_or("")
                ));
            }
            Ok(idx.iter().map(|k| format!("%r{id}_{k}")).collect())
        }
        OpKind::Phys(p) => Ok(phys(p, target)?
            .into_iter()
            .map(|c| {
                if side.rename.contains(&c) {
                    renamed_cell(&c)
                } else {
                    c
                }
            })
            .collect()),
        other => Err(format!("expected a register, found {other:?}")),
    }
}

/// The 32-bit pieces of a register operand as the rule names them (renamed cells included).
pub(super) fn operand_cells(
    side: &Side,
    o: &Operand,
    target: Target,
) -> Result<Vec<String>, String> {
    match super::half16::cells(side, o, target) {
        Some(c) => Ok(c),
        None => dwords(side, o, target),
    }
}

/// `sub0` -> [0]; `sub2_sub3` -> [2, 3].
fn sub_indices(s: &str) -> Option<Vec<u32>> {
    s.split('_')
        .map(|p| p.strip_prefix("sub").and_then(|d| d.parse().ok()))
        .collect()
}

/// The 32-bit cells a physical register names, one register file for every spelling:
/// `vgpr0` -> [v0]; `sgpr4_sgpr5` -> [s4, s5]; `exec` -> [exec_lo, exec_hi] on wave64 (one cell
/// on wave32); `vcc_lo` -> [vcc_lo].
pub fn phys(p: &str, target: Target) -> Result<Vec<String>, String> {
    let wave64 = gcnsmt_lifter::lift::wave_size(target) == 64;
    let pair = |lo: &str, hi: &str| {
        if wave64 {
            vec![lo.to_string(), hi.to_string()]
        } else {
            vec![lo.to_string()]
        }
    };
    match p {
        "m0" => return Ok(vec!["m0".into()]),
        "exec" => return Ok(pair("exec_lo", "exec_hi")),
        "vcc" => return Ok(pair("vcc_lo", "vcc_hi")),
        "exec_lo" | "vcc_lo" | "exec_hi" | "vcc_hi" => return Ok(vec![p.to_string()]),
        "sgpr_null" => return Ok(vec!["null".into()]),
        _ => {}
    }
    if let Some(c) = super::ttmp::cell(p) {
        return Ok(vec![c]);
    }
    p.split('_')
        .map(|part| {
            for (pre, short) in [("vgpr", "v"), ("sgpr", "s"), ("agpr", "a")] {
                if let Some(d) = part.strip_prefix(pre) {
                    if !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()) {
                        return Ok(format!("{short}{d}"));
                    }
                }
            }
            Err(format!("physical register ${p} is not modelled"))
        })
        .collect()
}

/// A register list as an operand: one name, a concrete range `v[2:3]`, or `{%a, %b}`.
pub(super) fn tuple(parts: &[String]) -> String {
    if parts.len() == 1 {
        return parts[0].clone();
    }
    let concrete = parts.iter().all(|p| !p.starts_with('%'));
    if concrete {
        let bank = &parts[0][..1];
        let nums: Option<Vec<u32>> = parts
            .iter()
            .map(|p| p.strip_prefix(bank).and_then(|d| d.parse().ok()))
            .collect();
        if let Some(n) = nums {
            if n.windows(2).all(|w| w[1] == w[0] + 1) {
                return format!("{bank}[{}:{}]", n[0], n[n.len() - 1]);
            }
        }
    }
    format!("{{{}}}", parts.join(", "))
}

pub(super) fn imm_text(v: i64) -> String {
    if (-16..=64).contains(&v) {
        v.to_string()
    } else {
        format!("0x{:x}", v as u32)
    }
}

/// A source operand: an immediate or one dword. An immediate that 32 bits cannot hold (below
/// -2^31 or from 2^32 on, as signed or unsigned) is a malformed file: llc-22 accepts it with
/// `-verify-machineinstrs` and then silently encodes its low 32 bits (`S_MOV_B32 99999999999`
/// is emitted as `s_mov_b32 s0, 0x4876e7ff`), so the file does not mean what it says.
pub(super) fn src(side: &Side, o: &Operand, target: Target) -> Result<String, String> {
    match &o.kind {
        OpKind::Imm(v) if i32::try_from(*v).is_err() && u32::try_from(*v).is_err() => Err(format!(
            "{MALFORMED}the 32-bit operand cannot hold the immediate {v}"
        )),
        OpKind::Imm(v) => Ok(imm_text(*v)),
        _ => {
            let d = dwords(side, o, target)?;
            if d.len() != 1 {
                return Err("a 32-bit source has more than one register".into());
            }
            Ok(d[0].clone())
        }
    }
}

/// A virtual AGPR holds the same 32 bits per lane as a VGPR, and its copies to and from VGPRs
/// (`v_accvgpr_read_b32`, `v_accvgpr_write_b32`; gfx908's AGPR-to-AGPR copy goes through a
/// VGPR) keep them: the lowering treats it as a VGPR. Physical AGPRs (`$agpr0`) are not
/// modelled.
pub(super) fn is_vgpr_dest(side: &Side, o: &Operand) -> bool {
    match &o.kind {
        OpKind::VReg { id, .. } => side
            .classes
            .get(id)
            .is_some_and(|c| matches!(class_bank(c), 'v' | 'a')),
        OpKind::Phys(p) => p.starts_with("vgpr"),
        _ => false,
    }
}

/// Whether a source operand is a VGPR (or a virtual AGPR, a VGPR here).
fn is_vgpr_src(side: &Side, o: &Operand) -> bool {
    is_vgpr_dest(side, o)
}

fn mov(side: &Side, dst: &Operand, d: &str, s: &str) -> Result<String, String> {
    if is_vgpr_dest(side, dst) {
        Ok(format!("v_mov_b32 {d}, {s}"))
    } else if let OpKind::VReg { id, .. } = dst.kind {
        let cls = side.classes.get(&id).map(String::as_str).unwrap_or("");
        if class_bank(cls) != 's' {
            return Err(format!("a copy into class {cls} is not modelled"));
        }
        Ok(format!("s_mov_b32 {d}, {s}"))
    } else {
        Ok(format!("s_mov_b32 {d}, {s}"))
    }
}

/// Reject an SGPR destination fed from a VGPR (that needs v_readfirstlane) where `whole` is
/// false (a REG_SEQUENCE / INSERT_SUBREG part: not routed through `firstlane.rs`).
fn check_copy_banks(side: &Side, dst: &Operand, src: &Operand, whole: bool) -> Result<(), String> {
    let bank = |o: &Operand| match &o.kind {
        // A virtual AGPR is a VGPR here (see `is_vgpr_dest`).
        OpKind::VReg { id, .. } => side.classes.get(id).map(|c| match class_bank(c) {
            'a' => 'v',
            b => b,
        }),
        OpKind::Phys(p) if p.starts_with("vgpr") => Some('v'),
        OpKind::Phys(p) if p.starts_with("agpr") => Some('a'),
        OpKind::Phys(_) => Some('s'),
        _ => None,
    };
    match (bank(dst), bank(src)) {
        // A VGPR to SGPR copy reaches here only where its source is uniform (`firstlane.rs`
        // reads the first active lane otherwise): then it is the lane's value.
        (Some('s'), Some('v')) if whole => Ok(()),
        (Some('s'), Some('v')) => Err("a VGPR part of an SGPR tuple reads the first lane".into()),
        (Some('a'), _) | (_, Some('a')) => Err("physical AGPR copies are not modelled".into()),
        _ => Ok(()),
    }
}

pub(super) fn lower_inst(side: &Side, i: &Inst, target: Target) -> Result<Vec<String>, String> {
    let uses: Vec<&Operand> = i.uses().collect();
    let def = |k: usize| {
        i.defs
            .get(k)
            .ok_or_else(|| "missing definition".to_string())
    };
    if super::half16::handles(side, i) {
        return super::half16::lower(side, i, target);
    }
    if super::fp8cvt::handles(&i.opcode) {
        return super::fp8cvt::lower(side, i, target);
    }
    match i.opcode.as_str() {
        // The whole-wave / whole-quad markers give an active lane its own value (`exec.rs`).
        "COPY" | "EXTRACT_SUBREG" | "STRICT_WWM" | "WWM" | "STRICT_WQM" | "WQM" | "SOFT_WQM" => {
            let d = def(0)?;
            explicit_count(&uses, 1 + usize::from(i.opcode == "EXTRACT_SUBREG"))?;
            let s = uses.first().ok_or("missing source")?;
            check_copy_banks(side, d, s, true)?;
            let mut sd = dwords(side, s, target)?;
            if i.opcode == "EXTRACT_SUBREG" {
                let Some(OpKind::SubIdx(sub)) = uses.get(1).map(|o| &o.kind) else {
                    return Err("missing sub-register index".into());
                };
                let idx = sub_indices(sub).ok_or("sub-register not modelled")?;
                sd = idx
                    .iter()
                    .map(|k| sd.get(*k as usize).cloned().ok_or("index outside source"))
                    .collect::<Result<_, _>>()?;
            }
            let dd = dwords(side, d, target)?;
            if dd.len() != sd.len() {
                return Err(format!("copies {} dwords into {}", sd.len(), dd.len()));
            }
            let to_sgpr = !is_vgpr_dest(side, d) && is_vgpr_src(side, s);
            dd.iter()
                .zip(&sd)
                .filter(|(a, b)| a != b)
                .map(|(a, b)| {
                    if to_sgpr {
                        Ok(format!("v_readfirstlane_b32 {a}, {b}"))
                    } else {
                        mov(side, d, a, b)
                    }
                })
                .collect()
        }
        "REG_SEQUENCE" | "INSERT_SUBREG" => {
            let d = def(0)?;
            let dd = dwords(side, d, target)?;
            let mut out = Vec::new();
            let pairs: &[&Operand] = if i.opcode == "INSERT_SUBREG" {
                let base = uses.first().ok_or("missing source")?;
                check_copy_banks(side, d, base, false)?;
                let bd = dwords(side, base, target)?;
                if bd.len() != dd.len() {
                    return Err("INSERT_SUBREG source width differs".into());
                }
                for (a, b) in dd.iter().zip(&bd) {
                    out.push(mov(side, d, a, b)?);
                }
                &uses[1..]
            } else {
                &uses[..]
            };
            for pair in pairs.chunks(2) {
                let [s, idx] = pair else {
                    return Err("operands do not come in (register, index) pairs".into());
                };
                let OpKind::SubIdx(sub) = &idx.kind else {
                    return Err("expected %subreg.subN".into());
                };
                check_copy_banks(side, d, s, false)?;
                let k = sub_indices(sub).ok_or("sub-register not modelled")?;
                let sd = dwords(side, s, target)?;
                if sd.len() != k.len() {
                    return Err(format!(
                        "{sub} takes {} dwords, the source has {}",
                        k.len(),
                        sd.len()
                    ));
                }
                for (kk, s1) in k.iter().zip(&sd) {
                    let d1 = dd.get(*kk as usize).ok_or("index outside destination")?;
                    out.push(mov(side, d, d1, s1)?);
                }
            }
            Ok(out)
        }
        op if super::wide::is_wide(op) => super::wide::lower(side, i, &uses, target),
        op => {
            let cx = Lowering {
                side,
                i,
                uses: &uses,
                target,
            };
            lower_modelled(cx, opcodes::lookup(target, op).ok_or("not modelled")?)
        }
    }
}

/// Lower an instruction of one of the modelled families (`op`, its [`opcodes::lookup`]).
fn lower_modelled(cx: Lowering, op: MirOp) -> Result<Vec<String>, String> {
    match op {
        MirOp::Ds { mnemonic, shape } => ds(cx, mnemonic, &shape),
        MirOp::Mubuf {
            mnemonic,
            shape,
            addr,
            lds,
            rtn,
        } => {
            let m = mubuf::Mubuf {
                mnemonic,
                class: shape.class,
                addr,
                lds,
                rtn,
            };
            mubuf::mubuf(cx, &m)
        }
        MirOp::Global {
            mnemonic,
            op,
            saddr,
        } => {
            let base = if saddr { Base::Saddr } else { Base::Off };
            global(cx, &mnemonic, op, base)
        }
        MirOp::Smem { mnemonic, form } => smem(cx, mnemonic, form),
        MirOp::Flat { mnemonic, op } => global(cx, mnemonic, op, Base::None),
        a @ MirOp::Alu { .. } => alu(cx, &a),
        MirOp::Sdwa(s) => super::sdwa::lower(cx.side, cx.i, cx.uses, cx.target, &s),
    }
}

/// One MIR instruction being lowered: its side's register classes, the instruction, its use
/// operands and the target.
#[derive(Clone, Copy)]
struct Lowering<'a> {
    side: &'a Side<'a>,
    i: &'a Inst,
    uses: &'a [&'a Operand],
    target: Target,
}

/// A `bits`-wide unsigned field as MIR may print it: its value, or the value sign-extended
/// from the field (llc-22 writes a DS offset of 0xff00 as -256). Anything else is out of range.
fn field_bits(v: i64, bits: u32) -> Result<i64, String> {
    let (lo, hi) = (-(1i64 << (bits - 1)), (1i64 << bits) - 1);
    if !(lo..=hi).contains(&v) {
        return Err(format!(
            "{MALFORMED}the {bits}-bit offset field cannot hold {v}"
        ));
    }
    Ok(v & hi)
}

/// The immediate operand `o`. Every caller asks for an operand LLVM's definition has, so a
/// missing one is a malformed instruction; another kind of operand is left unsupported.
fn imm(o: Option<&&Operand>, what: &str) -> Result<i64, String> {
    match o.map(|o| &o.kind) {
        Some(OpKind::Imm(v)) => Ok(*v),
        None => Err(format!("{MALFORMED}the {what} operand is missing")),
        _ => Err(format!("expected the {what} immediate")),
    }
}

/// The explicit use operands of an instruction whose LLVM definition has exactly `want`:
/// fewer, or an extra immediate, is a malformed instruction (no llc output has either). An
/// extra register is left to the lowering, which refuses it as a form it does not model (a
/// D16 load's tied old value, `vdst_in`).
pub(super) fn explicit_count(uses: &[&Operand], want: usize) -> Result<(), String> {
    let extra_imm = uses
        .iter()
        .skip(want)
        .any(|o| matches!(o.kind, OpKind::Imm(_)));
    if uses.len() < want || extra_imm {
        return Err(format!(
            "{MALFORMED}expected {want} operand{}, found {}",
            if want == 1 { "" } else { "s" },
            uses.len()
        ));
    }
    Ok(())
}

fn ds(cx: Lowering, mnemonic: &str, shape: &DsShape) -> Result<Vec<String>, String> {
    let (side, i, mut uses, target) = (cx.side, cx.i, cx.uses, cx.target);
    let mut out = Vec::new();
    let nreg =
        usize::from(shape.addr) + usize::from(shape.data0 > 0) + usize::from(shape.data1 > 0);
    let noff = match shape.offset {
        OffsetKind::None => 0,
        OffsetKind::Single => 1,
        OffsetKind::Pair => 2,
    };
    if mnemonic.contains("_d16") && shape.vdst > 0 && uses.len() == nreg + noff + 2 {
        // A D16 load keeps the other half of its destination: MIR passes the old value as a
        // last operand tied to the definition (`%old(tied-def 0)`); the rule's op reads it
        // from the destination register, so the old value is moved there first.
        let old = dwords(side, uses[uses.len() - 1], target)?;
        let dst = dwords(side, i.defs.first().ok_or("missing vdst")?, target)?;
        for (d, o) in dst.iter().zip(&old) {
            out.push(format!("v_mov_b32 {d}, {o}"));
        }
        uses = &uses[..uses.len() - 1];
    }
    let mut regs = Vec::new();
    if shape.vdst > 0 {
        regs.push(tuple(&dwords(
            side,
            i.defs.first().ok_or("missing vdst")?,
            target,
        )?));
    } else if !i.defs.is_empty() {
        return Err("defines a register the op does not have".into());
    }
    if uses.len() != nreg + noff + 1 {
        return Err(format!(
            "{MALFORMED}expected {} operands, found {}",
            nreg + noff + 1,
            uses.len()
        ));
    }
    for o in &uses[..nreg] {
        regs.push(tuple(&dwords(side, o, target)?));
    }
    let mut t = format!("{mnemonic} {}", regs.join(", "));
    match shape.offset {
        OffsetKind::Single => {
            // llc-22 prints the 16-bit offset field sign-extended (0xff00 as -256).
            let v = field_bits(imm(uses.get(nreg), "offset")?, 16)?;
            if v != 0 {
                t.push_str(&format!(" offset:{v}"));
            }
        }
        OffsetKind::Pair => {
            let a = field_bits(imm(uses.get(nreg), "offset0")?, 8)?;
            let b = field_bits(imm(uses.get(nreg + 1), "offset1")?, 8)?;
            t.push_str(&format!(" offset0:{a} offset1:{b}"));
        }
        OffsetKind::None => {}
    }
    // `gds` is one bit: llc-22 prints any value but 0 as `gds` and encodes only the low bit
    // (`DS_READ_B32_gfx9 %0, 0, 2` is `ds_read_b32 v0, v0 gds` in text, LDS in the binary), so
    // another value does not say which memory the access reads.
    match imm(uses.get(nreg + noff), "gds")? {
        0 => {}
        1 => t.push_str(" gds"),
        v => return Err(format!("{MALFORMED}the 1-bit gds field cannot hold {v}")),
    }
    out.push(t);
    Ok(out)
}

/// A GLOBAL or FLAT load/store or scalar load. MIR operand orders (`FLATInstructions.td`,
/// `SMInstructions.td`, checked against llc-22 output): loads `vdst = OP [saddr,] vaddr,
/// offset, cpol`; stores `OP vaddr, vdata, [saddr,] offset, cpol` (FLAT as GLOBAL without
/// saddr: `FLAT_STORE_DWORD %19, %16, 0, 0`); scalar loads `sdst = OP sbase, offset, cpol`.
/// The base operand of a GLOBAL or FLAT line.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Base {
    /// GLOBAL `_SADDR`: an SGPR pair.
    Saddr,
    /// GLOBAL with a 64-bit VADDR: the assembler's `off`.
    Off,
    /// FLAT: no base operand at all.
    None,
}

fn global(cx: Lowering, mnemonic: &str, op: GlobalOp, base: Base) -> Result<Vec<String>, String> {
    let (side, i, uses, target) = (cx.side, cx.i, cx.uses, cx.target);
    let saddr = base == Base::Saddr;
    let off_op = if base == Base::None { "" } else { ", off" };
    use gcnsmt_lifter::GlobalKind;
    let reg = |k: usize, what: &str| -> Result<String, String> {
        let o = uses.get(k).ok_or_else(|| format!("missing {what}"))?;
        Ok(tuple(&dwords(side, o, target)?))
    };
    let def = || -> Result<String, String> {
        let d = i.defs.first().ok_or("missing destination")?;
        Ok(tuple(&dwords(side, d, target)?))
    };
    // The offset and the `scale_offset` modifier text from the cache-policy operand.
    let tail = |k: usize| -> Result<(i64, String), String> {
        let cpol = imm(uses.get(k + 1), "cpol")?;
        let scale = super::gvs::scale_offset(cpol, target, saddr, op.kind, op.bytes)?;
        if uses.len() > k + 2 {
            return Err("extra operands are not modelled".into());
        }
        Ok((imm(uses.get(k), "offset")?, scale))
    };
    let off = |(o, scale): (i64, String)| {
        if o == 0 {
            scale
        } else {
            format!(" offset:{o}{scale}")
        }
    };
    // LLVM's operands (FLATInstructions.td, SMInstructions.td): the registers, offset, cpol.
    let regs = match op.kind {
        GlobalKind::ScalarLoad => 1,
        GlobalKind::Load => 1 + usize::from(saddr),
        GlobalKind::Store => 2 + usize::from(saddr),
    };
    explicit_count(uses, regs + 2)?;
    let line = match op.kind {
        GlobalKind::ScalarLoad => {
            let sbase = reg(0, "sbase")?;
            let (o, _) = tail(1)?;
            format!("{mnemonic} {}, {sbase}, {o}", def()?)
        }
        GlobalKind::Load if saddr => {
            let (s, v, o) = (reg(0, "saddr")?, reg(1, "vaddr")?, tail(2)?);
            format!("{mnemonic} {}, {v}, {s}{}", def()?, off(o))
        }
        GlobalKind::Load => {
            let (v, o) = (reg(0, "vaddr")?, tail(1)?);
            format!("{mnemonic} {}, {v}{off_op}{}", def()?, off(o))
        }
        GlobalKind::Store if saddr => {
            let (v, d, s, o) = (
                reg(0, "vaddr")?,
                reg(1, "vdata")?,
                reg(2, "saddr")?,
                tail(3)?,
            );
            format!("{mnemonic} {v}, {d}, {s}{}", off(o))
        }
        GlobalKind::Store => {
            let (v, d, o) = (reg(0, "vaddr")?, reg(1, "vdata")?, tail(2)?);
            format!("{mnemonic} {v}, {d}{off_op}{}", off(o))
        }
    };
    Ok(vec![line])
}

/// An `S_BUFFER_LOAD_*`: `sdst = OP sbase, [soffset,] [offset,] cpol` (see
/// [`opcodes::SmemForm`]); the offset as llc-22 prints it (dwords on gfx6/gfx7, bytes after).
fn smem(cx: Lowering, mnemonic: &str, form: opcodes::SmemForm) -> Result<Vec<String>, String> {
    let (side, i, uses, target) = (cx.side, cx.i, cx.uses, cx.target);
    use opcodes::SmemForm;
    let reg = |k: usize, what: &str| -> Result<String, String> {
        let o = uses.get(k).ok_or_else(|| format!("missing {what}"))?;
        Ok(tuple(&dwords(side, o, target)?))
    };
    let sdst = tuple(&dwords(
        side,
        i.defs.first().ok_or("missing sdst")?,
        target,
    )?);
    explicit_count(
        uses,
        match form {
            SmemForm::Imm | SmemForm::Sgpr => 3,
            SmemForm::SgprImm => 4,
        },
    )?;
    let sbase = reg(0, "sbase")?;
    let (off, k) = match form {
        SmemForm::Imm => (imm(uses.get(1), "offset")?.to_string(), 2),
        SmemForm::Sgpr => (reg(1, "soffset")?, 2),
        SmemForm::SgprImm => match imm(uses.get(2), "offset")? {
            0 => (reg(1, "soffset")?, 3),
            o => (format!("{} offset:{o}", reg(1, "soffset")?), 3),
        },
    };
    if imm(uses.get(k), "cpol")? != 0 {
        return Err("cache policy bits are not modelled".into());
    }
    if uses.len() > k + 1 {
        return Err("extra operands are not modelled".into());
    }
    Ok(vec![format!("{mnemonic} {sdst}, {sbase}, {off}")])
}

/// Lower a [`MirOp::Alu`] (the caller passes no other kind).
fn alu(cx: Lowering, a: &MirOp) -> Result<Vec<String>, String> {
    let (side, i, uses, target) = (cx.side, cx.i, cx.uses, cx.target);
    let MirOp::Alu {
        mnemonic,
        srcs,
        sdst,
        trailing,
        mods,
        vop,
        wide,
        pseudo,
        mask,
        vcc,
        vcc_in,
        vcc_dst,
    } = *a
    else {
        return Err("not a VALU/SALU op".into());
    };
    if pseudo {
        return super::alu64::pseudo(side, i, uses, target);
    }
    if matches!(
        i.opcode.as_str(),
        "S_MOVK_I32" | "S_ADDK_I32" | "S_MULK_I32"
    ) && !matches!(uses.last().map(|o| &o.kind), Some(OpKind::Imm(v)) if i16::try_from(*v).is_ok())
    {
        return Err(format!(
            "{MALFORMED}a SOPK immediate must fit SIMM16 (-32768..32767)"
        ));
    }
    super::fmac::check(i, uses)?;
    super::fcmp::check(i, uses)?;
    if vcc_in && !super::alu64::implicit_vcc(i, target, false) {
        return Err("the `_e32` form does not read `implicit $vcc`".into());
    }
    if vcc && !super::alu64::implicit_vcc(i, target, true) {
        return Err("the `_e32` form does not write `implicit-def $vcc`".into());
    }
    let mut regs = if vcc_dst {
        if !i.defs.is_empty() {
            return Err("a VOPC `_e32` compare has no explicit definition".into());
        }
        vec![super::alu64::vcc(side, target)]
    } else {
        vec![tuple(&dwords(
            side,
            i.defs.first().ok_or("missing vdst")?,
            target,
        )?)]
    };
    if vcc && !vcc_dst {
        regs.push(super::alu64::vcc(side, target));
    } else if sdst {
        regs.push(tuple(&dwords(
            side,
            i.defs.get(1).ok_or("missing carry-out")?,
            target,
        )?));
    }
    let mut k = 0;
    let mut vm = super::vop_mods::VopMods::new(vop).on(target, mnemonic);
    for n in 0..srcs {
        let m = if n < mods {
            k += 1;
            imm(uses.get(k - 1), "source modifier")?
        } else {
            0
        };
        if vcc_in && n + 1 == srcs {
            // The `_e32` mask: the implicit `$vcc` (checked above), no explicit operand.
            regs.push(super::alu64::vcc(side, target));
            continue;
        }
        let o = uses
            .get(k)
            .ok_or_else(|| format!("{MALFORMED}source {n} is missing"))?;
        let text = if wide >> n & 1 == 1 {
            super::alu64::wide_src_of(side, o, target, vop)?
        } else if mask && n + 1 == srcs {
            // A lane mask (v_cndmask_b32's select, a carry-in): one SGPR on wave32, a pair on
            // wave64.
            tuple(&dwords(side, o, target)?)
        } else if matches!(&o.kind, OpKind::Phys(p) if p == "sgpr_null") {
            // NULL reads 0 (`effects::names_null`); the buffer and scalar-load offsets keep
            // `null`, which their semantics read as 0.
            "0".to_string()
        } else {
            src(side, o, target)?
        };
        regs.push(vm.source(m, text, matches!(o.kind, OpKind::Imm(_)))?);
        k += 1;
    }
    let tail = (0..trailing as usize)
        .map(|j| imm(uses.get(k + j), "clamp"))
        .collect::<Result<Vec<i64>, String>>()?;
    k += trailing as usize;
    if k != uses.len() {
        return Err(format!(
            "{MALFORMED}expected {k} operands, found {}",
            uses.len()
        ));
    }
    let (suffix, clamp) = vm.trailing(&tail)?;
    // An integer clamp saturates; only a float clamp reads DX10_CLAMP.
    let float_clamp = clamp && vop != gcnsmt_lifter::lift::AluMods::SatU32;
    if let Some(why) = side.mode.refuses(mnemonic, float_clamp) {
        return Err(why);
    }
    // The SCC an SALU op writes is set by the caller (`scc::write`).
    Ok(vec![format!("{mnemonic} {}{suffix}", regs.join(", "))])
}

#[path = "emit_mubuf.rs"]
mod mubuf;

#[cfg(test)]
#[path = "emit_tests.rs"]
mod tests;

/// A scalar ALU opcode whose name is an assembler mnemonic the target lacks (`S_CMPK_EQ_U32`
/// on gfx12, which removed the SOPK compares: breaker 16's 06) is not a program for the
/// target. The mnemonic table is llvm-mc-22's; MIR names that are no mnemonic are left to the
/// opcode table (vector MIR names differ from their mnemonics by generation).
pub(super) fn salu_on_target(op: &str, target: Target) -> Result<(), String> {
    use gcnsmt_lifter::mnemonics::{validity, Validity};
    let m = op.to_ascii_lowercase();
    if !m.starts_with("s_") || validity(target, &m) != Validity::NotOnTarget {
        return Ok(());
    }
    Err(format!(
        "{MALFORMED}`{m}` does not exist on {} (llvm-mc-22 rejects it there)",
        target.name()
    ))
}
