//! Operands of the register-allocation checker (`alloc.rs`): the 32-bit names and locations
//! an operand stands for, their register file, and which instructions move values only.

use super::emit::{class_bank, class_dwords};
use super::mir::{Function, Inst, OpKind, Operand};

/// The two functions' register classes.
pub struct Ctx<'a> {
    /// The before-function.
    pub before: &'a Function,
    /// The after-function.
    pub after: &'a Function,
    /// In image mode (refuting, `alloc_image.rs`): the edits so far; a read of another value
    /// is recorded there instead of failing.
    pub image: Option<std::cell::RefCell<super::alloc_image::Image>>,
    /// Refuting: an early-clobber def that overlaps a use is read-then-write (as the image
    /// takes it), so the walk goes on to the read that is wrong.
    pub lenient: bool,
}

/// Which file an operand is read from: before-names or after-locations.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The before-file: names.
    Before,
    /// The after-file: locations.
    After,
}

impl Ctx<'_> {
    /// The 32-bit names (before) or locations (after) of a register operand, in dword order;
    /// `Err` for one the checker does not model (16-bit halves, 1-bit classes, an unknown
    /// physical register). `Ok(None)` for an operand that is no register.
    pub fn lanes(&self, side: Side, o: &Operand) -> Result<Option<Vec<String>>, String> {
        match &o.kind {
            OpKind::Phys(p) if p == "noreg" => Ok(None),
            OpKind::Phys(p) => units(p).map(Some),
            OpKind::VReg { id, sub } => {
                let (f, pre) = match side {
                    Side::Before => (self.before, "%"),
                    Side::After => (self.after, "A%"),
                };
                let cls = f
                    .classes
                    .get(id)
                    .ok_or_else(|| format!("%{id} has no register class"))?;
                let n = class_dwords(cls)
                    .ok_or_else(|| format!("%{id} has class {cls}, not whole dwords"))?;
                let idx = match sub {
                    None => (0..n).collect(),
                    Some(s) => sub_indices(s).ok_or_else(|| format!("sub-register {s}"))?,
                };
                if idx.iter().any(|&k| k >= n) {
                    return Err(format!("%{id} sub-register outside {cls}"));
                }
                Ok(Some(idx.iter().map(|k| format!("{pre}{id}.{k}")).collect()))
            }
            _ => Ok(None),
        }
    }

    /// All dwords of the virtual register an operand names (for an `undef` sub-register def).
    pub fn whole(&self, side: Side, o: &Operand) -> Option<Vec<String>> {
        let OpKind::VReg { id, sub: Some(_) } = &o.kind else {
            return None;
        };
        let mut o = o.clone();
        o.kind = OpKind::VReg { id: *id, sub: None };
        self.lanes(side, &o).ok().flatten()
    }

    /// Whether a name or location is in a vector register file (VGPR, AGPR, a VGPR spill slot):
    /// written only on the lanes EXEC enables.
    pub fn vector(&self, n: &str) -> bool {
        let vreg = |f: &Function, r: &str| {
            let id: u32 = r
                .split('.')
                .next()
                .and_then(|d| d.parse().ok())
                .unwrap_or(0);
            f.classes.get(&id).is_some_and(|c| class_bank(c) != 's')
        };
        if let Some(r) = n.strip_prefix("A%") {
            vreg(self.after, r)
        } else if let Some(r) = n.strip_prefix('%') {
            vreg(self.before, r)
        } else if let Some(r) = n.strip_prefix("stack") {
            r.starts_with('V')
        } else {
            n.starts_with('v') && n[1..].starts_with(|c: char| c.is_ascii_digit())
                || n.starts_with('a') && n[1..].starts_with(|c: char| c.is_ascii_digit())
        }
    }
}

/// `sub0` -> [0]; `sub2_sub3` -> [2, 3]; `lo16` and the like: `None`.
fn sub_indices(s: &str) -> Option<Vec<u32>> {
    s.split('_')
        .map(|p| p.strip_prefix("sub").and_then(|d| d.parse().ok()))
        .collect()
}

/// The 32-bit units of a physical register, one spelling for every alias: `vgpr0_vgpr1` ->
/// [v0, v1], `exec` -> [exec_lo, exec_hi] (on wave32 too: `exec` is the pair there as well),
/// `scc` -> [scc]. 16-bit halves and registers the checker does not know: `Err`.
pub fn units(p: &str) -> Result<Vec<String>, String> {
    let one = |s: &str| Ok(vec![s.to_string()]);
    match p {
        "exec" | "vcc" | "flat_scr" | "xnack_mask" | "tba" | "tma" => {
            return Ok(vec![format!("{p}_lo"), format!("{p}_hi")]);
        }
        "exec_lo" | "exec_hi" | "vcc_lo" | "vcc_hi" | "m0" | "scc" | "mode" | "flat_scr_lo"
        | "flat_scr_hi" => return one(p),
        "sgpr_null" | "sgpr_null64" => return one("null"),
        _ => {}
    }
    if p.starts_with("src_") {
        return one(p);
    }
    p.split('_')
        .map(|part| {
            for (pre, short) in [
                ("vgpr", "v"),
                ("sgpr", "s"),
                ("agpr", "a"),
                ("ttmp", "ttmp"),
            ] {
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

/// A spill instruction: `SI_SPILL_V64_SAVE` -> (save, 'V', 2 dwords); `SI_SPILL_S32_RESTORE`
/// -> (restore, 'S', 1). AGPR and AV spills are vector ('V'); WWM spills are not spills here.
pub fn spill(op: &str) -> Option<(bool, char, u32)> {
    let r = op.strip_prefix("SI_SPILL_")?;
    let (kind, r) = if let Some(r) = r.strip_prefix("AV") {
        ('V', r)
    } else if let Some(r) = r.strip_prefix('V') {
        ('V', r)
    } else if let Some(r) = r.strip_prefix('A') {
        ('V', r)
    } else if let Some(r) = r.strip_prefix('S') {
        ('S', r)
    } else {
        return None;
    };
    let (bits, save) = if let Some(b) = r.strip_suffix("_SAVE") {
        (b, true)
    } else {
        (r.strip_suffix("_RESTORE")?, false)
    };
    let bits: u32 = bits.parse().ok()?;
    bits.is_multiple_of(32).then_some((save, kind, bits / 32))
}

/// The slot dwords a spill names: its frame index operand `%stack.N`, as `stackV.N.K`; `None`
/// for a spill at a nonzero offset.
pub fn slot(i: &Inst, kind: char, n: u32) -> Option<Vec<String>> {
    let fi = i.ops.iter().find_map(|o| match &o.kind {
        OpKind::Other(t) if t.starts_with("%stack.") => Some(t[7..].to_string()),
        _ => None,
    })?;
    // A spill at an offset into its slot would alias other dwords under other names.
    let offset = i.uses().any(|o| matches!(o.kind, OpKind::Imm(v) if v != 0));
    (!offset).then(|| (0..n).map(|k| format!("stack{kind}.{fi}.{k}")).collect())
}

/// Opcodes the checker gives up on: calls without a register mask, whole-wave and single-lane
/// writes (not EXEC-masked) but `V_WRITELANE_B32` (`alloc_call.rs`), inline assembly, bundles,
/// PHIs.
pub fn unmodelled(op: &str) -> bool {
    if op.starts_with("V_WRITELANE") {
        return op != "V_WRITELANE_B32";
    }
    [
        // `SI_CALL` is followed (`alloc_call.rs`); a call without a register mask is not.
        "S_SWAPPC",
        "SI_TCRETURN",
        "INLINEASM",
        "BUNDLE",
        "PHI",
        "STRICT_W",
        "ENTER_STRICT",
        "EXIT_STRICT",
        "SI_SPILL_WWM",
        "SI_WHOLE_WAVE",
        "WWM_COPY",
        "SI_INIT_WHOLE_WAVE",
        "V_SET_INACTIVE",
        "SI_INIT_EXEC",
        "V_PERMLANE",
        // A conditional or indexed write: the def's old value, or another register, is an
        // input the operands do not show.
        "S_CMOV",
        "V_MOVREL",
        "S_MOVREL",
        "SI_INDIRECT",
        "V_INDIRECT",
        "S_SET_GPR_IDX",
        // Matrix ops may write lanes EXEC disables.
        "V_MFMA",
        "V_SMFMAC",
        "V_WMMA",
        "V_SWMMAC",
    ]
    .iter()
    .any(|p| op.starts_with(p))
}

/// Whether an instruction reads its vector register operands on the active lanes only, each
/// lane its own (VALU but DPP and the cross-lane reads; vector memory but the LDS permutes and
/// swizzles): its result on a lane depends on the vector inputs on that lane alone.
pub fn lane_local(op: &str) -> bool {
    let valu = op.starts_with("V_")
        && !op.contains("_dpp")
        && !op.contains("DPP")
        && ![
            "V_READLANE",
            "V_READFIRSTLANE",
            "V_WRITELANE",
            "V_PERMLANE",
            "V_MOVREL",
        ]
        .iter()
        .any(|p| op.starts_with(p));
    let mem = [
        "GLOBAL_", "BUFFER_", "FLAT_", "SCRATCH_", "DS_", "IMAGE_", "TBUFFER_",
    ]
    .iter()
    .any(|p| op.starts_with(p))
        && !op.contains("PERMUTE")
        && !op.contains("SWIZZLE");
    (valu || mem) && !unmodelled(op)
}

/// A return to a caller, after which the caller reads the registers it expects preserved.
pub fn returns(op: &str) -> bool {
    op == "SI_RETURN" || op.starts_with("S_SETPC_B64_return")
}

#[cfg(test)]
mod tests {
    use super::*;

    // By hand from the MIR register names (SIRegisterInfo.td spells tuples as joined units).
    #[test]
    fn units_and_spills() {
        assert_eq!(units("vgpr2_vgpr3").unwrap(), ["v2", "v3"]);
        assert_eq!(units("exec").unwrap(), ["exec_lo", "exec_hi"]);
        assert_eq!(units("sgpr_null").unwrap(), ["null"]);
        assert!(units("vgpr0_lo16").is_err());
        assert_eq!(spill("SI_SPILL_V128_SAVE"), Some((true, 'V', 4)));
        assert_eq!(spill("SI_SPILL_S64_RESTORE"), Some((false, 'S', 2)));
        assert_eq!(spill("SI_SPILL_AV32_SAVE"), Some((true, 'V', 1)));
        assert_eq!(spill("SI_SPILL_WWM_V32_SAVE"), None);
    }
}
