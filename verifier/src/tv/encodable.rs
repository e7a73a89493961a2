//! Register constraints of the instructions themselves, checked on the files before any
//! checker runs (the register-allocation and renaming checkers prove pairs without lowering
//! them, so the lowering's operand checks do not see these):
//! - a VGPR or AGPR tuple that does not start at an even register on the targets that
//!   require even alignment (LLVM `FeatureRequiresAlignedVGPRs`: gfx90a, gfx942, gfx950,
//!   gfx1250). Such an instruction cannot be encoded (llvm-mc-22: "invalid operand for
//!   instruction" for `global_load_dwordx2 v[5:6], v3, s[0:1]` on those four targets only),
//!   and llc-22's verifier rejects it ("Subtarget requires even aligned vector registers",
//!   also for `SI_SPILL_V64_SAVE` and `V_MOV_B64_PSEUDO`): an input error.
//! - a VALU instruction reading more scalar values than the target's constant bus carries, a
//!   literal in a VOP3 form before gfx10, or a non-VGPR in an `_e32` form's `src1`
//!   (`vop_bus.rs`; llvm-mc-22 rejects each): an input error.
//! - an early-clobber definition that overlaps a register the same instruction reads. The
//!   definition may be written before the sources are read, so the instruction's result is
//!   not what tv's model (all sources read first) says. llc-22's verifier accepts such a
//!   post-RA file (it checks early-clobber only on live intervals), so the block is
//!   `unsupported`, not an input error. The same holds on gfx1100-gfx1103 (LLVM
//!   `FeatureMADIntraFwdBug`) for any `V_MAD_U64_U32`/`V_MAD_I64_I32` whose result overlaps a
//!   source, with or without the early-clobber `_gfx11` opcode: the hardware forwards wrong
//!   intermediate values (LLVM selects the `_gfx11_e64` forms, whose `vdst` is early-clobber,
//!   only to keep the allocator from making that overlap).

use super::mir::{Function, Inst, MirFile, OpKind, Operand};
use gcnsmt_semantics::target::Target;

/// Targets that require even-aligned VGPR and AGPR tuples (LLVM `needsAlignedVGPRs`; checked
/// with llvm-mc-22 on every target gcnsmt models, 2026-12-06).
fn needs_aligned_vgprs(t: Target) -> bool {
    matches!(
        t,
        Target::Gfx90a | Target::Gfx942 | Target::Gfx950 | Target::Gfx1250
    )
}

/// Target-independent opcodes whose operands are not encoded as written: llc expands them
/// (a COPY of an odd tuple becomes 32-bit moves) or they are not instructions at all.
fn generic(opcode: &str) -> bool {
    matches!(
        opcode,
        "COPY"
            | "KILL"
            | "IMPLICIT_DEF"
            | "REG_SEQUENCE"
            | "INSERT_SUBREG"
            | "EXTRACT_SUBREG"
            | "SUBREG_TO_REG"
            | "PHI"
            | "BUNDLE"
            | "INLINEASM"
            | "INLINEASM_BR"
            | "WWM_COPY"
            | "STRICT_WWM"
            | "STRICT_WQM"
            | "SOFT_WQM"
            | "WQM"
    ) || opcode.starts_with("DBG_")
}

/// The function's targets: its `"target-cpu"`, else `fallback` (none when neither says:
/// `targets::targets_of` reports that later).
fn targets(f: &Function, fallback: Option<&[Target]>) -> Vec<Target> {
    match &f.target_cpu {
        Some(cpu) => Target::parse(cpu).into_iter().collect(),
        None => fallback.map(<[Target]>::to_vec).unwrap_or_default(),
    }
}

/// The register numbers of a physical VGPR or AGPR tuple (`vgpr5_vgpr6` -> [5, 6]); `None`
/// for a single register or any other name.
fn vector_tuple(p: &str) -> Option<Vec<u32>> {
    let parts: Vec<&str> = p.split('_').collect();
    let bank = if p.starts_with("vgpr") {
        "vgpr"
    } else {
        "agpr"
    };
    let nums: Option<Vec<u32>> = parts
        .iter()
        .map(|q| q.strip_prefix(bank).and_then(|d| d.parse().ok()))
        .collect();
    nums.filter(|n| n.len() >= 2)
}

/// An input error for the first explicit operand of a real instruction that is an odd-aligned
/// VGPR/AGPR tuple on a target that requires even alignment. Implicit operands are not
/// encoded (llc-22 accepts `S_NOP 0, implicit $vgpr5_vgpr6` on gfx90a).
fn aligned_tuples(file: &MirFile, fallback: Option<&[Target]>) -> Result<(), String> {
    for f in &file.functions {
        let Some(t) = targets(f, fallback)
            .into_iter()
            .find(|t| needs_aligned_vgprs(*t))
        else {
            continue;
        };
        for i in f.blocks.iter().flat_map(|b| &b.insts) {
            if generic(&i.opcode) {
                continue;
            }
            for o in i.defs.iter().chain(i.uses()) {
                let OpKind::Phys(p) = &o.kind else { continue };
                if vector_tuple(p).is_some_and(|n| n[0] % 2 == 1) {
                    return Err(format!(
                        "{}:{}:{}: error: `${p}` of `{}` is not an even-aligned register tuple, \
                         which {t} requires for VGPR and AGPR tuples (LLVM \
                         FeatureRequiresAlignedVGPRs): the instruction cannot be encoded",
                        file.path, o.loc.line, o.loc.col, i.opcode
                    ));
                }
            }
        }
    }
    Ok(())
}

/// An input error for the first VALU instruction whose scalar operands its target cannot
/// encode (the constant bus, VOP3 literals, `_e32` sources: `vop_bus.rs`).
fn vop_operands(file: &MirFile, fallback: Option<&[Target]>) -> Result<(), String> {
    for f in &file.functions {
        for t in targets(f, fallback) {
            for i in f.blocks.iter().flat_map(|b| &b.insts) {
                if let Some((loc, why)) = super::vop_bus::violation(f, i, t) {
                    return Err(format!(
                        "{}:{}:{}: error: {why}",
                        file.path, loc.line, loc.col
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The opcode's first definition is early-clobber whether or not the text says so (llc
/// restores the flag from the opcode): the `_ec` forms and gfx11's 64-bit MADs.
fn early_clobber_opcode(opcode: &str) -> bool {
    opcode.ends_with("_ec")
        || matches!(
            opcode,
            "V_MAD_U64_U32_gfx11_e64" | "V_MAD_I64_I32_gfx11_e64"
        )
}

/// Whether two register operands share a 32-bit register (or are the same virtual register).
fn overlap(a: &Operand, b: &Operand, t: Target) -> bool {
    match (&a.kind, &b.kind) {
        (OpKind::Phys(x), OpKind::Phys(y)) => {
            let (Ok(xs), Ok(ys)) = (super::emit::phys(x, t), super::emit::phys(y, t)) else {
                return x == y;
            };
            xs.iter().any(|c| ys.contains(c))
        }
        (OpKind::VReg { id: x, .. }, OpKind::VReg { id: y, .. }) => x == y,
        _ => false,
    }
}

/// Why `i` breaks a register constraint of its own on `t` (module doc), if it does.
fn violation(i: &Inst, t: Target) -> Option<String> {
    let mad_bug = t == Target::Gfx1100
        && (i.opcode.starts_with("V_MAD_U64_U32") || i.opcode.starts_with("V_MAD_I64_I32"));
    let uses: Vec<&Operand> = i.uses().filter(|u| !u.flags.undef).collect();
    for (k, d) in i.defs.iter().enumerate() {
        let ec = d.flags.early_clobber || (k == 0 && (early_clobber_opcode(&i.opcode) || mad_bug));
        if !ec {
            continue;
        }
        if let Some(u) = uses.iter().find(|u| overlap(d, u, t)) {
            let why = if mad_bug {
                "on gfx1100-gfx1103 the 64-bit MAD's result must not overlap a source (LLVM \
                 FeatureMADIntraFwdBug)"
            } else {
                "an early-clobber definition may be written before the sources are read"
            };
            return Some(format!(
                "line {}: the result of `{}` overlaps its source at line {} column {}: {why} \
                 (not modelled)",
                i.loc.line, i.opcode, u.loc.line, u.loc.col
            ));
        }
    }
    None
}

/// Every block of `file` with an instruction that breaks its own register constraint:
/// (function, block number, target name, reason).
fn clobber_overlaps(file: &MirFile, fallback: Option<&[Target]>) -> Vec<Breach> {
    let mut out = Vec::new();
    for f in &file.functions {
        for t in targets(f, fallback) {
            for b in &f.blocks {
                if let Some(why) = b.insts.iter().find_map(|i| violation(i, t)) {
                    out.push((f.name.clone(), b.num, t.name(), why));
                }
            }
        }
    }
    out
}

/// A block's constraint breach found by [`check`]: (function, block, target name, reason).
pub(super) type Breach = (String, u32, &'static str, String);

/// The input errors of both files (odd tuples, VALU operands), then the after-file's blocks
/// whose instructions break their own register constraints, for [`settle`]. `files`: the
/// user's files; the register-allocation checker's images (the after-file's instructions on
/// the before-file's registers, which no pass wrote) skip the VALU operand check.
pub(super) fn check(
    before: &MirFile,
    after: &MirFile,
    fallback: Option<&[Target]>,
    files: bool,
) -> Result<Vec<Breach>, String> {
    aligned_tuples(before, fallback)?;
    aligned_tuples(after, fallback)?;
    if files {
        vop_operands(before, fallback)?;
        vop_operands(after, fallback)?;
    }
    Ok(clobber_overlaps(after, fallback))
}

/// Make the verdict of each block in `breaches` `unsupported` (whatever checker decided it);
/// when no verdict has the block's number (the checks renumbered it), every verdict of the
/// function on that target that is not an error or unchanged.
pub(super) fn settle(verdicts: &mut [super::cmd::BlockVerdict], breaches: &[Breach]) {
    for (f, num, t, why) in breaches {
        let ours = |v: &super::cmd::BlockVerdict| v.function == *f && v.target == *t;
        let exact = verdicts.iter().any(|v| ours(v) && v.block == *num);
        for v in verdicts.iter_mut().filter(|v| ours(v)) {
            // An unchanged block is the before-file's own instruction: not the pass's doing.
            let open = !matches!(v.verdict, "error" | "unchanged");
            if open && (!exact || v.block == *num) {
                v.verdict = "unsupported";
                v.reason = Some(why.clone());
                v.counterexample = None;
                v.counterexample_data = None;
            }
        }
    }
}
