//! Equivalence of two instruction bodies (a document's and ours, or a description's and a
//! document's) with z3, and replay of a difference on the concrete interpreter.
//!
//! Both bodies run through the one evaluator (`gcnsmt_semantics::eval::run`) over the same
//! symbolic inputs (ADDR, DATA0, DATA1, OFFSET, OFFSET0, OFFSET1, M0, LDS_SIZE, LANE_ID, the
//! old destination and LDS), with the target's default alignment and no LDS bound, so a
//! difference is a difference of the bodies and not of the address model. z3 is asked for
//! inputs where LDS at some address, or the destination's bits, differ. A model is replayed
//! on [`Concrete`]; only a replayed difference is returned as one.

use crate::smt::{build, Answer, Query, Smt};
use gcnsmt_lifter::table::{ds_lookup, OffsetKind};
use gcnsmt_semantics::domain::Domain;
use gcnsmt_semantics::eval::{run, Frame, MemState, Val};
use gcnsmt_semantics::interp::{Bits, CMem, Concrete};
use gcnsmt_semantics::ir::Stmt;
use gcnsmt_semantics::settings::Settings;
use gcnsmt_semantics::target::Target;
use gcnsmt_semantics::ty::{Kind, Ty};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use std::time::Duration;

/// One body to compare.
pub struct Side<'a> {
    /// How the report names this side ("document", "description", "gcnsmt").
    pub label: &'a str,
    pub body: &'a [Stmt],
    /// Operand aliases (`SRC = DATA1`) for this body.
    pub aliases: &'a [(String, String)],
    /// The text writes `MEM[ADDR]` for the effective address (no offset anywhere in it): its
    /// `ADDR` is bound to ADDR + OFFSET.
    pub addr_is_effective: bool,
    /// The text models DWORD alignment itself (CLRX's `(ADDR+OFFSET)&~3`): both sides then
    /// run with `alignment=DWORD`, the mode that text describes, on every target.
    pub dword: bool,
}

/// The answer.
pub enum Outcome {
    /// No input makes the bodies differ.
    Same,
    /// A replayed difference: evidence items (inputs, initial memory, each side's results,
    /// first difference).
    Differs(Vec<(String, String)>),
    /// Undecided: timeout, evaluation error, or a model that did not replay.
    Unknown(String),
}

/// Input names with their widths in bits, the destination width, and the offset form.
type Inputs = (Vec<(&'static str, u32)>, u32, OffsetKind);

/// Input names and widths in bits for an instruction's shape on a target.
fn inputs(mnemonic: &str, target: Target) -> Option<Inputs> {
    let (_, shape) = ds_lookup(target, &mnemonic.to_ascii_lowercase())?;
    let dw = |n: u8| if n == 0 { 32 } else { 32 * n as u32 };
    let v = vec![
        ("ADDR", 32),
        ("DATA0", dw(shape.data0)),
        ("DATA1", dw(shape.data1)),
        ("OFFSET", 16),
        ("M0", 32),
        ("LDS_SIZE", 32),
        ("LANE_ID", 32),
        ("RETURN_DATA", 128),
    ];
    Some((v, shape.vdst as u32 * 32, shape.offset))
}

fn vars_for<D: Domain>(
    d: &mut D,
    vals: &BTreeMap<&'static str, D::Bv>,
    side: &Side,
) -> BTreeMap<String, Val<D>> {
    let mut m = BTreeMap::new();
    let ty = |w: u32, k: Kind| Ty::Bits(k, w);
    for (n, v) in vals {
        let w = d.width(v);
        let k = if matches!(*n, "OFFSET") {
            Kind::U
        } else {
            Kind::B
        };
        m.insert(n.to_string(), Val::Bits(v.clone(), ty(w, k)));
    }
    let off = vals["OFFSET"].clone();
    let o0 = d.extract(&off, 7, 0);
    let o1 = d.extract(&off, 15, 8);
    m.insert("OFFSET0".into(), Val::Bits(o0, ty(8, Kind::U)));
    m.insert("OFFSET1".into(), Val::Bits(o1, ty(8, Kind::U)));
    let mut addr = vals["ADDR"].clone();
    if side.addr_is_effective {
        let o = d.zext(&off, 16);
        addr = d.op(gcnsmt_semantics::domain::BvOp::Add, &addr, &o);
        m.insert("ADDR".into(), Val::Bits(addr.clone(), ty(32, Kind::B)));
    }
    // Names documents use for the same operands (RDNA4 `vgpr_a`/`offset`, `ADDR_BASE`, `laneID`).
    m.insert("vgpr_a".into(), Val::Bits(addr.clone(), ty(32, Kind::B)));
    m.insert("ADDR_BASE".into(), Val::Bits(addr, ty(32, Kind::B)));
    m.insert("offset".into(), Val::Bits(off, ty(16, Kind::U)));
    m.insert(
        "laneID".into(),
        Val::Bits(vals["LANE_ID"].clone(), ty(32, Kind::B)),
    );
    m
}

struct Ran<D: Domain> {
    lds: D::Mem,
    ret: Option<D::Bv>,
}

fn run_side<D: Domain>(
    d: &mut D,
    settings: Settings,
    side: &Side,
    vals: &BTreeMap<&'static str, D::Bv>,
    lds: D::Mem,
    gds: D::Mem,
) -> Result<Ran<D>, String> {
    let frame = Frame {
        settings,
        gds: false,
        aliases: side.aliases,
        buffer: None,
        global: false,
    };
    let vars = vars_for(d, vals, side);
    let ub = d.boolean(false);
    // DS entries never touch global memory (no buffer frame); any memory value fills the slot.
    let global = gds.clone();
    let mem = MemState {
        lds,
        gds,
        global,
        ub,
    };
    let (out, mem) =
        run(d, &frame, side.body, vars, mem).map_err(|e| format!("{}: {}", side.label, e.msg))?;
    let ret = match out.get("RETURN_DATA") {
        Some(Val::Bits(b, _)) => Some(b.clone()),
        _ => None,
    };
    Ok(Ran { lds: mem.lds, ret })
}

/// Whether a body assigns `RETURN_DATA` anywhere.
pub fn writes_return(body: &[Stmt]) -> bool {
    use gcnsmt_semantics::ir::LValue;
    body.iter().any(|s| match s {
        Stmt::Assign(LValue::Var { name, .. }, _) => name == "RETURN_DATA",
        Stmt::If(arms, els) => arms.iter().any(|(_, b)| writes_return(b)) || writes_return(els),
        _ => false,
    })
}

/// Compare two bodies for `mnemonic` on `target`. The destination is compared when the
/// instruction has one and both bodies write it (its low `min` bits of what each writes).
///
/// Returns `Unknown` when the mnemonic has no DS shape on the target, a body fails to
/// evaluate, z3 gives up, or the model does not replay.
pub fn compare(mnemonic: &str, target: Target, a: &Side, b: &Side, timeout: Duration) -> Outcome {
    let Some((ins, vdst_bits, _)) = inputs(mnemonic, target) else {
        return Outcome::Unknown(format!("`{mnemonic}` is not a DS instruction of {target}"));
    };
    let with_ret = vdst_bits > 0 && writes_return(a.body) && writes_return(b.body);
    let mut s = Smt;
    let mut vals = BTreeMap::new();
    for (n, w) in &ins {
        vals.insert(*n, s.var(n, *w));
    }
    let lds = s.mem("LDS");
    let gds = s.mem("GDS");
    let mut settings = Settings::default_for(target);
    // Documents describe in-range accesses (their MEM has no bound); gcnsmt's choice for
    // partly out-of-range accesses (README "Assumptions") is not the document's to match.
    settings.lds_limit = gcnsmt_semantics::settings::LdsLimit::None;
    if a.dword || b.dword {
        settings.alignment = gcnsmt_semantics::settings::Alignment::Dword;
    }
    let ra = match run_side(&mut s, settings, a, &vals, lds.clone(), gds.clone()) {
        Ok(r) => r,
        Err(e) => return Outcome::Unknown(e),
    };
    let rb = match run_side(&mut s, settings, b, &vals, lds.clone(), gds.clone()) {
        Ok(r) => r,
        Err(e) => return Outcome::Unknown(e),
    };
    let k = s.var("probe_address", 32);
    let mut diffs = vec![build::ne(
        &build::select(&ra.lds, &k),
        &build::select(&rb.lds, &k),
    )];
    let mut ret_bits = 0;
    if with_ret {
        if let (Some(x), Some(y)) = (&ra.ret, &rb.ret) {
            ret_bits = vdst_bits.min(s.width(x)).min(s.width(y));
            let xa = s.extract(x, ret_bits - 1, 0);
            let yb = s.extract(y, ret_bits - 1, 0);
            diffs.push(build::ne(&xa, &yb));
        }
    }
    let mut q = Query::new(timeout);
    q.assert(&build::or(&diffs));
    let model = match q.check() {
        Answer::Unsat => return Outcome::Same,
        Answer::Unknown(r) => return Outcome::Unknown(format!("z3: {r}")),
        Answer::Sat(m) => m,
    };
    // Prefer a readable counterexample: zero addresses and unused inputs, small data. Each
    // preference is kept only if a difference remains under it.
    let mut prefs: Vec<crate::smt::Prop> = Vec::new();
    for n in [
        "ADDR",
        "OFFSET",
        "M0",
        "LDS_SIZE",
        "LANE_ID",
        "RETURN_DATA",
        "DATA1",
        "DATA0",
    ] {
        prefs.push(build::eq_const(&vals[n], 0));
    }
    prefs.push(build::eq_const(&k, 0));
    prefs.push(build::ule_const(&vals["DATA0"], 0xff));
    prefs.push(build::ule_const(&vals["DATA1"], 0xff));
    let model = prefer(&mut q, prefs, model);
    let mut conc: BTreeMap<&'static str, u128> = BTreeMap::new();
    for (n, v) in &vals {
        conc.insert(*n, model.bv(v));
    }
    let probe = model.bv(&k) as u32;
    // First replay with a recording memory to learn which bytes the bodies read, then with
    // the model's bytes there.
    let seen: Rc<RefCell<BTreeSet<u32>>> = Rc::default();
    let rec = seen.clone();
    let _ = replay(
        settings,
        a,
        b,
        &conc,
        &ins,
        CMem::new(move |x| {
            rec.borrow_mut().insert(x);
            0
        }),
    );
    seen.borrow_mut().insert(probe);
    let bytes: BTreeMap<u32, u8> = seen
        .borrow()
        .iter()
        .map(|x| (*x, model.byte(&lds, *x as u64)))
        .collect();
    let table = bytes.clone();
    let mem = CMem::new(move |x| table.get(&x).copied().unwrap_or(0));
    let (ca, cb) = match replay(settings, a, b, &conc, &ins, mem) {
        Ok(r) => r,
        Err(e) => return Outcome::Unknown(format!("replay: {e}")),
    };
    let mut touched: BTreeSet<u32> = bytes.keys().copied().collect();
    touched.extend(ca.lds.written.keys().map(|k| *k as u32));
    touched.extend(cb.lds.written.keys().map(|k| *k as u32));
    let mem_diff = touched
        .iter()
        .find(|x| ca.lds.get(**x) != cb.lds.get(**x))
        .copied();
    let ret_of = |r: &Ran<Concrete>| r.ret.map(|b| b.value & mask(ret_bits));
    let ret_diff = ret_bits > 0 && ret_of(&ca) != ret_of(&cb);
    if mem_diff.is_none() && !ret_diff {
        return Outcome::Unknown(
            "counterexample replay mismatch: z3's difference does not replay on the interpreter"
                .into(),
        );
    }
    let mut ev = Vec::new();
    let shown: Vec<String> = ins
        .iter()
        .filter(|(n, _)| *n != "RETURN_DATA" && *n != "LANE_ID")
        .map(|(n, w)| format!("{n} = {}", hex(conc[n], *w)))
        .collect();
    ev.push(("inputs".to_string(), shown.join(", ")));
    ev.push((
        "memory before".to_string(),
        ranges("LDS", &bytes, |x| bytes[&x]),
    ));
    for (label, r) in [(a.label, &ca), (b.label, &cb)] {
        let mut t = ranges("LDS", &touched.iter().map(|x| (*x, 0)).collect(), |x| {
            r.lds.get(x)
        });
        if ret_bits > 0 {
            t.push_str(&format!(
                "; RETURN_DATA = {}",
                hex(ret_of(r).unwrap_or(0), ret_bits)
            ));
        }
        ev.push((format!("{label} result"), t));
    }
    let first = match mem_diff {
        Some(x) => format!(
            "LDS[{x:#x}]: {} {:#04x}, {} {:#04x}",
            a.label,
            ca.lds.get(x),
            b.label,
            cb.lds.get(x)
        ),
        None => "RETURN_DATA".to_string(),
    };
    ev.push(("first difference".to_string(), first));
    Outcome::Differs(ev)
}

pub(crate) fn mask(w: u32) -> u128 {
    if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

pub(crate) fn hex(v: u128, w: u32) -> String {
    format!("{v:#0width$x}", width = (w as usize).div_ceil(4) + 2)
}

/// Keep each preference (in order) that the query still satisfies, for a readable model;
/// returns the model of the last one kept (or `model`).
pub(crate) fn prefer(
    q: &mut Query,
    prefs: Vec<crate::smt::Prop>,
    mut model: crate::smt::Model,
) -> crate::smt::Model {
    for p in prefs {
        q.push();
        q.assert(&p);
        match q.check() {
            Answer::Sat(m) => model = m,
            _ => q.pop(),
        }
    }
    model
}

/// Byte ranges as `LDS[0x0..0x3] = 05 00 00 00` (`space` = `LDS`, `MEM`), contiguous
/// addresses grouped.
pub(crate) fn ranges<K>(space: &str, addrs: &BTreeMap<K, u8>, byte: impl Fn(K) -> u8) -> String
where
    K: Copy + Ord + Into<u64> + std::fmt::LowerHex,
{
    let mut out: Vec<String> = Vec::new();
    let keys: Vec<K> = addrs.keys().copied().collect();
    let mut i = 0;
    while i < keys.len() {
        let mut j = i;
        while j + 1 < keys.len() && keys[j + 1].into() == keys[j].into().wrapping_add(1) {
            j += 1;
        }
        let bs: Vec<String> = keys[i..=j]
            .iter()
            .map(|x| format!("{:02x}", byte(*x)))
            .collect();
        out.push(format!(
            "{space}[{:#x}..{:#x}] = {}",
            keys[i],
            keys[j],
            bs.join(" ")
        ));
        i = j + 1;
    }
    if out.is_empty() {
        format!("{space} all zero")
    } else {
        out.join("; ")
    }
}

type Pair = (Ran<Concrete>, Ran<Concrete>);

fn replay(
    settings: Settings,
    a: &Side,
    b: &Side,
    conc: &BTreeMap<&'static str, u128>,
    ins: &[(&'static str, u32)],
    mem: CMem,
) -> Result<Pair, String> {
    let mut c = Concrete;
    let mut vals: BTreeMap<&'static str, Bits> = BTreeMap::new();
    for (n, w) in ins {
        vals.insert(*n, c.bv(conc[n], *w));
    }
    let gds = CMem::new(|_| 0);
    let ra = run_side(&mut c, settings, a, &vals, mem.clone(), gds.clone())?;
    let rb = run_side(&mut c, settings, b, &vals, mem, gds)?;
    Ok((ra, rb))
}
