//! The register masks of calls: which 32-bit registers a callee preserves.
//!
//! A call's regmask operand lists the registers the callee keeps (a set bit: preserved); every
//! other register may hold anything after the call. MIR prints LLVM's named masks in lower case
//! (`csr_amdgpu`) or a custom one as `CustomRegMask($sgpr30,$sgpr31,...)`.
//!
//! Source of the named masks: LLVM AMDGPU `AMDGPUCallingConv.td` (the `CSR_AMDGPU*`
//! `CalleeSavedRegs` and the `AMDGPU_All*` `RegMask` records; read at ROCm/llvm-project commit
//! 6f7b7bc77737a655af7ec808d9f97f5a71e8a807, the same lists as upstream LLVM 22) and
//! `SIRegisterInfo::getCallPreservedMask` (C/fast/cold calls: `csr_amdgpu`, or
//! `csr_amdgpu_gfx90ainsts` on targets with gfx90a instructions; `amdgpu_gfx` calls:
//! `csr_amdgpu_si_gfx[_gfx90ainsts]`; chain calls: `amdgpu_allvgprs`; `getNoPreservedMask`:
//! `csr_amdgpu_noregs`). llc-22 prints these names (checked on gfx900, gfx90a and gfx1100).
//!
//! EXEC is preserved by the ABI although no mask lists it (AMDGPUUsage, "Non-Kernel
//! Functions": the callee returns with EXEC as on entry). M0, VCC and SCC are in no mask:
//! clobbered (AMDGPUUsage also lists M0 as preserved on gfx6-8, but LLVM's masks do not, so
//! LLVM-compiled callees may change it; treating it as clobbered never proves more).

use std::collections::BTreeSet;

/// One bank's preserved registers: inclusive ranges of register numbers.
type Ranges = &'static [(u32, u32)];

/// `CSR_AMDGPU_VGPRs`: v40-47, v56-63, ..., v248-255 (stripes of 8).
const CSR_VGPRS: Ranges = &[
    (40, 47),
    (56, 63),
    (72, 79),
    (88, 95),
    (104, 111),
    (120, 127),
    (136, 143),
    (152, 159),
    (168, 175),
    (184, 191),
    (200, 207),
    (216, 223),
    (232, 239),
    (248, 255),
];
/// `CSR_AMDGPU_SGPRs`: s30-39 (return address, SP, FP, BP), s48-55, s64-71, s80-87, s96-105.
const CSR_SGPRS: Ranges = &[(30, 39), (48, 55), (64, 71), (80, 87), (96, 105)];
/// `CSR_AMDGPU_SI_Gfx_SGPRs`: s4-31, s64-105.
const SI_GFX_SGPRS: Ranges = &[(4, 31), (64, 105)];
/// `CSR_AMDGPU_AGPRs`: a32-255.
const CSR_AGPRS: Ranges = &[(32, 255)];
const ALL: Ranges = &[(0, 255)];
const NONE: Ranges = &[];

/// A named mask: (MIR name, VGPRs, SGPRs, AGPRs, VCC preserved).
const NAMED: &[(&str, Ranges, Ranges, Ranges, bool)] = &[
    ("csr_amdgpu", CSR_VGPRS, CSR_SGPRS, NONE, false),
    (
        "csr_amdgpu_gfx90ainsts",
        CSR_VGPRS,
        CSR_SGPRS,
        CSR_AGPRS,
        false,
    ),
    ("csr_amdgpu_si_gfx", CSR_VGPRS, SI_GFX_SGPRS, NONE, false),
    (
        "csr_amdgpu_si_gfx_gfx90ainsts",
        CSR_VGPRS,
        SI_GFX_SGPRS,
        CSR_AGPRS,
        false,
    ),
    (
        "csr_amdgpu_cs_chainpreserve",
        &[(8, 255)],
        NONE,
        NONE,
        false,
    ),
    ("csr_amdgpu_noregs", NONE, NONE, NONE, false),
    ("amdgpu_allvgprs", ALL, NONE, NONE, false),
    ("amdgpu_allagprs", NONE, NONE, ALL, false),
    ("amdgpu_allvectorregs", ALL, NONE, ALL, false),
    ("amdgpu_allallocatablesregs", NONE, &[(0, 105)], NONE, true),
];

/// What a call's mask preserves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mask {
    /// A named mask of [`NAMED`] (its index).
    Named(usize),
    /// `CustomRegMask(...)`: the registers it lists, without `$` (`sgpr30`, `vgpr40_lo16`).
    Custom(BTreeSet<String>),
}

/// The mask an operand text names, `None` when it is no mask LLVM 22 defines.
pub fn parse(text: &str) -> Option<Mask> {
    if let Some(i) = NAMED.iter().position(|n| n.0 == text) {
        return Some(Mask::Named(i));
    }
    let inner = text
        .strip_prefix("CustomRegMask(")?
        .strip_suffix(')')?
        .trim();
    let mut regs = BTreeSet::new();
    for r in inner.split(',').map(str::trim).filter(|r| !r.is_empty()) {
        regs.insert(r.strip_prefix('$')?.to_string());
    }
    Some(Mask::Custom(regs))
}

/// Whether the callee preserves the 32-bit cell `cell`, as the rule names it (`v40`, `s30`,
/// `a32`, `vcc_lo`, `m0`, `exec_lo`; see `emit::phys`).
pub fn preserves(mask: &Mask, cell: &str) -> bool {
    if cell.starts_with("exec") {
        return true;
    }
    let bank_num = |c: &str| -> Option<(char, u32)> {
        let b = c.chars().next()?;
        let n = c[1..].parse().ok()?;
        matches!(b, 'v' | 's' | 'a').then_some((b, n))
    };
    match mask {
        Mask::Named(i) => {
            let (_, v, s, a, vcc) = NAMED[*i];
            if cell.starts_with("vcc") {
                return vcc;
            }
            let Some((b, n)) = bank_num(cell) else {
                return false;
            };
            let ranges = match b {
                'v' => v,
                's' => s,
                _ => a,
            };
            ranges.iter().any(|&(lo, hi)| (lo..=hi).contains(&n))
        }
        Mask::Custom(regs) => {
            let name = match bank_num(cell) {
                Some(('v', n)) => format!("vgpr{n}"),
                Some(('s', n)) => format!("sgpr{n}"),
                Some((_, n)) => format!("agpr{n}"),
                None => cell.to_string(),
            };
            regs.contains(&name)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected values read off AMDGPUCallingConv.td by hand (see the module comment).
    #[test]
    fn named_masks() {
        let csr = parse("csr_amdgpu").unwrap();
        for (c, p) in [
            ("v39", false),
            ("v40", true),
            ("v47", true),
            ("v48", false),
            ("v255", true),
            ("s29", false),
            ("s30", true),
            ("s39", true),
            ("s40", false),
            ("s105", true),
            ("a40", false),
            ("m0", false),
            ("vcc_lo", false),
            ("exec_lo", true),
        ] {
            assert_eq!(preserves(&csr, c), p, "csr_amdgpu {c}");
        }
        let gfx = parse("csr_amdgpu_si_gfx_gfx90ainsts").unwrap();
        assert!(preserves(&gfx, "s4") && preserves(&gfx, "a32") && !preserves(&gfx, "s32"));
        assert!(!preserves(&gfx, "a31") && !preserves(&gfx, "s3"));
        assert!(!preserves(&parse("csr_amdgpu_noregs").unwrap(), "v40"));
        assert!(parse("csr_amdgpu_bogus").is_none());
    }

    #[test]
    fn custom_mask() {
        let m = parse("CustomRegMask($sgpr30,$vgpr41,$vcc_lo)").unwrap();
        assert!(preserves(&m, "s30") && preserves(&m, "v41") && preserves(&m, "vcc_lo"));
        assert!(!preserves(&m, "v40") && !preserves(&m, "s31"));
        assert!(parse("CustomRegMask(sgpr30)").is_none());
    }
}
