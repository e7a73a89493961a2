//! Register names: [`RegKey`] (a concrete register or a rule variable's dword), operand classes
//! and variable uses.

use crate::rules::Loc;
use gcnsmt_semantics::ir::Expr;
use std::fmt;

/// One 32-bit register: a register file or rule variable, and a dword index.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RegKey {
    /// `v`, `a`, `s`, `m0`, `vcc`, `exec`, or `%name`.
    pub base: String,
    /// Dword index: the register number for `v`, `a` and `s`; the dword within a multi-dword
    /// variable for `%name`; 0 (low) or 1 (high) for `vcc` and `exec`; 0 for `m0`.
    pub idx: u32,
    /// The lane of a vector register under `--lanes N` (`None`: the one lane of a single-lane
    /// check, or a scalar register, which all lanes share).
    pub lane: Option<u32>,
}

impl RegKey {
    /// Dword `idx` of the rule variable `%name` (give `name` without the `%`).
    pub fn var(name: &str, idx: u32) -> RegKey {
        RegKey {
            base: format!("%{name}"),
            idx,
            lane: None,
        }
    }
    /// The 32-bit `m0` register (DS ops on gfx6-gfx8 take the LDS limit from it; `lds` loads
    /// take the LDS address from it).
    pub fn m0() -> RegKey {
        RegKey {
            base: "m0".into(),
            idx: 0,
            lane: None,
        }
    }
    /// `scc`: the scalar condition code, one bit of the wave's state, kept as a 32-bit register
    /// whose value is 0 or 1 (the checker assumes its input below 2). The SALU ops whose
    /// semantics entry assigns `SCC` write it (`semantics/pcode/alu.pcode`); no modelled
    /// instruction reads it, and `Dead: scc` leaves it out of a check altogether.
    pub fn scc() -> RegKey {
        RegKey {
            base: "scc".into(),
            idx: 0,
            lane: None,
        }
    }
    /// `exec_lo`: lanes 0..31 of EXEC, the mask `--lanes N` guards each lane's run with.
    pub fn exec_lo() -> RegKey {
        RegKey {
            base: "exec".into(),
            idx: 0,
            lane: None,
        }
    }
    /// `exec_hi`: lanes 32..63 of EXEC (wave64 targets).
    pub fn exec_hi() -> RegKey {
        RegKey {
            base: "exec".into(),
            idx: 1,
            lane: None,
        }
    }
    /// The lane id (`LANE_ID`, 0..wave size) of the `slot`-th lane of a `--lanes N` check: an
    /// input like a register, never written.
    pub fn lane_id(slot: u32) -> RegKey {
        RegKey {
            base: "lane_id".into(),
            idx: 0,
            lane: Some(slot),
        }
    }
    /// `SHARED_BASE` (`shared`) or `PRIVATE_BASE`: the high 32 bits of the shared (LDS) or
    /// private (scratch) aperture base a FLAT access is tested against (gfx9+
    /// `src_shared_base`/`src_private_base`; gfx7/gfx8 the `amd_queue_t` fields
    /// `group_segment_aperture_base_hi`/`private_segment_aperture_base_hi`, LLVM
    /// AMDGPUUsage "Address Spaces"). An input both sides share, like `m0`.
    pub fn aperture(shared: bool) -> RegKey {
        RegKey {
            base: if shared {
                "shared_base"
            } else {
                "private_base"
            }
            .into(),
            idx: 0,
            lane: None,
        }
    }
    /// Dword `dword` of the unconstrained value a transpose load (the one on rules-file line
    /// `line`) gives a lane in each element whose source lane is inactive or outside the check
    /// (`semantics/src/transpose.rs`); lane-free until `--lanes` expansion. An input per
    /// instruction, so two transposes never share one.
    pub fn tr_fill(line: u32, dword: u32) -> RegKey {
        RegKey {
            base: "tr_fill".into(),
            idx: line * 4 + dword,
            lane: None,
        }
    }
    /// Whether this is the concrete register `name` as a rule writes it in `Dead:` or `Pre:`
    /// (`m0`, `scc`, `v1`, `s2`, `a3`; `vcc` is both halves), lower case.
    pub fn named(&self, name: &str) -> bool {
        match self.base.as_str() {
            "m0" | "vcc" | "exec" | "scc" => name == self.base,
            "v" | "s" | "a" => name.strip_prefix(self.base.as_str()) == Some(&self.idx.to_string()),
            _ => false,
        }
    }
    /// Whether this is a dword of a rule variable (`%name`) rather than a concrete register.
    pub fn is_var(&self) -> bool {
        self.base.starts_with('%')
    }
}

impl fmt::Display for RegKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.fmt_reg(f)?;
        match self.lane {
            Some(l) => write!(f, "@lane{l}"),
            None => Ok(()),
        }
    }
}

impl RegKey {
    /// This register in lane `lane`.
    pub fn in_lane(&self, lane: u32) -> RegKey {
        RegKey {
            lane: Some(lane),
            ..self.clone()
        }
    }
    /// The register name without its lane.
    fn fmt_reg(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.base.as_str() {
            "m0" => f.write_str("m0"),
            "scc" => f.write_str("scc"),
            "lane_id" => f.write_str("LANE_ID"),
            "shared_base" => f.write_str("SHARED_BASE"),
            "private_base" => f.write_str("PRIVATE_BASE"),
            "tr_fill" => write!(f, "TR_FILL(line {})[{}]", self.idx / 4, self.idx % 4),
            "vcc" | "exec" => write!(
                f,
                "{}_{}",
                self.base,
                if self.idx == 0 { "lo" } else { "hi" }
            ),
            b if b.starts_with('%') => {
                if self.idx == 0 {
                    f.write_str(b)
                } else {
                    write!(f, "{b}[{}]", self.idx)
                }
            }
            b => write!(f, "{b}{}", self.idx),
        }
    }
}

/// Which registers an operand accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// VGPRs only (DS address, VALU destination).
    Vgpr,
    /// VGPRs, or AGPRs on targets with AGPR DS operands (DS data and destination).
    VgprOrAgpr,
    /// Scalar registers: SGPRs, `m0`, `vcc`, `exec` (SALU operands, carry-out).
    Sgpr,
    /// A VALU source: a VGPR or a scalar register.
    Any,
}

impl Class {
    pub(crate) fn vector(self) -> bool {
        matches!(self, Class::Vgpr | Class::VgprOrAgpr)
    }
    pub(crate) fn name(self) -> &'static str {
        match self {
            Class::Vgpr | Class::VgprOrAgpr => "a vector register",
            Class::Sgpr => "a scalar register",
            Class::Any => "a register",
        }
    }
}

/// One use of a register variable: its name (without `%`), the class the operand requires,
/// how many dwords it spans there, and where.
#[derive(Clone, Debug)]
pub struct VarUse {
    /// The variable's name, without `%`.
    pub name: String,
    /// The register class the operand requires.
    pub class: Class,
    /// How many dwords the operand spans (1 for a 32-bit operand, 2 for 64 bits, ...).
    pub dwords: u32,
    /// Where the use is written in the rules file.
    pub loc: Loc,
}

/// An ALU source: registers or an immediate expression over rule variables.
#[derive(Clone, Debug)]
pub enum Src {
    /// Registers, one key per dword, low dword first.
    Reg(Vec<RegKey>),
    /// An immediate: a constant or an expression over the rule's immediate variables, as
    /// written.
    Imm(Expr),
}
