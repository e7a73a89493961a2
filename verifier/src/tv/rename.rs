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
use super::emit::class_bank;
use super::mir::{Function, Inst, OpKind, Operand};
use std::collections::BTreeMap;

/// The verdict reason of a block the renaming checker proves.
pub const PROVED: &str = "renaming checker: the after-function is the before-function with \
                          virtual registers renamed one to one (docs/tv.md)";

/// The dword bijection built so far.
#[derive(Default)]
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
) -> Result<(), String> {
    if !same_flags(x, y) {
        return Err(format!(
            "operand flags of {:?} and {:?} differ",
            x.kind, y.kind
        ));
    }
    let (OpKind::VReg { .. }, OpKind::VReg { .. }) = (&x.kind, &y.kind) else {
        return match x.kind == y.kind {
            true => Ok(()),
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
    if !def && y.flags.undef && !x.flags.undef {
        return Err(format!("an `undef` use of {:?} reads no value", y.kind));
    }
    if def && y.flags.undef {
        undefs.push((x, y));
    }
    Ok(())
}

/// One instruction pair.
fn inst<'a>(
    cx: &Ctx,
    m: &mut Map,
    b: &'a Inst,
    a: &'a Inst,
    undefs: &mut Vec<(&'a Operand, &'a Operand)>,
) -> Result<(), String> {
    let at = || format!("line {}: {}", a.loc.line, a.opcode);
    if b.opcode != a.opcode || b.mem != a.mem {
        return Err(format!("{}: differs from line {}", at(), b.loc.line));
    }
    if b.defs.len() != a.defs.len() || b.ops.len() != a.ops.len() {
        return Err(format!("{}: operand counts differ", at()));
    }
    let defs = b.defs.iter().zip(&a.defs).map(|p| (true, p));
    let ops = b.ops.iter().zip(&a.ops);
    let ops = ops.map(|(x, y)| (y.flags.def || y.flags.implicit_def, (x, y)));
    for (def, (x, y)) in defs.chain(ops) {
        operand(cx, m, def, x, y, undefs).map_err(|e| format!("{}: {e}", at()))?;
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
    let cx = Ctx {
        before: bf,
        after: af,
        image: None,
        lenient: false,
    };
    let mut m = Map::default();
    let mut undefs = Vec::new();
    for (b, a) in bf.blocks.iter().zip(&af.blocks) {
        if b.num != a.num || b.successors != a.successors || b.liveins != a.liveins {
            return Err(format!("bb.{}: the block's CFG or live-ins differ", a.num));
        }
        if b.insts.len() != a.insts.len() {
            return Err(format!("bb.{}: the instruction counts differ", a.num));
        }
        for (x, y) in b.insts.iter().zip(&a.insts) {
            inst(&cx, &mut m, x, y, &mut undefs).map_err(|e| format!("bb.{}: {e}", a.num))?;
        }
    }
    undef_defs(&cx, &m, &undefs)
}
