//! Virtual register classes of a MIR function: its `registers:` entries and the `%N:class`
//! annotations in its body, with each class's width checked; and the registers that hold the
//! scratch descriptor.

use super::{unquote, Block, ErrFn, Function, Inst, OpKind, MAX_CLASS_BITS};
use crate::rules::InputError;
use std::collections::BTreeMap;
use std::collections::BTreeSet;

/// `  - { id: 3, class: sgpr_64, preferred-register: '', flags: [  ] }`
pub(super) fn register_entry(
    l: &str,
    i: usize,
    f: &mut Function,
    err: ErrFn,
) -> Result<(), InputError> {
    let t = l.trim();
    if !t.starts_with('-') {
        return Ok(());
    }
    let field = |key: &str| -> Option<&str> {
        let at = t.find(key)? + key.len();
        let rest = &t[at..];
        let end = rest.find([',', '}']).unwrap_or(rest.len());
        Some(rest[..end].trim())
    };
    let id = field("id:")
        .and_then(|v| v.parse::<u32>().ok())
        .ok_or_else(|| {
            err(
                i,
                l.find('-').unwrap_or(0),
                format!("register entry without a numeric id: `{t}`"),
            )
        })?;
    if let Some(c) = field("class:") {
        let c = unquote(c);
        if !c.is_empty() && c != "_" {
            check_class_width(c).map_err(|m| err(i, l.find(c).unwrap_or(0), m))?;
            check_class_name(c).map_err(|m| err(i, l.find(c).unwrap_or(0), m))?;
            f.classes.insert(id, c.to_string());
        }
    }
    Ok(())
}

/// A class whose width (a `_`-separated all-digit part, as [`super::emit::class_dwords`]
/// reads it) is past [`MAX_CLASS_BITS`] is an input error: `vreg_4294967264` would otherwise
/// be split into 134 million dwords.
pub(super) fn check_class_width(cls: &str) -> Result<(), String> {
    let wide = cls.split('_').skip(1).any(|p| {
        !p.is_empty()
            && p.bytes().all(|c| c.is_ascii_digit())
            && p.parse::<u64>().map_or(true, |n| n > MAX_CLASS_BITS)
    });
    if wide {
        return Err(format!(
            "register class `{cls}` is wider than {MAX_CLASS_BITS} bits (no AMDGPU class is)"
        ));
    }
    Ok(())
}

/// The first `_`-separated word of LLVM 22's AMDGPU register class names (SIRegisterInfo.td,
/// lower-cased as MIR prints them: `vgpr_32`, `vreg_64_align2`, `sreg_32_xm0_xexec`,
/// `av_128`, `ccr_sgpr_64`, `sgpr_null`), and the register bank names of generic registers
/// (`%0:vgpr(s32)`).
const CLASS_FAMILIES: &[&str] = &[
    "vgpr", "agpr", "sgpr", "vreg", "areg", "sreg", "av", "vs", "ttmp", "ccr", "scc", "vcc",
    "exec", "m0", "pseudo", "src", "lds",
];

/// A class name llc-22 would not read ("expected '_', register class, or register bank
/// name") is an input error: a family no AMDGPU class has, or a tuple family with a width no
/// class of it has (`vgpr_99`; the VGPR/AGPR singles are 16 or 32 bits, the tuples 64 to
/// 1,024 bits in the steps SIRegisterInfo.td defines). Classes LLVM synthesizes
/// (`vreg_128_with_sub1_sub2_in_vreg_64_align2`) pass: only the leading words are read.
pub(super) fn check_class_name(cls: &str) -> Result<(), String> {
    let lower = cls.to_ascii_lowercase();
    let mut words = lower.split('_');
    let family = words.next().unwrap_or("");
    let bad = || {
        Err(format!(
            "`{cls}` is not an AMDGPU register class or register bank"
        ))
    };
    if !CLASS_FAMILIES.contains(&family) {
        return bad();
    }
    let width = words.next().and_then(|w| w.parse::<u32>().ok());
    let widths: &[u32] = match family {
        "vgpr" | "agpr" => &[16, 32],
        // `vreg_1` and `sreg_1_xexec` are LLVM's lane-mask classes.
        "vreg" | "sreg" => &[
            1, 16, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 512, 1024,
        ],
        "areg" | "av" | "sgpr" | "ttmp" | "vs" => &[
            16, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 512, 1024,
        ],
        _ => return Ok(()),
    };
    match width {
        Some(w) if !widths.contains(&w) => bad(),
        _ => Ok(()),
    }
}

/// `%12:vgpr_32` annotations in instruction text. Errors: a class wider than
/// [`MAX_CLASS_BITS`], with its byte offset in `t`.
pub(super) fn note_classes(
    t: &str,
    classes: &mut BTreeMap<u32, String>,
) -> Result<(), (usize, String)> {
    let b = t.as_bytes();
    let mut k = 0;
    while k < b.len() {
        if b[k] == b'%' {
            let d: String = t[k + 1..]
                .chars()
                .take_while(|c| c.is_ascii_digit())
                .collect();
            let mut after = k + 1 + d.len();
            // `%3.sub0:vreg_64`: the class after a sub-register index is the whole register's.
            if !d.is_empty() && t[after..].starts_with(".sub") {
                let idx = t[after + 1..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_');
                after += 1 + idx.count();
            }
            if !d.is_empty() && t[after..].starts_with(':') {
                let cls: String = t[after + 1..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if let Ok(id) = d.parse::<u32>() {
                    if !cls.is_empty() && cls != "_" {
                        check_class_width(&cls).map_err(|m| (after + 1, m))?;
                        check_class_name(&cls).map_err(|m| (after + 1, m))?;
                        // llc-22: "conflicting register classes, previously: VGPR_32". The
                        // checkers read the first class; a later one that differs would be
                        // a register the file does not have.
                        let first = classes.entry(id).or_insert_with(|| cls.clone());
                        if *first != cls {
                            return Err((
                                after + 1,
                                format!("conflicting register classes for %{id}: `{cls}`, previously `{first}`"),
                            ));
                        }
                    }
                }
            }
            k = after;
        } else {
            k += 1;
        }
    }
    Ok(())
}

/// Mark every instruction that names the scratch descriptor `rsrc` (`scratchRSrcReg`), or a
/// register copied from any part of it (transitively, physical or virtual), as private.
pub(super) fn mark_scratch(blocks: &mut [Block], rsrc: &str) {
    let mut cells: BTreeSet<String> = rsrc.split('_').map(str::to_string).collect();
    let mut vregs: BTreeSet<u32> = BTreeSet::new();
    let holds = |k: &OpKind, cells: &BTreeSet<String>, vregs: &BTreeSet<u32>| match k {
        OpKind::Phys(p) => p.split('_').any(|c| cells.contains(c)),
        OpKind::VReg { id, .. } => vregs.contains(id),
        _ => false,
    };
    loop {
        let before = (cells.len(), vregs.len());
        for i in blocks.iter().flat_map(|b| &b.insts) {
            let copies = matches!(i.opcode.as_str(), "COPY" | "REG_SEQUENCE" | "INSERT_SUBREG");
            if !copies || !i.ops.iter().any(|o| holds(&o.kind, &cells, &vregs)) {
                continue;
            }
            for d in &i.defs {
                match &d.kind {
                    OpKind::Phys(p) => cells.extend(p.split('_').map(str::to_string)),
                    OpKind::VReg { id, .. } => {
                        vregs.insert(*id);
                    }
                    _ => {}
                }
            }
        }
        if (cells.len(), vregs.len()) == before {
            break;
        }
    }
    let reads = |i: &Inst| i.ops.iter().any(|o| holds(&o.kind, &cells, &vregs));
    for i in blocks.iter_mut().flat_map(|b| &mut b.insts) {
        i.private |= reads(i);
    }
}
