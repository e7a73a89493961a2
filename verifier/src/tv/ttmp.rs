//! The trap-handler temporaries `$ttmp0..$ttmp15` as read-only inputs.
//!
//! On gfx12 (architected SGPRs) the hardware delivers the workgroup ID X in TTMP9 and the IDs Y
//! and Z in TTMP7 (LLVM AMDGPUUsage, "Initial Kernel Execution State"; llc-22 -mcpu=gfx1200
//! reads `$ttmp9` for `llvm.amdgcn.workgroup.id.x`). Kernel code only reads them: LLVM never
//! allocates them, and only a trap handler writes them. tv treats one as it treats any other
//! preloaded SGPR: a live-in input, the same value on both sides, held in the rule variable
//! `%ttmpN` (the machine model has no TTMP register file). An instruction that writes one is
//! refused (`unsupported`): a write would need the trap handler's view of those registers.

use super::mir::{Block, Inst, OpKind};

/// The rule variable of `$ttmpN` (one dword), or `None` if `p` is no single TTMP register.
pub fn cell(p: &str) -> Option<String> {
    let n = p.strip_prefix("ttmp")?;
    (!n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) && n.parse::<u32>().ok()? < 16)
        .then(|| format!("%ttmp{n}"))
}

/// The first instruction of `b` that writes a TTMP register (an explicit definition or an
/// `implicit-def`), if any.
pub fn writer(b: &Block) -> Option<&Inst> {
    let ttmp = |k: &OpKind| matches!(k, OpKind::Phys(p) if p.starts_with("ttmp"));
    b.insts.iter().find(|i| {
        i.defs.iter().any(|o| ttmp(&o.kind))
            || i.ops.iter().any(|o| o.flags.implicit_def && ttmp(&o.kind))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells() {
        assert_eq!(cell("ttmp9").as_deref(), Some("%ttmp9"));
        assert_eq!(cell("ttmp8_ttmp9"), None);
        assert_eq!(cell("ttmp16"), None);
        assert_eq!(cell("ttmp"), None);
    }
}
