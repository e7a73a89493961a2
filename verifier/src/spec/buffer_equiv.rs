//! Equivalence of two buffer (MUBUF/VBUFFER) instruction bodies with z3, and replay of a
//! difference on the concrete interpreter: the buffer counterpart of [`super::equiv`].
//!
//! Both bodies run through the one evaluator in a buffer frame (offen: VADDR is a 32-bit byte
//! offset; no idxen, no ADDR64) over the same symbolic inputs: VADDR, SRSRC (128-bit V#),
//! SOFFSET, OFFSET, LANE_ID, VDATA (as wide as the instruction's vdata operand; DATA and
//! RETURN_DATA start as VDATA, as in the verifier) and global memory. GLC, SC0 and the
//! returning-atomic bit read as 1, so an atomic's returned value is compared too.
//!
//! In-range assumption: documents describe accesses inside the buffer (their `MEM` has no
//! bound), so the V# is a raw buffer that holds every access: stride 0, no swizzle, no
//! ADD_TID, num_records 0xffffffff, OOB_SELECT 3 (raw) on RDNA, and VADDR + OFFSET (32-bit
//! wrap) + SOFFSET + 16 <= 0xffffffff. Out-of-range behaviour is gcnsmt's choice (README
//! "Buffer instructions"), not the documents' to match.
//!
//! A document's `MEM[ADDR]` (no `CalcBufferAddr`, no OFFSET anywhere) reads ADDR as the offset
//! within the record, VADDR + OFFSET, which each `MEM[...]` of a buffer frame completes with
//! base and soffset, exactly as it completes `CalcBufferAddr`'s result.

use super::equiv::{hex, mask, writes_return, Outcome, Side};
use crate::smt::{build, Answer, Query, Smt};
use gcnsmt_lifter::mubuf_table::{mubuf_lookup, MubufClass};
use gcnsmt_semantics::buffer::BufferMode;
use gcnsmt_semantics::domain::{BvOp, Domain};
use gcnsmt_semantics::eval::{run, Frame, MemState, Val};
use gcnsmt_semantics::interp::{Bits, CMem, Concrete};
use gcnsmt_semantics::settings::Settings;
use gcnsmt_semantics::target::Target;
use gcnsmt_semantics::ty::{Kind, Ty};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use std::time::Duration;

/// The V# bits 127:48 the in-range assumption fixes: OOB_SELECT 3 (bits 125:124, RDNA; unused
/// on GCN), ADD_TID 0, num_records 0xffffffff, swizzle 0, stride 0. Base (47:0) stays free.
const RSRC_HIGH: u128 = 0x3000_0000_ffff_ffff_0000;

/// The input names and widths in bits, and the instruction's class, for a buffer mnemonic.
fn inputs(mnemonic: &str, target: Target) -> Option<(Vec<(&'static str, u32)>, MubufClass)> {
    let (_, shape) = mubuf_lookup(target, &mnemonic.to_ascii_lowercase())?;
    let w = 32 * shape.vdata.max(1) as u32;
    Some((
        vec![
            ("VADDR", 32),
            ("SRSRC", 128),
            ("SOFFSET", 32),
            ("OFFSET", 32),
            ("LANE_ID", 32),
            ("VDATA", w),
        ],
        shape.class,
    ))
}

struct Ran<D: Domain> {
    global: D::Mem,
    vdata: Option<D::Bv>,
    ret: Option<D::Bv>,
}

fn run_side<D: Domain>(
    d: &mut D,
    settings: Settings,
    target: Target,
    side: &Side,
    vals: &BTreeMap<&'static str, D::Bv>,
    global: D::Mem,
) -> Result<Ran<D>, String> {
    let frame = Frame {
        settings,
        gds: false,
        aliases: side.aliases,
        buffer: Some(BufferMode {
            target,
            offen: true,
            idxen: false,
            addr64: false,
        }),
        global: false,
    };
    let mut vars = BTreeMap::new();
    for (n, v) in vals {
        let k = if *n == "OFFSET" { Kind::U } else { Kind::B };
        vars.insert(n.to_string(), Val::Bits(v.clone(), Ty::Bits(k, d.width(v))));
    }
    let vd = vals["VDATA"].clone();
    let vt = Ty::Bits(Kind::B, d.width(&vd));
    vars.insert("DATA".into(), Val::Bits(vd.clone(), vt));
    vars.insert("RETURN_DATA".into(), Val::Bits(vd, vt));
    let one = d.bv(1, 1);
    for flag in ["GLC", "SC0"] {
        vars.insert(flag.into(), Val::Bits(one.clone(), Ty::Bits(Kind::U, 1)));
    }
    if side.addr_is_effective {
        let a = d.op(BvOp::Add, &vals["VADDR"], &vals["OFFSET"]);
        vars.insert("ADDR".into(), Val::Bits(a, Ty::U32));
    }
    // Global memory is what buffer entries touch; LDS and GDS only fill their slots.
    let lds = global.clone();
    let ub = d.boolean(false);
    let mem = MemState {
        lds: lds.clone(),
        gds: lds,
        global,
        ub,
    };
    let (out, mem) =
        run(d, &frame, side.body, vars, mem).map_err(|e| format!("{}: {}", side.label, e.msg))?;
    let bits = |n: &str| match out.get(n) {
        Some(Val::Bits(b, _)) => Some(b.clone()),
        _ => None,
    };
    Ok(Ran {
        global: mem.global,
        vdata: bits("VDATA"),
        ret: bits("RETURN_DATA"),
    })
}

/// Compare two bodies of the buffer instruction `mnemonic` on `target` under the in-range
/// assumption (module docs): global memory at every address, VDATA after a load, and the
/// low bits both write of RETURN_DATA after an atomic.
///
/// Returns `Unknown` when the mnemonic is no buffer instruction of the target, a body fails
/// to evaluate, z3 gives up, or the model does not replay.
pub fn compare_buffer(
    mnemonic: &str,
    target: Target,
    a: &Side,
    b: &Side,
    timeout: Duration,
) -> Outcome {
    let Some((ins, class)) = inputs(mnemonic, target) else {
        return Outcome::Unknown(format!(
            "`{mnemonic}` is not a buffer instruction of {target}"
        ));
    };
    let mut s = Smt;
    let mut vals = BTreeMap::new();
    for (n, w) in &ins {
        vals.insert(*n, s.var(n, *w));
    }
    let global = s.mem_wide("GLOBAL", 64);
    let settings = Settings::default_for(target);
    let ra = match run_side(&mut s, settings, target, a, &vals, global.clone()) {
        Ok(r) => r,
        Err(e) => return Outcome::Unknown(e),
    };
    let rb = match run_side(&mut s, settings, target, b, &vals, global.clone()) {
        Ok(r) => r,
        Err(e) => return Outcome::Unknown(e),
    };
    let k = s.var("probe_address", 64);
    let mut diffs = vec![build::ne(
        &build::select(&ra.global, &k),
        &build::select(&rb.global, &k),
    )];
    let vd_bits = if class == MubufClass::Load {
        ins.iter().find(|(n, _)| *n == "VDATA").map_or(0, |x| x.1)
    } else {
        0
    };
    let mut vd_cmp = 0;
    if let (Some(x), Some(y)) = (&ra.vdata, &rb.vdata) {
        vd_cmp = vd_bits.min(s.width(x)).min(s.width(y));
        if vd_cmp > 0 {
            let xa = s.extract(x, vd_cmp - 1, 0);
            let yb = s.extract(y, vd_cmp - 1, 0);
            diffs.push(build::ne(&xa, &yb));
        }
    }
    let mut ret_bits = 0;
    if class == MubufClass::Atomic && writes_return(a.body) && writes_return(b.body) {
        if let (Some(x), Some(y)) = (&ra.ret, &rb.ret) {
            ret_bits = s.width(x).min(s.width(y));
            let xa = s.extract(x, ret_bits - 1, 0);
            let yb = s.extract(y, ret_bits - 1, 0);
            diffs.push(build::ne(&xa, &yb));
        }
    }
    let mut q = Query::new(timeout);
    let hi = s.extract(&vals["SRSRC"], 127, 48);
    q.assert(&build::eq_const(&hi, RSRC_HIGH));
    // VADDR + OFFSET (32-bit wrap) + SOFFSET + 16 fits below num_records, in 64 bits.
    let aoff = s.op(BvOp::Add, &vals["VADDR"], &vals["OFFSET"]);
    let aoff = s.zext(&aoff, 32);
    let soff = s.zext(&vals["SOFFSET"], 32);
    let end = s.op(BvOp::Add, &aoff, &soff);
    let sixteen = s.bv(16, 64);
    let end = s.op(BvOp::Add, &end, &sixteen);
    q.assert(&build::ule_const(&end, 0xffff_ffff));
    q.assert(&build::or(&diffs));
    let model = match q.check() {
        Answer::Unsat => return Outcome::Same,
        Answer::Unknown(r) => return Outcome::Unknown(format!("z3: {r}")),
        Answer::Sat(m) => m,
    };
    // Prefer a readable counterexample; each preference is kept only if a difference remains.
    let mut prefs = Vec::new();
    for n in ["VADDR", "OFFSET", "SOFFSET", "LANE_ID", "SRSRC"] {
        let v = &vals[n];
        let c = if n == "SRSRC" { RSRC_HIGH << 48 } else { 0 };
        prefs.push(build::eq_const(v, c));
    }
    prefs.push(build::ule_const(&vals["VDATA"], 0xff));
    let model = super::equiv::prefer(&mut q, prefs, model);
    let conc: BTreeMap<&'static str, u128> = vals.iter().map(|(n, v)| (*n, model.bv(v))).collect();
    let probe = model.bv(&k) as u64;
    let seen: Rc<RefCell<BTreeSet<u64>>> = Rc::default();
    let rec = seen.clone();
    let _ = replay(
        settings,
        target,
        a,
        b,
        &conc,
        &ins,
        CMem::new_wide(move |x| {
            rec.borrow_mut().insert(x);
            0
        }),
    );
    seen.borrow_mut().insert(probe);
    let bytes: BTreeMap<u64, u8> = seen
        .borrow()
        .iter()
        .map(|x| (*x, model.byte(&global, *x)))
        .collect();
    let table = bytes.clone();
    let mem = CMem::new_wide(move |x| table.get(&x).copied().unwrap_or(0));
    let (ca, cb) = match replay(settings, target, a, b, &conc, &ins, mem) {
        Ok(r) => r,
        Err(e) => return Outcome::Unknown(format!("replay: {e}")),
    };
    let mut touched: BTreeSet<u64> = bytes.keys().copied().collect();
    touched.extend(ca.global.written.keys().copied());
    touched.extend(cb.global.written.keys().copied());
    let mem_diff = touched
        .iter()
        .find(|x| ca.global.get64(**x) != cb.global.get64(**x))
        .copied();
    let low = |v: &Option<Bits>, w: u32| v.as_ref().map(|b| b.value & mask(w));
    let vd_diff = vd_cmp > 0 && low(&ca.vdata, vd_cmp) != low(&cb.vdata, vd_cmp);
    let ret_diff = ret_bits > 0 && low(&ca.ret, ret_bits) != low(&cb.ret, ret_bits);
    if mem_diff.is_none() && !vd_diff && !ret_diff {
        return Outcome::Unknown(
            "counterexample replay mismatch: z3's difference does not replay on the interpreter"
                .into(),
        );
    }
    let mut ev = Vec::new();
    let shown: Vec<String> = ins
        .iter()
        .filter(|(n, _)| *n != "LANE_ID")
        .map(|(n, w)| format!("{n} = {}", hex(conc[n], *w)))
        .collect();
    ev.push(("inputs".to_string(), shown.join(", ")));
    ev.push((
        "assumption".to_string(),
        "in range: raw V# (stride 0, num_records 0xffffffff, OOB_SELECT 3 on RDNA), offen, GLC/SC0 set"
            .to_string(),
    ));
    ev.push((
        "memory before".to_string(),
        super::equiv::ranges("MEM", &bytes, |x| bytes[&x]),
    ));
    for (label, r) in [(a.label, &ca), (b.label, &cb)] {
        let mut t = super::equiv::ranges("MEM", &touched.iter().map(|x| (*x, 0)).collect(), |x| {
            r.global.get64(x)
        });
        if vd_cmp > 0 {
            t.push_str(&format!(
                "; VDATA = {}",
                hex(low(&r.vdata, vd_cmp).unwrap_or(0), vd_cmp)
            ));
        }
        if ret_bits > 0 {
            t.push_str(&format!(
                "; RETURN_DATA = {}",
                hex(low(&r.ret, ret_bits).unwrap_or(0), ret_bits)
            ));
        }
        ev.push((format!("{label} result"), t));
    }
    let first = match mem_diff {
        Some(x) => format!(
            "MEM[{x:#x}]: {} {:#04x}, {} {:#04x}",
            a.label,
            ca.global.get64(x),
            b.label,
            cb.global.get64(x)
        ),
        None if vd_diff => "VDATA".to_string(),
        None => "RETURN_DATA".to_string(),
    };
    ev.push(("first difference".to_string(), first));
    Outcome::Differs(ev)
}

type Pair = (Ran<Concrete>, Ran<Concrete>);

fn replay(
    settings: Settings,
    target: Target,
    a: &Side,
    b: &Side,
    conc: &BTreeMap<&'static str, u128>,
    ins: &[(&'static str, u32)],
    mem: CMem,
) -> Result<Pair, String> {
    let mut c = Concrete;
    let vals: BTreeMap<&'static str, Bits> =
        ins.iter().map(|(n, w)| (*n, c.bv(conc[n], *w))).collect();
    let ra = run_side(&mut c, settings, target, a, &vals, mem.clone())?;
    let rb = run_side(&mut c, settings, target, b, &vals, mem)?;
    Ok((ra, rb))
}
