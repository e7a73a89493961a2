//! MIMG image reads (`IMAGE_LOAD_*`, `IMAGE_SAMPLE_*`) in `tv` (docs/tv.md, "Image reads").
//!
//! What an image read returns depends on the image's memory, the T# (the `srsrc` tuple), the
//! sampler, the coordinates (`vaddr`) and state bits (`unorm`, `a16`/`r128`, `da`/`dim`, `d16`,
//! `tfe`, `lwe`, the cache policy): gcnsmt does not decode formats or filter, so each returned
//! dword is an uninterpreted, deterministic function of those. The AMD ISA guides (Vega, RDNA
//! "Image Instructions": DMASK) give the layout the model relies on: the enabled channels are
//! returned in ascending order, packed into consecutive VGPRs; with D16 on a packed-D16 target
//! two 16-bit channels share a dword; with TFE or LWE one more dword (the fetch status)
//! follows the data.
//!
//! Two ways to lower the function ([`Texel`]):
//! - `Shared` (the proof): the dword for channel `c` of a read is the rule input
//!   `%img<H>_c<c>`, where `H` hashes the read's key: the opcode family, the register operands
//!   as written (`%8`, `%11`), every immediate except `dmask`, and with TFE/LWE the tied
//!   zero-initialised register. Both sides name the same input for the same key and channel,
//!   and the registers the key names are compared at the block's end (they are SSA and not
//!   written after the read), so equal names read equal arguments: a deterministic function
//!   gives them equal values. A merge of two reads of one texel with disjoint dmasks into one
//!   with their union reads the same inputs and is proved.
//! - `Concrete` (to confirm a refutation): the dword is a fixed function of the argument
//!   values (a shift-xor of every `vaddr`/`srsrc`/`ssamp` dword, xor a constant per channel),
//!   and every status dword keeps its tied value (a resident, successful fetch). That is one
//!   particular image, so a difference found with it holds for a real function, whatever the
//!   shared inputs allowed: `cmd.rs` reports `refuted` only from this form.
//!
//! Image memory is global memory: a block pair with an image read and any instruction that
//! may write global memory (a buffer, global, flat or image store or atomic, scratch) is
//! `unsupported`, so no read is checked across a store that may alias the image.

use super::emit::{self, Side};
use super::lower::{at, Unsupported};
use super::mir::{Block, Inst, OpKind, Operand};
use gcnsmt_semantics::target::{Gen, Target};
use std::collections::BTreeSet;

/// How an image read's dwords are lowered (module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Texel {
    /// Inputs shared by key and channel (the proof).
    #[default]
    Shared,
    /// A fixed function of the argument values, status left as tied (to confirm a refutation).
    Concrete,
}

/// Prefix of the rule inputs that stand for image dwords (`%img<H>_c0`).
pub const VALUE_PREFIX: &str = "img";
/// Prefix of the scratch variables of the `Concrete` form (declared dead).
pub const TMP_PREFIX: &str = "imgtmp";

/// Where the immediates of a MIMG opcode are (LLVM MIMGInstructions.td operand lists; checked
/// on llc-22's MIR for gfx900, gfx90a, gfx1030, gfx1100 and gfx1200).
struct Layout {
    /// Number of immediates after the register operands.
    n: usize,
    tfe: Option<usize>,
    lwe: Option<usize>,
    d16: Option<usize>,
}

/// `dmask` is always the first immediate.
fn layout(op: &str, nimm: usize) -> Option<Layout> {
    let l = |n, tfe, lwe, d16| Layout { n, tfe, lwe, d16 };
    if op.ends_with("_gfx10") || op.ends_with("_gfx11") {
        // dmask, dim, unorm, cpol, r128, a16, tfe, lwe, d16
        Some(l(9, Some(6), Some(7), Some(8)))
    } else if op.ends_with("_gfx12") {
        // dmask, dim, cpol, r128, a16, tfe, d16
        Some(l(7, Some(5), None, Some(6)))
    } else if op.ends_with("_gfx90a") {
        // dmask, unorm, cpol, r128, lwe, da, d16 (no TFE on gfx90a)
        Some(l(7, None, Some(4), Some(6)))
    } else if !op.contains("_gfx") {
        // gfx6-gfx9: dmask, unorm, cpol, r128, tfe, lwe, da [, d16]
        match nimm {
            8 => Some(l(8, Some(4), Some(5), Some(7))),
            7 => Some(l(7, Some(4), Some(5), None)),
            _ => None,
        }
    } else {
        None
    }
}

/// The opcode family without the data/address widths and encoding (`IMAGE_SAMPLE_LZ`), for
/// the read ops the model covers: loads and samples, not the packed (`_PCK`) loads, gathers,
/// stores or atomics.
fn family(op: &str) -> Option<&str> {
    if !(op.starts_with("IMAGE_LOAD") || op.starts_with("IMAGE_SAMPLE")) || op.contains("_PCK") {
        return None;
    }
    let re = regex::Regex::new(r"^(IMAGE_[A-Z0-9_]+?)_V\d+_V\d+(_nsa)?(_gfx[0-9a-z]+)?$")
        .expect("regex");
    re.captures(op).map(|c| c.get(1).expect("group").as_str())
}

/// Whether `op` is an image read this module models.
pub fn is_image_read(op: &str) -> bool {
    family(op).is_some()
}

/// One image read, decoded.
struct Read<'i> {
    /// Register operands: vaddr(s), srsrc, [ssamp].
    regs: Vec<&'i Operand>,
    dmask: u32,
    d16: bool,
    /// TFE or LWE: a status dword follows the data.
    status: bool,
    /// The tied, zero-initialised register of a TFE/LWE read.
    init: Option<&'i Operand>,
    key: String,
}

fn reg_text(o: &Operand) -> String {
    match &o.kind {
        OpKind::VReg { id, sub: Some(s) } => format!("%{id}.{s}"),
        OpKind::VReg { id, sub: None } => format!("%{id}"),
        OpKind::Phys(p) => format!("${p}"),
        other => format!("{other:?}"),
    }
}

fn decode<'i>(i: &'i Inst, target: Target) -> Result<Read<'i>, String> {
    let fam = family(&i.opcode).ok_or("not an image read")?;
    let uses: Vec<&Operand> = i.uses().collect();
    let nregs = uses
        .iter()
        .take_while(|o| !matches!(o.kind, OpKind::Imm(_)))
        .count();
    let (regs, imms) = uses.split_at(nregs);
    let imms: Vec<i64> = imms
        .iter()
        .map(|o| match o.kind {
            OpKind::Imm(v) => Ok(v),
            _ => Err("an operand after the immediates is not an immediate".to_string()),
        })
        .collect::<Result<_, _>>()?;
    let l = layout(&i.opcode, imms.len()).ok_or("operand layout not known")?;
    if imms.len() != l.n || regs.is_empty() {
        return Err(format!("expected {} immediates, found {}", l.n, imms.len()));
    }
    if regs.iter().any(|o| !matches!(o.kind, OpKind::VReg { .. })) {
        return Err("a physical register operand (only virtual-register MIR is modelled)".into());
    }
    let flag = |k: Option<usize>| k.is_some_and(|k| imms[k] != 0);
    let dmask = u32::try_from(imms[0]).map_err(|_| "dmask out of range")?;
    if dmask == 0 || dmask > 0xf {
        return Err(format!(
            "dmask {dmask} (0 and values above 0xf are not modelled)"
        ));
    }
    let d16 = flag(l.d16);
    if d16 && target.gen() < Gen::Gfx9 {
        return Err("D16 before gfx9 (the unpacked layout) is not modelled".into());
    }
    let status = flag(l.tfe) || flag(l.lwe);
    let tied: Vec<&Operand> = i
        .ops
        .iter()
        .filter(|o| o.flags.implicit && matches!(o.kind, OpKind::VReg { .. }))
        .collect();
    let init = match (status, tied.as_slice()) {
        (false, _) => None,
        (true, [o]) if matches!(o.kind, OpKind::VReg { .. }) => Some(*o),
        (true, _) => {
            return Err("TFE/LWE without exactly one tied initial value".into());
        }
    };
    let rest: Vec<String> = imms[1..].iter().map(|v| v.to_string()).collect();
    let regs_text: Vec<String> = regs.iter().map(|o| reg_text(o)).collect();
    let key = format!(
        "{fam}|{}|{}|{}",
        regs_text.join(","),
        rest.join(","),
        init.map(reg_text).unwrap_or_default()
    );
    Ok(Read {
        regs: regs.to_vec(),
        dmask,
        d16,
        status,
        init,
        key,
    })
}

fn fnv(s: &str) -> u32 {
    s.bytes().fold(0x811c_9dc5u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// What each written dword holds: `Data(channels)` (one, or two packed D16 channels, the
/// second `None` when the count is odd) or the status.
enum Dword {
    Data(u32, Option<u32>),
    Status,
}

fn layout_dwords(r: &Read) -> Vec<Dword> {
    let ch: Vec<u32> = (0..4).filter(|c| r.dmask >> c & 1 == 1).collect();
    let mut out: Vec<Dword> = if r.d16 {
        ch.chunks(2)
            .map(|p| Dword::Data(p[0], p.get(1).copied()))
            .collect()
    } else {
        ch.iter().map(|c| Dword::Data(*c, None)).collect()
    };
    if r.status {
        out.push(Dword::Status);
    }
    out
}

/// The rule lines of image read `i` (the `n`-th instruction of its side, `tag` the side).
/// Dwords of the result register past what the read writes are not assigned: they keep the
/// register's unconstrained initial value, as the hardware leaves them.
pub(super) fn lower(
    side: &Side,
    i: &Inst,
    target: Target,
    (texel, tag, n): (Texel, char, usize),
) -> Result<Vec<String>, String> {
    let r = decode(i, target)?;
    let def = i.defs.first().ok_or("missing definition")?;
    let vdata = emit::dwords(side, def, target)?;
    let words = layout_dwords(&r);
    if words.len() > vdata.len() {
        return Err(format!(
            "writes {} dwords into a {}-dword register",
            words.len(),
            vdata.len()
        ));
    }
    let mut out = Vec::new();
    let h = fnv(&r.key);
    // With TFE/LWE the hardware writes the status only when a fetch fails (LLVM D48826), and
    // LLVM zero-initialises the data too: what it leaves unwritten keeps the tied value, which
    // the key names (Shared); a resident fetch writes the data and leaves the status (Concrete).
    let iv = match r.init {
        Some(init) => emit::dwords(side, init, target)?,
        None => Vec::new(),
    };
    if r.init.is_some() && iv.len() != vdata.len() {
        return Err("the tied initial value's width differs from the result's".into());
    }
    for (d, s) in vdata.iter().zip(&iv).skip(words.len()) {
        out.push(format!("v_mov_b32 {d}, {s}"));
    }
    let hv = format!("%{TMP_PREFIX}{tag}{n}h");
    if texel == Texel::Concrete {
        let cells: Vec<String> = r
            .regs
            .iter()
            .map(|o| emit::dwords(side, o, target))
            .collect::<Result<Vec<_>, _>>()?
            .concat();
        let tv = format!("%{TMP_PREFIX}{tag}{n}t");
        out.push(format!("v_mov_b32 {hv}, 0"));
        for c in cells {
            out.push(format!("v_lshlrev_b32 {hv}, 1, {hv}"));
            out.push(format!("v_mov_b32 {tv}, {c}"));
            out.push(format!("v_xor_b32 {hv}, {tv}, {hv}"));
        }
    }
    let tmp = |j: usize, x: &str| format!("%{TMP_PREFIX}{tag}{n}_{j}{x}");
    // One channel's 32-bit value (or the D16 odd dword's upper half, `None`) into `dst`.
    let value = |dst: &str, c: Option<u32>| -> String {
        let (name, k) = match c {
            Some(c) => (format!("c{c}"), 0x1111_1111u32.wrapping_mul(c + 1)),
            None => (format!("p{}", r.dmask), 0),
        };
        match (texel, c) {
            (Texel::Shared, _) => format!("v_mov_b32 {dst}, %{VALUE_PREFIX}{h:08x}_{name}"),
            (Texel::Concrete, None) => format!("v_mov_b32 {dst}, 0"),
            (Texel::Concrete, Some(_)) => {
                format!("v_xor_b32 {dst}, {}, {hv}", emit::imm_text(i64::from(k)))
            }
        }
    };
    for (j, (w, d)) in words.iter().zip(&vdata).enumerate() {
        match w {
            Dword::Data(c, None) if !r.d16 => out.push(value(d, Some(*c))),
            Dword::Data(lo, hi) => {
                // Packed D16: channel `lo` in bits 15:0, `hi` (or an unspecified half when the
                // channel count is odd) in bits 31:16.
                let (l, u) = (tmp(j, "l"), tmp(j, "u"));
                out.push(value(&l, Some(*lo)));
                out.push(format!("v_and_b32 {l}, 0xffff, {l}"));
                out.push(value(&u, *hi));
                out.push(format!("v_lshlrev_b32 {u}, 16, {u}"));
                out.push(format!("v_or_b32 {d}, {l}, {u}"));
            }
            Dword::Status => out.push(match texel {
                Texel::Shared => format!("v_mov_b32 {d}, %{VALUE_PREFIX}{h:08x}_s{}", r.dmask),
                Texel::Concrete => format!("v_mov_b32 {d}, {}", iv[j]),
            }),
        }
    }
    Ok(out)
}

/// Check the image reads of a pair and add to `live` the virtual registers that the keys read
/// on both sides name (compared: a shared input stands for equal arguments only if they are).
/// Returns whether the pair has image reads this module lowers (not in the EXEC model, where
/// they are uninterpreted twins). Unsupported: a read the model does not decode, an argument
/// written again after the read (non-SSA), or a block that may write global memory (which an
/// image may alias).
pub(super) fn check(
    (before, after): (&Side, &Side),
    (target, exec): (Target, bool),
    live: &mut BTreeSet<u32>,
    writes_global: impl Fn(&Inst) -> bool,
) -> Result<bool, Unsupported> {
    let any = |b: &Block| b.insts.iter().any(|i| is_image_read(&i.opcode));
    if !any(before.block) && !any(after.block) {
        return Ok(false);
    }
    let mut keys: [Vec<(String, Vec<u32>)>; 2] = Default::default();
    for (s, side) in [before, after].into_iter().enumerate() {
        for (n, i) in side.block.insts.iter().enumerate() {
            let fail = |m: String| Unsupported(format!("{}: {}: {m}", at(side, i), i.opcode));
            if writes_global(i) {
                return Err(fail(
                    "may write memory an image read of the block may alias (image reads are \
                     checked only in blocks without global, buffer, flat, scratch or image \
                     stores and atomics)"
                        .into(),
                ));
            }
            if !is_image_read(&i.opcode) {
                continue;
            }
            let r = decode(i, target).map_err(fail)?;
            let mut ids = Vec::new();
            for o in r.regs.iter().chain(r.init.iter()) {
                let OpKind::VReg { id, .. } = o.kind else {
                    continue;
                };
                let redefined = side.block.insts[n..].iter().any(|j| {
                    j.defs
                        .iter()
                        .chain(j.ops.iter().filter(|o| o.flags.def || o.flags.implicit_def))
                        .any(|d| matches!(d.kind, OpKind::VReg { id: x, .. } if x == id))
                });
                if redefined {
                    return Err(fail(format!(
                        "its input %{id} is written again in the block"
                    )));
                }
                ids.push(id);
            }
            keys[s].push((r.key, ids));
        }
    }
    // Two keys with one hash would share inputs: refuse (never seen; the hash is 32 bits).
    let mut by_hash = std::collections::BTreeMap::new();
    for (k, _) in keys.iter().flatten() {
        if by_hash.insert(fnv(k), k).is_some_and(|old| old != k) {
            return Err(Unsupported(format!(
                "{}: two image-read keys hash alike",
                before.file
            )));
        }
    }
    let [kb, ka] = keys;
    live.extend(
        kb.iter()
            .filter(|(k, _)| ka.iter().any(|(k2, _)| k2 == k))
            .flat_map(|(_, ids)| ids.iter().copied()),
    );
    Ok(!exec)
}
