//! The 64-bit VALU/SALU operands of the ALU lowering ([`super::emit`]): a source that is a
//! 64-bit pair or a 64-bit inline constant, the carry register `vcc`, and the 64-bit add and
//! subtract pseudos `V_ADD_U64_PSEUDO` / `V_SUB_U64_PSEUDO`, which LLVM expands after selection
//! (llc-22 -stop-after=finalize-isel: the `V_ADD_CO_U32_e64` + `V_ADDC_U32_e64` pair, on
//! gfx942 `V_LSHL_ADD_U64_e64 %a, 0, %b`, on gfx1250 `V_ADD_U64_e64`).

use super::emit::{dwords, imm_text, renamed_cell, Side};
use super::mir::{Inst, OpKind, Operand};
use super::opcodes::{lookup, MirOp};
use gcnsmt_semantics::target::{Gen, Target};

/// A 64-bit source: its pair as a tuple, or an integer inline constant (-16..=64), which the
/// hardware reads as its 64-bit value (AMD Vega ISA guide, "Inline Constants"). Any other
/// immediate would be a literal, which is extended to 64 bits by per-type rules the binder does
/// not model.
/// A 64-bit source of an op with modifiers `vop`: a packed f32 op's immediate on gfx1250 is
/// its MIR value whatever its size (the rule's binder reads its low 32 bits in both lanes,
/// `machine/pk_imm.rs`); otherwise [`wide_src`].
pub(super) fn wide_src_of(
    side: &Side,
    o: &Operand,
    target: Target,
    vop: gcnsmt_lifter::lift::AluMods,
) -> Result<String, String> {
    match o.kind {
        OpKind::Imm(v)
            if vop == gcnsmt_lifter::lift::AluMods::Packed32 && target == Target::Gfx1250 =>
        {
            Ok(v.to_string())
        }
        _ => wide_src(side, o, target),
    }
}

pub(super) fn wide_src(side: &Side, o: &Operand, target: Target) -> Result<String, String> {
    match o.kind {
        OpKind::Imm(v) if (-16..=64).contains(&v) => Ok(v.to_string()),
        OpKind::Imm(v) => Err(format!(
            "the 64-bit source immediate {v} is not an inline constant (not modelled)"
        )),
        _ => {
            let d = dwords(side, o, target)?;
            if d.len() != 2 {
                return Err(format!("a 64-bit source has {} dwords", d.len()));
            }
            Ok(super::emit::tuple(&d))
        }
    }
}

/// `vcc` as the rule names it: the pair `vcc` on wave64 (or its renamed cells), `vcc_lo` on
/// wave32.
pub(super) fn vcc(side: &Side, target: Target) -> String {
    let wave64 = gcnsmt_lifter::lift::wave_size(target) == 64;
    let cells: &[&str] = if wave64 {
        &["vcc_lo", "vcc_hi"]
    } else {
        &["vcc_lo"]
    };
    let named: Vec<String> = cells
        .iter()
        .map(|c| {
            if side.rename.contains(*c) {
                renamed_cell(c)
            } else {
                c.to_string()
            }
        })
        .collect();
    match named.as_slice() {
        [lo, hi] if lo == "vcc_lo" && hi == "vcc_hi" => "vcc".to_string(),
        _ => super::emit::tuple(&named),
    }
}

/// Whether `i` reads (`def` false) or writes (`def` true) the whole `vcc` mask implicitly:
/// `$vcc` on wave64, `$vcc` or `$vcc_lo` on wave32.
pub(super) fn implicit_vcc(i: &Inst, target: Target, def: bool) -> bool {
    let wave32 = gcnsmt_lifter::lift::wave_size(target) == 32;
    i.ops.iter().any(|o| {
        let name = matches!(&o.kind, OpKind::Phys(p) if p == "vcc" || (wave32 && p == "vcc_lo"));
        name && if def {
            o.flags.implicit_def
        } else {
            o.flags.implicit
        }
    })
}

/// The two halves of a pseudo's source: the pair's dwords, or an immediate's low and high 32
/// bits (LLVM `SIInstrInfo::buildExtractSubRegOrImm` splits the pseudo's 64-bit immediate into
/// `sub0` = its low and `sub1` = its high dword).
pub(super) fn halves(side: &Side, o: &Operand, target: Target) -> Result<[String; 2], String> {
    match o.kind {
        OpKind::Imm(v) => Ok([
            imm_text(i64::from(v as u32)),
            imm_text(i64::from((v as u64 >> 32) as u32)),
        ]),
        _ => match dwords(side, o, target)?.as_slice() {
            [lo, hi] => Ok([lo.clone(), hi.clone()]),
            d => Err(format!("a 64-bit source has {} dwords", d.len())),
        },
    }
}

/// `V_ADD_U64_PSEUDO` / `V_SUB_U64_PSEUDO %a, %b` (with `implicit-def dead $vcc`): the 64-bit
/// sum or difference. Lowered as one 64-bit op where the target has one and both sources fit it
/// (gfx1250 `v_add_nc_u64` / `v_sub_nc_u64`; gfx942/gfx950 `v_lshl_add_u64 d, a, 0, b` for the
/// add, as LLVM expands it there), else as the carry pair LLVM expands it to elsewhere: the low
/// halves with carry/borrow out to `vcc`, the high halves with it in. The pseudo clobbers
/// `vcc`, so the pair may use it; a live `vcc` after the pseudo is refused (what it holds
/// depends on the expansion).
pub(super) fn pseudo(
    side: &Side,
    i: &Inst,
    uses: &[&Operand],
    target: Target,
) -> Result<Vec<String>, String> {
    let sub = i.opcode.starts_with("V_SUB");
    let vcc_live = i.ops.iter().any(|o| {
        o.flags.implicit_def
            && !o.flags.dead
            && matches!(&o.kind, OpKind::Phys(p) if p.starts_with("vcc"))
    });
    if vcc_live {
        return Err(format!("{} with a live vcc is not modelled", i.opcode));
    }
    // SIInstructions.td: `(ins VSrc_b64:$src0, VSrc_b64:$src1)`, nothing else.
    let [a, b] = uses else {
        return Err(format!(
            "{}expected 2 sources, found {}",
            super::emit::MALFORMED,
            uses.len()
        ));
    };
    let d = dwords(side, i.defs.first().ok_or("missing vdst")?, target)?;
    let [d0, d1] = d.as_slice() else {
        return Err("a 64-bit result needs two dwords".into());
    };
    let inline = |o: &Operand| !matches!(o.kind, OpKind::Imm(v) if !(-16..=64).contains(&v));
    let one = match (target.gen(), sub) {
        (Gen::Gfx1250, false) => Some("v_add_nc_u64 {d}, {a}, {b}"),
        (Gen::Gfx1250, true) => Some("v_sub_nc_u64 {d}, {a}, {b}"),
        (_, false) if matches!(target, Target::Gfx942 | Target::Gfx950) => {
            Some("v_lshl_add_u64 {d}, {a}, 0, {b}")
        }
        _ => None,
    };
    if let Some(form) = one.filter(|_| inline(a) && inline(b)) {
        let line = form
            .replace("{d}", &super::emit::tuple(&d))
            .replace("{a}", &wide_src(side, a, target)?)
            .replace("{b}", &wide_src(side, b, target)?);
        return Ok(vec![line]);
    }
    let (ha, hb) = (halves(side, a, target)?, halves(side, b, target)?);
    if [&ha[1], &hb[1]].contains(&d0) {
        // The low half's write would change what the high half reads.
        return Err("overlapping 64-bit source and result".into());
    }
    let name = |op: &str| match lookup(target, op) {
        Some(MirOp::Alu { mnemonic, .. }) => Ok(mnemonic),
        _ => Err(format!("{op} is not modelled on {}", target.name())),
    };
    let (lo, hi) = if sub {
        (name("V_SUB_CO_U32_e64")?, name("V_SUBB_U32_e64")?)
    } else {
        (name("V_ADD_CO_U32_e64")?, name("V_ADDC_U32_e64")?)
    };
    let c = vcc(side, target);
    Ok(vec![
        format!("{lo} {d0}, {c}, {}, {}", ha[0], hb[0]),
        format!("{hi} {d1}, {c}, {}, {}, {c}", ha[1], hb[1]),
    ])
}
