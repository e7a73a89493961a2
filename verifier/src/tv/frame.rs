//! Frame indices (`%stack.N`) across frame index elimination (prologepilog).
//!
//! Before prologepilog a SALU/VALU operand may be a frame index: the address of stack object
//! N. The pass gives each object an offset (the after-file's `stack:` table) and replaces the
//! operand by code computing it from the frame register (SIRegisterInfo::eliminateFrameIndex,
//! LLVM 22): `FrameReg + offset` with flat scratch (gfx942, gfx950, gfx11+: the registers hold
//! the lane's byte offset in its private space), `(FrameReg >> log2(wave size)) + offset` with
//! MUBUF scratch (gfx6-gfx10, gfx908, gfx90a: the stack and frame pointers hold unswizzled,
//! wave-scaled offsets; the value of a frame index is the lane's swizzled offset).
//!
//! Model (docs/tv.md, "Frame indices"): in a function that is not an entry or chain function
//! and where neither file writes the stack pointer (`stackPtrOffsetReg`) or the frame pointer
//! (`frameOffsetReg`) anywhere, the stack pointer holds the incoming one in every block, which
//! is the frame base (the frame register is the stack pointer when there is no frame pointer,
//! and a frame pointer is always set by the prologue). Each frame-index operand of the
//! before-file becomes a fresh 32-bit scalar input with the precondition `input == SP + offset`
//! (scaled on MUBUF targets), the offset taken from the after-file (the named assumption:
//! prologepilog's layout is taken from its output), and the stack pointer 16-byte aligned
//! (16 x wave size unswizzled), as AMDGPUUsage's calling convention states. Anything else
//! (fixed objects, entry functions, a frame index used as a memory address, a written stack
//! or frame pointer) keeps the block `unsupported`, with the reason.

use super::emit::Side;
use super::mir::{Function, Inst, MirFile, OpKind};
use gcnsmt_semantics::target::{Gen, Target};
use std::collections::BTreeMap;

/// What a function's YAML header says about its frame, and what [`resolve`] made of it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Frame {
    /// `stack:` object id -> (`offset:`, `size:`, `alignment:`, 1 when not given).
    pub offsets: BTreeMap<u32, (i64, i64, i64)>,
    /// `frameInfo: stackSize:`.
    pub stack_size: Option<i64>,
    /// `frameInfo: hasVarSizedObjects: true` or an object of `type: variable-sized`.
    pub var_sized: bool,
    /// `machineFunctionInfo: isEntryFunction:` (kernels, shaders).
    pub entry: Option<bool>,
    /// `machineFunctionInfo: isChainFunction: true`.
    pub chain: bool,
    /// `stackPtrOffsetReg:` without `$` (`sgpr32`).
    pub sp: Option<String>,
    /// `frameOffsetReg:` without `$` (`sgpr33`).
    pub fp: Option<String>,
    /// The before-file's frame-index inputs: synthetic virtual register -> (stack id, offset).
    pub inputs: BTreeMap<u32, (u32, i64)>,
    /// The stack pointer cell the inputs are relative to (`s32`).
    pub base: String,
    /// The function runs as wave64 (its MUBUF offsets scale by 64).
    pub wave64: bool,
    /// Its IR `"target-features"` name `enable-flat-scratch`: `+` is `Some(true)`.
    pub flat_feature: Option<bool>,
    /// `scratchRSrcReg:` of the before- and after-file, without `$`.
    pub rsrc: [Option<String>; 2],
    /// Why the function's frame indices are not modelled, if they are not.
    pub why: Option<String>,
}

impl Frame {
    /// Read the header lines of one machine-function document (up to `body:`).
    pub fn read(lines: &[&str]) -> Frame {
        let mut f = Frame::default();
        let mut section = "";
        let mut entry = String::new();
        for l in lines {
            if l.starts_with("body:") {
                break;
            }
            if !l.starts_with(' ') {
                section = l.split(':').next().unwrap_or("");
            }
            let t = l.trim();
            if section == "stack" && (t.starts_with("- {") || !entry.is_empty()) {
                entry += t;
                if t.ends_with('}') {
                    f.object(&std::mem::take(&mut entry));
                }
                continue;
            }
            let Some((k, v)) = t.split_once(':') else {
                continue;
            };
            let v = v.trim().trim_matches('\'');
            match (section, k) {
                ("frameInfo", "hasVarSizedObjects") => f.var_sized |= v == "true",
                ("frameInfo", "stackSize") => f.stack_size = v.parse().ok(),
                ("machineFunctionInfo", "isEntryFunction") => f.entry = Some(v == "true"),
                ("machineFunctionInfo", "isChainFunction") => f.chain = v == "true",
                ("machineFunctionInfo", "stackPtrOffsetReg") => f.sp = reg(v),
                ("machineFunctionInfo", "frameOffsetReg") => f.fp = reg(v),
                _ => {}
            }
        }
        f
    }

    /// One `- { id: N, ..., offset: O, ... }` entry of `stack:`.
    fn object(&mut self, e: &str) {
        let field = |key: &str| -> Option<&str> {
            let at = e.find(&format!(" {key}:"))? + key.len() + 2;
            let rest = &e[at..];
            Some(rest[..rest.find([',', '}']).unwrap_or(rest.len())].trim())
        };
        self.var_sized |= field("type") == Some("variable-sized");
        let num = |key: &str| field(key).and_then(|v| v.parse::<i64>().ok());
        if let (Some(id), Some(off), Some(size)) = (num("id"), num("offset"), num("size")) {
            let align = num("alignment").filter(|a| *a > 0).unwrap_or(1);
            self.offsets.insert(id as u32, (off, size, align));
        }
    }
}

fn reg(v: &str) -> Option<String> {
    let r = v.strip_prefix('$')?;
    (!r.is_empty() && r != "noreg").then(|| r.to_string())
}

/// A frame-index operand's text: `%stack.N` -> Some(Some(N)); `%fixed-stack.N` -> Some(None).
fn frame_index(o: &OpKind) -> Option<Option<u32>> {
    let OpKind::Other(t) = o else { return None };
    if t.starts_with("%fixed-stack.") {
        return Some(None);
    }
    // `%stack.0.b`: llc prints the IR name of a named object after its number.
    let n = t.strip_prefix("%stack.")?;
    Some(n.split('.').next().and_then(|d| d.parse().ok()))
}

fn has_frame_index(f: &Function) -> bool {
    let mut ops = f.blocks.iter().flat_map(|b| &b.insts).flat_map(|i| &i.ops);
    ops.any(|o| frame_index(&o.kind).is_some())
}

/// Rewrite the before-file's frame-index operands into synthetic scalar inputs where the
/// model applies (module doc); elsewhere record why not.
pub(super) fn resolve((mut before, after): (MirFile, MirFile)) -> (MirFile, MirFile) {
    for f in before.functions.iter_mut().filter(|f| has_frame_index(f)) {
        let Some(g) = after.functions.iter().find(|g| g.name == f.name) else {
            continue;
        };
        match modelled(f, g) {
            Ok((base, offsets)) => rewrite(f, g, base, &offsets),
            Err(why) => f.frame.why = Some(why),
        }
    }
    (before, after)
}

/// The stack pointer cell and the object offsets, if the model applies to `f` -> `g`.
fn modelled(f: &Function, g: &Function) -> Result<(String, BTreeMap<u32, i64>), String> {
    if has_frame_index(g) {
        return Err("frame indices are modelled only across their elimination \
                    (prologepilog): the after-file still has some"
            .into());
    }
    if g.frame.entry != Some(false) || g.frame.chain {
        return Err(
            "a frame index of an entry or chain function is not modelled \
                    (only callable functions: their frame starts at the incoming stack pointer)"
                .into(),
        );
    }
    if g.frame.var_sized || f.frame.var_sized {
        return Err("a frame with variable-sized objects is not modelled".into());
    }
    let sp = g
        .frame
        .sp
        .clone()
        .ok_or("the after-file names no stackPtrOffsetReg")?;
    let pointers: Vec<String> = [Some(&sp), g.frame.fp.as_ref()]
        .into_iter()
        .flatten()
        .flat_map(|r| super::emit::phys(r, Target::Gfx1100).unwrap_or_default())
        .collect();
    for h in [f, g] {
        for i in h.blocks.iter().flat_map(|b| &b.insts) {
            if let Some(c) = writes_any(i, &pointers) {
                return Err(format!(
                    "line {}: {} writes {c} (the stack or frame pointer: a prologue, a call or \
                     a dynamic alloca), whose relation to the frame base is not tracked",
                    i.loc.line, i.opcode
                ));
            }
        }
    }
    let mut offsets = BTreeMap::new();
    for i in f.blocks.iter().flat_map(|b| &b.insts) {
        for o in &i.ops {
            let Some(n) = frame_index(&o.kind) else {
                continue;
            };
            let at = format!("line {}: {}", o.loc.line, i.opcode);
            let n = n.ok_or(format!("{at}: a fixed stack object is not modelled"))?;
            if !value_use(&i.opcode) {
                return Err(format!(
                    "{at}: a frame index used as a memory address (scratch memory is not modelled)"
                ));
            }
            let off = placed(&f.frame, &g.frame, n).map_err(|e| format!("{at}: {e}"))?;
            offsets.insert(n, off);
        }
    }
    let [base] = super::emit::phys(&sp, Target::Gfx1100)
        .map_err(|e| format!("stackPtrOffsetReg: {e}"))?
        .try_into()
        .map_err(|_| "stackPtrOffsetReg is not one 32-bit register")?;
    Ok((base, offsets))
}

/// Object `n`'s offset in the after-file's layout, if the layout is one the files allow: every
/// object at an offset that is a multiple of its alignment, inside the frame (`stackSize`), and
/// sharing no byte with another, each object taken at its larger size and alignment of the two
/// files. A layout that breaks these would make the model prove whatever the pass did with it,
/// so it is not trusted.
fn placed(before: &Frame, fr: &Frame, n: u32) -> Result<i64, String> {
    let dims = |m: u32| {
        let (o, s, a) = *fr.offsets.get(&m)?;
        let (_, bs, ba) = before.offsets.get(&m).copied().unwrap_or((0, s, a));
        Some((o, s.max(bs), a.max(ba)))
    };
    let (off, size, align) = dims(n).ok_or(format!(
        "%stack.{n} has no offset in the after-file's `stack:`"
    ))?;
    if off < 0 {
        return Err(format!("%stack.{n} is below the frame (offset {off})"));
    }
    if off % align != 0 {
        return Err(format!(
            "%stack.{n} at offset {off} breaks its alignment {align}"
        ));
    }
    if fr.stack_size.is_none_or(|t| off + size > t) {
        return Err(format!(
            "%stack.{n} does not lie inside the after-file's stackSize"
        ));
    }
    let clash = fr.offsets.keys().filter(|m| **m != n).find(|m| {
        dims(**m).is_some_and(|(o, s, _)| s > 0 && size > 0 && o < off + size && off < o + s)
    });
    match clash {
        Some(m) => Err(format!(
            "the after-file's layout overlaps %stack.{n} with %stack.{m}"
        )),
        None => Ok(off),
    }
}

/// A cell of `cells` that `i` defines (explicitly or as an implicit def).
fn writes_any(i: &Inst, cells: &[String]) -> Option<String> {
    let defs = i
        .defs
        .iter()
        .chain(i.ops.iter().filter(|o| o.flags.implicit_def || o.flags.def));
    defs.filter_map(|o| match &o.kind {
        OpKind::Phys(p) => super::emit::phys(p, Target::Gfx1100).ok(),
        _ => None,
    })
    .flatten()
    .find(|c| cells.contains(c))
}

/// An ALU operation, whose frame-index operand is a value (not a scratch address).
fn value_use(op: &str) -> bool {
    let memory = [
        "LOAD", "STORE", "ATOMIC", "BUFFER", "SCRATCH", "FLAT", "GLOBAL", "SPILL",
    ];
    (op.starts_with("S_") || op.starts_with("V_")) && !memory.iter().any(|m| op.contains(m))
}

/// Each frame-index operand of `f` becomes its own fresh `sreg_32` register (numbered past
/// every register of both files), recorded with its object's offset.
fn rewrite(f: &mut Function, g: &Function, base: String, offsets: &BTreeMap<u32, i64>) {
    let top = f.classes.keys().chain(g.classes.keys()).max();
    let mut next = top.map_or(0, |m| m + 1);
    let mut inputs = BTreeMap::new();
    for o in f
        .blocks
        .iter_mut()
        .flat_map(|b| &mut b.insts)
        .flat_map(|i| &mut i.ops)
    {
        let Some(Some(n)) = frame_index(&o.kind) else {
            continue;
        };
        o.kind = OpKind::VReg {
            id: next,
            sub: None,
        };
        inputs.insert(next, (n, offsets[&n]));
        f.classes.insert(next, "sreg_32".into());
        next += 1;
    }
    f.frame.inputs = inputs;
    f.frame.base = base;
    f.frame.wave64 = f.wave64;
    f.frame.rsrc = [f.scratch_rsrc.clone(), g.scratch_rsrc.clone()];
}

/// How the function addresses scratch, which decides what a frame index's value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scratch {
    /// MUBUF scratch: the frame register holds an unswizzled, wave-scaled offset.
    Mubuf,
    /// Flat scratch: the frame register is a byte offset in the lane's private space.
    Flat,
}

/// The function's scratch model on `t`, as LLVM 22 decides it
/// (`GCNSubtarget::enableFlatScratch`: architected flat scratch -- gfx942, gfx950, gfx11+ --
/// or the `enable-flat-scratch` feature where flat scratch instructions exist, gfx9+), read
/// from the function's `"target-features"`. A callable function with MUBUF scratch always has
/// a descriptor register (SIMachineFunctionInfo sets `s[0:3]`); `$private_rsrc_reg` there
/// means flat scratch the IR does not record (llc ran with `-mattr`): not modelled.
fn scratch(fr: &Frame, t: Target) -> Result<Scratch, String> {
    let architected = matches!(t, Target::Gfx942 | Target::Gfx950) || t.gen() >= Gen::Gfx11;
    let feature = fr.flat_feature == Some(true) && t.gen() >= Gen::Gfx9;
    let mode = match architected || feature {
        true => Scratch::Flat,
        false => Scratch::Mubuf,
    };
    for r in fr.rsrc.iter().flatten() {
        if r == "private_rsrc_reg" && mode == Scratch::Mubuf {
            return Err(format!(
                "scratchRSrcReg ${r} and the target-features (scratch model {mode:?} on {t}) \
                 disagree on how the function addresses scratch"
            ));
        }
    }
    Ok(mode)
}

/// A frame index the model gave up on in the before-block: the block is unsupported.
pub(super) fn check(before: &Side) -> Result<(), String> {
    for i in &before.block.insts {
        if i.ops.iter().any(|o| frame_index(&o.kind).is_some()) {
            let why = before
                .frame
                .why
                .as_deref()
                .unwrap_or("a frame index is not modelled");
            return Err(format!("{}: {why}", super::lower::at(before, i)));
        }
    }
    Ok(())
}

/// The precondition of the frame-index inputs the rule `text` names (module doc), joined to
/// `pre`.
pub(super) fn precondition(
    pre: Option<String>,
    before: &Side,
    target: Target,
    text: &str,
) -> Result<Option<String>, String> {
    let fr = before.frame;
    let named = |pat: &str| regex::Regex::new(pat).expect("regex").is_match(text);
    let used: Vec<(&u32, &(u32, i64))> = fr
        .inputs
        .iter()
        .filter(|(id, _)| named(&format!(r"%r{id}_0\b")))
        .collect();
    if used.is_empty() {
        return Ok(pre);
    }
    // A `Pre:` may name only the concrete registers the rule names.
    let sp = &fr.base;
    if !named(&format!(r"(^|[^%_\w]){sp}\b")) {
        return Err(format!(
            "{}: the pair never reads the stack pointer {sp}, the base of its frame indices",
            before.file
        ));
    }
    let wave = match fr.wave64 {
        true => 64,
        false => gcnsmt_lifter::lift::wave_size(target),
    };
    let mode = scratch(fr, target).map_err(|e| format!("{}: {e}", before.file))?;
    let (value, align) = match mode == Scratch::Flat {
        true => (sp.clone(), 16u64),
        false => (
            format!("({sp} >> {})", wave.trailing_zeros()),
            16 * wave as u64,
        ),
    };
    let mut parts: Vec<String> = pre.into_iter().collect();
    parts.push(format!("({sp} & 0x{:x}) == 0", align - 1));
    for (id, (_, off)) in used {
        let off = *off as u32;
        parts.push(format!("%r{id}_0 == (({value} + 0x{off:x}) & 0xffffffff)"));
    }
    Ok(Some(parts.join(" && ")))
}
