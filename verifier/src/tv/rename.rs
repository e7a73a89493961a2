//! The renaming checker (issue 28): proves a function pair where the after-function is the
//! before-function with its virtual registers renamed dword by dword, one to one, and nothing
//! else changed but liveness flags and `undef` flags in the direction that refines
//! (`rename-independent-subregs` splitting `%69.sub8_sub9` off into `%186`,
//! `rewrite-partial-reg-uses` turning `%69.sub6_sub7:sgpr_512` into `%187:sgpr_64`). The block
//! checks assume a register has one name on both sides and refute such pairs in every block
//! that reads a renamed register; the register-allocation checker (`alloc.rs`) follows them
//! but loses lanes in divergent code and gives up on calls.
//!
//! Soundness (docs/tv.md, "The renaming checker"): with `phi` a bijection between the before-
//! dwords and after-dwords the functions name, register files kept, every after-instruction
//! is its before-instruction with each dword `x` replaced by `phi(x)` (same opcode, same
//! non-register operands, same physical registers, same memory operands). By induction over
//! any run, the after-state holds at `phi(x)` what the before-state holds at `x` wherever that
//! value is defined, and the same physical registers and memory: each instruction does the
//! same operation on the same values. A dword no operand names is never read. `undef` flags:
//! an after-use may not be `undef` where the before-use is not (it reads no value); an
//! `undef` sub-register def leaves the register's other dwords undefined, allowed in the
//! after-file only where those dwords are named nowhere or are the before-def's own undefined
//! dwords (the before-def is `undef` too). An `undef` the pass dropped only makes a value
//! defined that was undefined (a refinement).

use super::alloc_ops::{Ctx, Side};
use super::deadlanes::Added;
use super::emit::class_bank;
use super::mir::{Function, Inst, OpKind, Operand};
use std::collections::BTreeMap;

/// The verdict reason of a block the renaming checker proves.
pub const PROVED: &str = "renaming checker: the after-function is the before-function with \
                          virtual registers renamed one to one (docs/tv.md)";

/// The dword bijection built so far.
#[derive(Default, Clone)]
struct Map {
    fwd: BTreeMap<String, String>,
    back: BTreeMap<String, String>,
}

impl Map {
    fn bind(&mut self, x: &str, y: &str) -> Result<(), String> {
        let f = self
            .fwd
            .entry(x.to_string())
            .or_insert_with(|| y.to_string());
        let b = self
            .back
            .entry(y.to_string())
            .or_insert_with(|| x.to_string());
        if f != y || b != x {
            return Err(format!("{x} and {y} are not renamed one to one"));
        }
        Ok(())
    }
}

/// The register file of a virtual dword name (`%5.0`, `A%7.1`): `s`, `v` or `a`.
fn bank(cx: &Ctx, side: Side, n: &str) -> char {
    let f = match side {
        Side::Before => cx.before,
        Side::After => cx.after,
    };
    let id = n.trim_start_matches("A%").trim_start_matches('%');
    let id: Option<u32> = id.split('.').next().and_then(|d| d.parse().ok());
    id.and_then(|id| f.classes.get(&id))
        .map_or('?', |c| class_bank(c))
}

/// The flags that change what an operand means (not `killed`, `dead`, `renamable`, `undef`).
fn same_flags(x: &Operand, y: &Operand) -> bool {
    let (a, b) = (x.flags, y.flags);
    (
        a.implicit,
        a.implicit_def,
        a.early_clobber,
        a.internal,
        a.def,
    ) == (
        b.implicit,
        b.implicit_def,
        b.early_clobber,
        b.internal,
        b.def,
    )
}

/// One operand pair: equal non-register operands, or virtual registers whose dwords map.
/// An `undef` sub-register def of the after-file is kept for [`undef_defs`]. `def`: the pair
/// is written (left of `=`, or flagged a def).
fn operand<'a>(
    cx: &Ctx,
    m: &mut Map,
    def: bool,
    x: &'a Operand,
    y: &'a Operand,
    undefs: &mut Vec<(&'a Operand, &'a Operand)>,
) -> Result<bool, String> {
    if !same_flags(x, y) {
        return Err(format!(
            "operand flags of {:?} and {:?} differ",
            x.kind, y.kind
        ));
    }
    let (OpKind::VReg { .. }, OpKind::VReg { .. }) = (&x.kind, &y.kind) else {
        return match x.kind == y.kind {
            true => Ok(!def && y.flags.undef && !x.flags.undef),
            false => Err(format!("{:?} differs from {:?}", x.kind, y.kind)),
        };
    };
    let nx = cx.lanes(Side::Before, x)?.ok_or("no register")?;
    let ny = cx.lanes(Side::After, y)?.ok_or("no register")?;
    if nx.len() != ny.len() {
        return Err(format!("{:?} and {:?} differ in width", x.kind, y.kind));
    }
    for (a, b) in nx.iter().zip(&ny) {
        let (ba, bb) = (bank(cx, Side::Before, a), bank(cx, Side::After, b));
        if ba != bb || ba == '?' {
            return Err(format!("{a} and {b} are in different register files"));
        }
        m.bind(a, b)?;
    }
    if def && y.flags.undef {
        undefs.push((x, y));
    }
    // An `undef` the pass added to a use: `deadlanes::justify` decides it, function-wide.
    Ok(!def && y.flags.undef && !x.flags.undef)
}

/// One instruction pair; the indices in `ops` of the uses the pass made `undef` are pushed
/// on `added`.
fn inst<'a>(
    cx: &Ctx,
    m: &mut Map,
    (b, a): (&'a Inst, &'a Inst),
    undefs: &mut Vec<(&'a Operand, &'a Operand)>,
    added: &mut Vec<usize>,
) -> Result<(), String> {
    let at = || format!("line {}: {}", a.loc.line, a.opcode);
    if b.opcode != a.opcode || b.mem != a.mem {
        return Err(format!("{}: differs from line {}", at(), b.loc.line));
    }
    if let Some(f) = super::mi_flags::extra(b, a) {
        return Err(format!("{}: the pass added the flag `{f}`", at()));
    }
    if b.defs.len() != a.defs.len() || b.ops.len() != a.ops.len() {
        return Err(format!("{}: operand counts differ", at()));
    }
    for (x, y) in b.defs.iter().zip(&a.defs) {
        operand(cx, m, true, x, y, undefs).map_err(|e| format!("{}: {e}", at()))?;
    }
    for (k, (x, y)) in b.ops.iter().zip(&a.ops).enumerate() {
        let def = y.flags.def || y.flags.implicit_def;
        if operand(cx, m, def, x, y, undefs).map_err(|e| format!("{}: {e}", at()))? {
            added.push(k);
        }
    }
    Ok(())
}

/// Each `undef` sub-register def of the after-file: the after-register's dwords it leaves
/// undefined are named nowhere, or are dwords the before-def (also `undef`) leaves undefined.
fn undef_defs(cx: &Ctx, m: &Map, undefs: &[(&Operand, &Operand)]) -> Result<(), String> {
    for (x, y) in undefs {
        let Some(all) = cx.whole(Side::After, y) else {
            continue; // a whole-register def: `undef` leaves nothing undefined
        };
        let written = cx.lanes(Side::After, y)?.unwrap_or_default();
        let b_left: Vec<String> = match x.flags.undef {
            true => {
                let w = cx.lanes(Side::Before, x)?.unwrap_or_default();
                let whole = cx.whole(Side::Before, x).unwrap_or_default();
                whole.into_iter().filter(|n| !w.contains(n)).collect()
            }
            false => Vec::new(),
        };
        for l in all.iter().filter(|l| !written.contains(l)) {
            if let Some(n) = m.back.get(l) {
                if !b_left.contains(n) {
                    return Err(format!(
                        "line {}: an `undef` def leaves {l} undefined, which holds {n}",
                        y.loc.line
                    ));
                }
            }
        }
    }
    Ok(())
}

/// What the functions say besides their blocks must agree.
fn headers(bf: &Function, af: &Function) -> Result<(), String> {
    let (x, y) = (&bf.frame, &af.frame);
    let frame = x.offsets == y.offsets
        && x.stack_size == y.stack_size
        && x.var_sized == y.var_sized
        && x.entry == y.entry
        && x.chain == y.chain
        && x.sp == y.sp
        && x.fp == y.fp;
    let same = frame
        && bf.target_cpu == af.target_cpu
        && bf.wave64 == af.wave64
        && bf.lds_size == af.lds_size
        && bf.mode == af.mode
        && bf.c_convention == af.c_convention
        && bf.scratch_rsrc == af.scratch_rsrc;
    same.then_some(())
        .ok_or_else(|| "the function headers differ".into())
}

/// Check one function pair: `Ok` when the after-function is the before-function renamed (it
/// then computes the same values, in the same order, with the same effects); else why not.
pub fn check(bf: &Function, af: &Function) -> Result<(), String> {
    headers(bf, af)?;
    if bf.blocks.len() != af.blocks.len() {
        return Err("the block counts differ".into());
    }
    // opt-phis: single-value PHIs the after-file lacks, their reads renamed (`rename_phi.rs`).
    let phis = super::rename_phi::single_value(bf, af);
    let bf = &super::rename_phi::apply(bf, &phis);
    // twoaddressinstruction: lowered REG_SEQUENCEs and explicit tied copies (`rename_twoaddr.rs`).
    let bf = &super::rename_twoaddr::rewrite(bf, af);
    // si-opt-vgpr-liverange: else-region PHIs of the after-file, read back as their `%r`
    // (`rename_else.rs`).
    let af = &super::rename_else::apply(af, &super::rename_else::find(bf, af));
    let deleted = |x: &Inst| {
        x.opcode == "PHI"
            && matches!(x.defs.as_slice(), [d] if matches!(d.kind, OpKind::VReg { id, .. } if phis.contains_key(&id)))
    };
    let cx = Ctx {
        before: bf,
        after: af,
        image: None,
        lenient: false,
    };
    let mut m = Map::default();
    let mut undefs = Vec::new();
    let mut added = Vec::new();
    let def = super::deadlanes::defined(&cx);
    for (n, (b, a)) in bf.blocks.iter().zip(&af.blocks).enumerate() {
        if b.num != a.num || b.successors != a.successors || b.liveins != a.liveins {
            return Err(format!("bb.{}: the block's CFG or live-ins differ", a.num));
        }
        let mut j = 0;
        for (k, x) in b.insts.iter().enumerate() {
            let mut ops = Vec::new();
            let Some(y) = a.insts.get(j) else {
                // A definition of undefined values only, which processimpdefs deletes.
                if deleted(x) || super::deadlanes::deletable(&cx, &def, x) {
                    continue;
                }
                return Err(format!("bb.{}: the instruction counts differ", a.num));
            };
            if deleted(x) {
                continue;
            }
            if super::deadlanes::deletable(&cx, &def, x) {
                // Kept or deleted (processimpdefs renames nothing: another register defined
                // in the after-instruction means deleted); else try the pair on copies first.
                if x.defs.first().map(|d| &d.kind) != y.defs.first().map(|d| &d.kind) {
                    continue;
                }
                let (mut m2, mut u2) = (m.clone(), undefs.clone());
                if inst(&cx, &mut m2, (x, y), &mut u2, &mut ops).is_err() {
                    continue;
                }
                (m, undefs) = (m2, u2);
            } else {
                inst(&cx, &mut m, (x, y), &mut undefs, &mut ops)
                    .map_err(|e| format!("bb.{}: {e}", a.num))?;
            }
            let at = |op| Added {
                block: n,
                before: k,
                after: j,
                op,
            };
            added.extend(ops.into_iter().map(at));
            j += 1;
        }
        if j != a.insts.len() {
            return Err(format!("bb.{}: the instruction counts differ", a.num));
        }
    }
    undef_defs(&cx, &m, &undefs)?;
    super::deadlanes::justify(&cx, &def, &added)
}
