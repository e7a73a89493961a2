//! VOP3/VOP3P modifier operands of a MIR VALU op -> llvm-mc modifier syntax for the rule
//! (`-|%r2_0|`, `clamp`, `op_sel:[0,1]`), which `machine::mods` reads back.
//!
//! MIR operand order (LLVM `SIInstrInfo.td` `getIns64` / `getInsVOP3P`, checked against llc-22
//! output in tests/data/tv/bugs): each source follows its `srcN_modifiers` immediate; then
//! VOP3 `clamp, omod`, VOP3P `clamp, op_sel, op_sel_hi, neg_lo, neg_hi`. VOP3P takes its
//! op_sel/neg bits from the source modifiers (the trailing four are placeholders LLVM leaves
//! 0; any other value is not lowered). SISrcMods (`SIDefines.h`): NEG = 1, ABS = 2 (NEG_HI for
//! VOP3P), OP_SEL_0 = 4, OP_SEL_1 = 8. A bit not modelled, or `omod`, is an error.

use gcnsmt_lifter::lift::AluMods;

const NEG: i64 = 1;
const ABS: i64 = 2; // NEG_HI on VOP3P
const OP_SEL_0: i64 = 4;
const OP_SEL_1: i64 = 8;

/// The modifiers collected from one instruction's source-modifier immediates.
pub(super) struct VopMods {
    kind: AluMods,
    /// gfx1250's packed immediate rules apply (`machine::pk_imm`), and whether the op is a
    /// packed bf16 one.
    gfx1250: bool,
    bf16: bool,
    op_sel: Vec<u8>,
    op_sel_hi: Vec<u8>,
    neg_lo: Vec<u8>,
    neg_hi: Vec<u8>,
}

impl VopMods {
    pub(super) fn new(kind: AluMods) -> VopMods {
        VopMods {
            kind,
            gfx1250: false,
            bf16: false,
            op_sel: Vec::new(),
            op_sel_hi: Vec::new(),
            neg_lo: Vec::new(),
            neg_hi: Vec::new(),
        }
    }

    /// The same for an op `mnemonic` on `target`: on gfx1250 a packed immediate is lowered
    /// only where `machine::pk_imm` models it (else `unsupported` here, not a rule error).
    pub(super) fn on(mut self, target: gcnsmt_semantics::target::Target, mnemonic: &str) -> Self {
        self.gfx1250 = crate::machine::pk_imm::gfx1250(target);
        self.bf16 = mnemonic == "v_pk_add_bf16";
        self
    }

    /// The text of a source whose modifier immediate is `m` (`text` as lowered; `imm`: it is
    /// an immediate).
    pub(super) fn source(&mut self, m: i64, text: String, imm: bool) -> Result<String, String> {
        match self.kind {
            AluMods::None | AluMods::SatU32 if m != 0 => {
                Err("source modifiers are not modelled".into())
            }
            AluMods::None | AluMods::SatU32 => Ok(text),
            AluMods::True16 => Err("a True16 op is lowered by half16.rs".into()),
            AluMods::Float32 if m & !(NEG | ABS) != 0 => {
                Err(format!("source modifier bits {m:#x} are not modelled"))
            }
            AluMods::Float32 if imm && m != 0 => {
                Err("source modifiers on an immediate are not modelled".into())
            }
            AluMods::Float32 => {
                let t = if m & ABS != 0 {
                    format!("|{text}|")
                } else {
                    text
                };
                Ok(if m & NEG != 0 { format!("-{t}") } else { t })
            }
            _ if m & !(NEG | ABS | OP_SEL_0 | OP_SEL_1) != 0 => {
                Err(format!("source modifier bits {m:#x} are not modelled"))
            }
            // An immediate is its 32-bit value, split by op_sel/op_sel_hi like a register;
            // `machine/alu.rs` takes inline constants only (`imm_mods_modelled`).
            AluMods::PackedMov if imm || m & (NEG | ABS) != 0 || m & OP_SEL_1 == 0 => Err(
                "v_pk_mov_b32 is modelled with register sources, op_sel_hi set and no neg only"
                    .into(),
            ),
            AluMods::Packed16 | AluMods::Packed32 if imm && self.gfx1250 => {
                let v = gcnsmt_lifter::asm::parse_int(&text);
                let neg = m & (NEG | ABS) != 0;
                if v.and_then(|v| crate::machine::pk_imm::gfx1250_imm(self.kind, self.bf16, neg, v))
                    .is_none()
                {
                    return Err(format!(
                        "the packed immediate {text} is not modelled on gfx1250 (docs/tv.md \
                         \"Packed f32 and bf16 on gfx1250\")"
                    ));
                }
                self.push(m);
                Ok(text)
            }
            AluMods::Packed32 if imm => {
                Err("a packed f32 immediate is modelled on gfx1250 only".into())
            }
            AluMods::Packed16 | AluMods::PackedMov | AluMods::Packed32 => {
                self.push(m);
                Ok(text)
            }
        }
    }

    /// Record the VOP3P op_sel/op_sel_hi/neg_lo/neg_hi bits of a source modifier `m`.
    fn push(&mut self, m: i64) {
        let bit = |b: i64| u8::from(m & b != 0);
        self.neg_lo.push(bit(NEG));
        self.neg_hi.push(bit(ABS));
        self.op_sel.push(bit(OP_SEL_0));
        self.op_sel_hi.push(bit(OP_SEL_1));
    }

    /// The modifier text after the operands for the trailing immediates `vals` (see the module
    /// comment), and whether it clamps.
    pub(super) fn trailing(&self, vals: &[i64]) -> Result<(String, bool), String> {
        // MIR prints the i1 clamp operand as 1 or, sign-extended, -1 (llc-22 `V_MAX_F32_e64 0,
        // %30, 0, %30, -1, 0` for `llvm.maxnum` + clamp, which it emits as `v_max_f32 ... clamp`).
        let clamp = vals.first().copied().unwrap_or(0);
        if !matches!(clamp, -1..=1) || vals.iter().skip(1).any(|v| *v != 0) {
            return Err(format!(
                "output modifiers {vals:?} (clamp, then omod or op_sel placeholders) are not modelled"
            ));
        }
        let clamp = clamp != 0;
        let mut t = String::new();
        let list = |v: &[u8]| {
            let items: Vec<String> = v.iter().map(|b| b.to_string()).collect();
            format!("[{}]", items.join(","))
        };
        match self.kind {
            AluMods::Packed32 if clamp => {
                return Err("clamp on a packed f32 op is not modelled".into())
            }
            // llvm-mc-22 encodes `v_pk_add_bf16 ... clamp` on gfx1250; its clamp is not modelled.
            AluMods::Packed16 if clamp && self.bf16 => {
                return Err("clamp on v_pk_add_bf16 is not modelled".into())
            }
            AluMods::Packed16 | AluMods::Packed32 => {
                t.push_str(&format!(
                    " op_sel:{} op_sel_hi:{} neg_lo:{} neg_hi:{}",
                    list(&self.op_sel),
                    list(&self.op_sel_hi),
                    list(&self.neg_lo),
                    list(&self.neg_hi)
                ));
            }
            AluMods::PackedMov if clamp => return Err("v_pk_mov_b32 clamp is not modelled".into()),
            AluMods::PackedMov => t.push_str(&format!(" op_sel:{}", list(&self.op_sel))),
            AluMods::None if clamp => return Err("clamp is not modelled".into()),
            AluMods::None | AluMods::Float32 | AluMods::SatU32 | AluMods::True16 => {}
        }
        if clamp {
            t.push_str(" clamp");
        }
        Ok((t, clamp))
    }
}
