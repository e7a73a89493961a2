//! The after-block's image in before-names, for refuting an allocation (issue 29): the
//! before-block in which every read takes the before-name the after-block's location holds
//! there (by the checker's state, `alloc_state.rs`), and every constant write only the
//! after-block makes is kept as written. Where the checker's state is sound, the image
//! computes what the after-block computes, name for location; so a block-check refutation of
//! the before-block against its image is one of the after-block (docs/tv.md, "Refuting").

use super::alloc_ops::{Ctx, Side};
use super::alloc_state::{is_phys, Contents, Guard, State};
use super::mir::{Inst, OpKind, Operand};
use std::collections::BTreeSet;

/// One read the image changes: the before-operand at (line, col) reads these names, dword by
/// dword, instead of its own.
#[derive(Clone, Debug)]
pub struct UseEdit {
    /// The before-operand's position.
    pub line: u32,
    /// Its column (1-based).
    pub col: u32,
    /// The names read, in dword order (its own where the location holds it).
    pub names: Vec<String>,
    /// (name the before reads, name the after's location holds) for each changed dword.
    pub swaps: Vec<(String, String)>,
}

/// The edits that turn a before-block into the after-block's image.
#[derive(Clone, Debug, Default)]
pub struct Image {
    /// Reads that take another name.
    pub uses: Vec<UseEdit>,
    /// (before-line to insert in front of, after-line to copy): constant writes the
    /// after-block alone makes.
    pub inserts: Vec<(u32, u32)>,
    /// Physical units such an insert wrote (their value is the image's own).
    pub clobbered: BTreeSet<String>,
    /// The first mismatch, as the checker words it.
    pub first: Option<String>,
}

/// Whether a name can be written as a MIR operand of the image (a before-virtual register's
/// dword, a spill slot's dword (`alloc_slots.rs`) or a 32-bit physical register, not SCC).
fn expressible(n: &str) -> bool {
    n != "scc" && n != "null" && !n.starts_with("src_")
}

/// The name the image reads for before-name `n` at after-location `l`, when `l` does not hold
/// `n`: a name `l` holds on every lane that name is defined on, or `l` itself when an inserted
/// constant write gave it its value. `None` when the state cannot say (then no image).
fn stand_in(s: &State, l: &str, n: &str, img: &Image, local: bool) -> Option<String> {
    let c: Contents = s.contents(l);
    // A location that holds `n` on some lanes: the lanes matter, which the image cannot show.
    if c.contains_key(n) {
        return None;
    }
    // A name held on every lane it is defined on, and defined on the lanes read (all lanes, or
    // the before-file's current EXEC for a vector name).
    // A lane-local read under the before-file's EXEC (`local`) reads the active lanes only: a
    // name held on them will do.
    let full = c.iter().find(|(m, g)| {
        let v = s.valid(m);
        let lanes = g.covers(&v) || (local && g.has(s.cur));
        lanes && (v == Guard::All || v.has(s.cur)) && expressible(m)
    });
    match full {
        Some((m, _)) => Some(m.clone()),
        None if img.clobbered.contains(l) && is_phys(l) => Some(l.to_string()),
        None => None,
    }
}

/// In image mode: a use of before-operand `x` whose dwords `ns` are read from locations `ls`
/// (some not holding theirs). Records the edit; `Err` when it cannot be imaged.
pub fn use_edit(
    cx: &Ctx,
    s: &State,
    x: &Operand,
    (ns, ls, oks, local): (&[String], &[String], &[bool], bool),
    why: &dyn Fn(&str, &str) -> String,
) -> Result<(), String> {
    let Some(img) = &cx.image else {
        return Err("no image".into());
    };
    let mut names = Vec::new();
    let mut swaps = Vec::new();
    for ((n, l), ok) in ns.iter().zip(ls).zip(oks) {
        if *ok {
            names.push(n.clone());
            continue;
        }
        let Some(m) = stand_in(s, l, n, &img.borrow(), local && cx.vector(n)) else {
            return Err(format!("no image: {}", why(l, n)));
        };
        // A scalar value in a vector location is the same value on every lane (the image
        // reads the SGPR there); a vector value in a scalar location is not.
        if (cx.vector(&m) && !cx.vector(n)) || !expressible(n) {
            return Err(format!("no image: {}", why(l, n)));
        }
        let mut i = img.borrow_mut();
        if i.first.is_none() {
            i.first = Some(why(l, n));
        }
        swaps.push((n.clone(), m.clone()));
        names.push(m);
    }
    if !swaps.is_empty() {
        if x.flags.implicit {
            return Err("no image: an implicit read of another value".into());
        }
        img.borrow_mut().uses.push(UseEdit {
            line: x.loc.line,
            col: x.loc.col,
            names,
            swaps,
        });
    }
    Ok(())
}

/// An instruction only the after-file has that writes physical registers from immediates
/// alone (`$exec = S_MOV_B64 0`, `$vgpr18 = V_MOV_B32_e32 0, implicit $exec`).
pub fn constant_write(a: &Inst) -> bool {
    let moves = ["S_MOV_B32", "S_MOV_B64", "V_MOV_B32_e32", "V_MOV_B32_e64"];
    moves.contains(&a.opcode.as_str())
        && !a.defs.is_empty()
        && a.defs.iter().all(|d| matches!(d.kind, OpKind::Phys(_)))
        && a.ops.iter().all(|o| match &o.kind {
            OpKind::Phys(p) => p == "exec" && o.flags.implicit && !o.flags.implicit_def,
            OpKind::VReg { .. } => false,
            _ => !o.flags.def,
        })
}

/// In image mode: the constant write `a` (only in the after-file) goes into the image in
/// front of before-line `at`; its def units now hold their own (new) value in both.
pub fn insert(cx: &Ctx, s: &mut State, a: &Inst, at: Option<u32>) -> Result<(), String> {
    let (Some(img), Some(at)) = (&cx.image, at) else {
        return Err(format!(
            "line {}: {} only in the after-file",
            a.loc.line, a.opcode
        ));
    };
    let mut units = Vec::new();
    for d in &a.defs {
        units.extend(cx.lanes(Side::After, d)?.unwrap_or_default());
    }
    for u in &units {
        s.forget(u);
        s.valid.insert(u.clone(), Guard::All);
        s.set(u, [(u.clone(), Guard::All)].into());
    }
    if units.iter().any(|u| u.starts_with("exec_")) {
        // EXEC has a value the before-file never gave it: a fresh atom.
        s.new_exec((u32::MAX - 1, a.loc.line));
    }
    let mut i = img.borrow_mut();
    i.clobbered.extend(units);
    i.inserts.push((at, a.loc.line));
    if i.first.is_none() {
        i.first = Some(format!(
            "line {}: {} only in the after-file",
            a.loc.line, a.opcode
        ));
    }
    Ok(())
}

/// The MIR spelling of a name: `%5.1` -> `%5.sub1` (`%5` for a one-dword class), `v18` ->
/// `$vgpr18`, `exec_lo` -> `$exec_lo`.
pub fn spell(cx: &Ctx, n: &str) -> Option<String> {
    if n.contains('@') {
        return None;
    }
    if let Some(r) = n.strip_prefix('%') {
        let (id, k) = r.split_once('.')?;
        let id: u32 = id.parse().ok()?;
        let dw = super::emit::class_dwords(cx.before.classes.get(&id)?)?;
        return Some(match dw {
            1 => format!("%{id}"),
            _ => format!("%{id}.sub{k}"),
        });
    }
    for (short, long) in [("v", "vgpr"), ("s", "sgpr"), ("a", "agpr")] {
        if let Some(d) = n.strip_prefix(short) {
            if !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()) {
                return Some(format!("${long}{d}"));
            }
        }
    }
    ["exec_lo", "exec_hi", "vcc_lo", "vcc_hi", "m0"]
        .contains(&n)
        .then(|| format!("${n}"))
}

/// The register class of an image tuple of `n` dwords in the scalar or vector file.
pub fn tuple_class(vector: bool, n: usize) -> Option<&'static str> {
    Some(match (vector, n) {
        (false, 2) => "sreg_64",
        (false, 3) => "sgpr_96",
        (false, 4) => "sgpr_128",
        (false, 8) => "sgpr_256",
        (true, 2) => "vreg_64",
        (true, 3) => "vreg_96",
        (true, 4) => "vreg_128",
        (true, 8) => "vreg_256",
        _ => return None,
    })
}
