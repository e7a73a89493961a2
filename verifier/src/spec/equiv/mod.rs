//! One comparison engine: two instruction bodies (a document's and ours, or a description's
//! and a document's) on one instruction frame and one memory space, decided with z3 and a
//! difference replayed on the concrete interpreter.
//!
//! Both bodies run through the one evaluator (`gcnsmt_semantics::eval::run`) over the same
//! symbolic inputs, so a difference is a difference of the bodies and not of the address
//! model. z3 is asked for inputs where the compared memory at some address, or a compared
//! output's bits, differ. A model is replayed on [`Concrete`]; only a replayed difference is
//! returned as one. What a [`Family`] brings (module `family`):
//!
//! - DS: inputs ADDR, DATA0, DATA1, OFFSET, OFFSET0, OFFSET1, M0, LDS_SIZE, LANE_ID, the old
//!   destination and LDS, with the target's default alignment and no LDS bound; LDS and the
//!   destination compared.
//! - Buffer (MUBUF/VBUFFER): a buffer frame (offen: VADDR is a 32-bit byte offset; no idxen,
//!   no ADDR64) over VADDR, SRSRC (128-bit V#), SOFFSET, OFFSET, LANE_ID, VDATA (as wide as
//!   the instruction's vdata operand; DATA and RETURN_DATA start as VDATA, as in the
//!   verifier) and global memory. GLC, SC0 and the returning-atomic bit read as 1, so an
//!   atomic's returned value is compared too.
//!
//!   In-range assumption: documents describe accesses inside the buffer (their `MEM` has no
//!   bound), so the V# is a raw buffer that holds every access: stride 0, no swizzle, no
//!   ADD_TID, num_records 0xffffffff, OOB_SELECT 3 (raw) on RDNA, and VADDR + OFFSET (32-bit
//!   wrap) + SOFFSET + 16 <= 0xffffffff. Out-of-range behaviour is gcnsmt's choice (README
//!   "Buffer instructions"), not the documents' to match.
//!
//!   A document's `MEM[ADDR]` (no `CalcBufferAddr`, no OFFSET anywhere) reads ADDR as the
//!   offset within the record, VADDR + OFFSET, which each `MEM[...]` of a buffer frame
//!   completes with base and soffset, exactly as it completes `CalcBufferAddr`'s result.

mod evidence;
mod family;

pub(crate) use evidence::{hex, mask};
pub use family::Family;

use crate::smt::{build, Answer, Query, Smt};
use evidence::{prefer, ranges};
use family::Setup;
use gcnsmt_semantics::domain::Domain;
use gcnsmt_semantics::eval::{run, Frame, MemView, Val};
use gcnsmt_semantics::interp::{Bits, CMem, Concrete};
use gcnsmt_semantics::ir::{Def, Stmt};
use gcnsmt_semantics::target::Target;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use std::time::Duration;

/// One body to compare.
pub struct Side<'a> {
    /// How the report names this side ("document", "description", "gcnsmt").
    pub label: &'a str,
    /// The statements of this side's body, in the semantics IR.
    pub body: &'a [Stmt],
    /// Operand aliases (`SRC = DATA1`) for this body.
    pub aliases: &'a [(String, String)],
    /// The text writes `MEM[ADDR]` for the effective address (no offset anywhere in it): its
    /// `ADDR` is bound to ADDR + OFFSET.
    pub addr_is_effective: bool,
    /// The text models DWORD alignment itself (CLRX's `(ADDR+OFFSET)&~3`): both sides then
    /// run with `alignment=DWORD`, the mode that text describes, on every target (DS only).
    pub dword: bool,
}

impl<'a> Side<'a> {
    /// A text's body under `label`, with no aliases, its `ADDR` the operand, no DWORD mode.
    pub fn text(label: &'a str, body: &'a [Stmt]) -> Side<'a> {
        Side {
            label,
            body,
            aliases: &[],
            addr_is_effective: false,
            dword: false,
        }
    }

    /// gcnsmt's semantics entry `entry` of `def` (with that entry's operand aliases).
    pub fn ours(entry: &str, def: &'a Def) -> Side<'a> {
        Side {
            aliases: def.aliases_for(entry).unwrap_or(&[]),
            ..Side::text("gcnsmt", &def.body)
        }
    }
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

/// What one body left: the compared memory, and the values of [`Family::results`] (`None`
/// where a body leaves a name unset).
struct Ran<D: Domain> {
    mem: D::Mem,
    results: Vec<(&'static str, Option<D::Bv>)>,
}

impl<D: Domain> Ran<D> {
    /// The value a body left in `name`, one of [`Family::results`].
    fn out(&self, name: &str) -> Option<&D::Bv> {
        self.results
            .iter()
            .find(|(n, _)| *n == name)
            .and_then(|(_, v)| v.as_ref())
    }
}

fn run_side<D: Domain>(
    d: &mut D,
    setup: &Setup,
    side: &Side,
    vals: &BTreeMap<&'static str, D::Bv>,
    mem: D::Mem,
    other: Option<D::Mem>,
) -> Result<Ran<D>, String> {
    let frame = Frame {
        settings: setup.settings,
        mem: MemView::Space(setup.family.space()),
        aliases: side.aliases,
        buffer: setup.buffer,
    };
    let vars = setup.family.bind(d, vals, side);
    let ub = d.boolean(false);
    let state = setup.family.state(mem, other, ub);
    let (out, state) =
        run(d, &frame, side.body, vars, state).map_err(|e| format!("{}: {}", side.label, e.msg))?;
    let results = setup
        .family
        .results()
        .iter()
        .map(|n| match out.get(*n) {
            Some(Val::Bits(b, _)) => (*n, Some(b.clone())),
            _ => (*n, None),
        })
        .collect();
    Ok(Ran {
        mem: setup.family.compared(state),
        results,
    })
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

/// Compare two bodies of the `family` instruction `mnemonic` on `target`: the compared
/// memory at every address, and the low bits both write of each compared output (DS: the
/// destination when the instruction has one; buffer: VDATA after a load, RETURN_DATA after
/// an atomic).
///
/// Returns `Unknown` when the mnemonic has no shape of the family on the target, a body
/// fails to evaluate, z3 gives up, or the model does not replay.
pub fn compare(
    family: Family,
    mnemonic: &str,
    target: Target,
    a: &Side,
    b: &Side,
    timeout: Duration,
) -> Outcome {
    let setup = match family.setup(mnemonic, target, a, b) {
        Ok(s) => s,
        Err(e) => return Outcome::Unknown(e),
    };
    let mut s = Smt;
    let mut vals = BTreeMap::new();
    for (n, w) in &setup.inputs {
        vals.insert(*n, s.var(n, *w));
    }
    let (mem, other) = family.smt_mems(&mut s);
    let ra = match run_side(&mut s, &setup, a, &vals, mem.clone(), other.clone()) {
        Ok(r) => r,
        Err(e) => return Outcome::Unknown(e),
    };
    let rb = match run_side(&mut s, &setup, b, &vals, mem.clone(), other) {
        Ok(r) => r,
        Err(e) => return Outcome::Unknown(e),
    };
    let k = s.var("probe_address", family.space().addr_width());
    let mut diffs = vec![build::ne(
        &build::select(&ra.mem, &k),
        &build::select(&rb.mem, &k),
    )];
    // Bits compared per output (0: not compared, as one body does not write it).
    let mut bits = vec![0; setup.outputs.len()];
    for (i, (name, cap)) in setup.outputs.iter().enumerate() {
        if let (Some(x), Some(y)) = (ra.out(name), rb.out(name)) {
            bits[i] = (*cap).min(s.width(x)).min(s.width(y));
            if bits[i] > 0 {
                let xa = s.extract(x, bits[i] - 1, 0);
                let yb = s.extract(y, bits[i] - 1, 0);
                diffs.push(build::ne(&xa, &yb));
            }
        }
    }
    let mut q = Query::new(timeout);
    let assumed = family.assumptions(&mut s, &vals);
    for p in &assumed.props {
        q.assert(p);
    }
    q.assert(&build::or(&diffs));
    let model = match q.check() {
        Answer::Unsat => return Outcome::Same,
        Answer::Unknown(r) => return Outcome::Unknown(format!("z3: {r}")),
        Answer::Sat(m) => m,
    };
    // Each preference is kept only if a difference remains under it.
    let prefs = family.prefs(&vals, &k);
    let model = prefer(&mut q, prefs, model);
    let conc: BTreeMap<&'static str, u128> = vals.iter().map(|(n, v)| (*n, model.bv(v))).collect();
    let probe = model.bv(&k) as u64;
    // First replay with a recording memory to learn which bytes the bodies read, then with
    // the model's bytes there.
    let seen: Rc<RefCell<BTreeSet<u64>>> = Rc::default();
    let rec = seen.clone();
    let _ = replay(
        &setup,
        a,
        b,
        &conc,
        family.concrete_mems(move |x| {
            rec.borrow_mut().insert(x);
            0
        }),
    );
    seen.borrow_mut().insert(probe);
    let bytes: BTreeMap<u64, u8> = seen
        .borrow()
        .iter()
        .map(|x| (*x, model.byte(&mem, *x)))
        .collect();
    let table = bytes.clone();
    let mems = family.concrete_mems(move |x| table.get(&x).copied().unwrap_or(0));
    let (ca, cb) = match replay(&setup, a, b, &conc, mems) {
        Ok(r) => r,
        Err(e) => return Outcome::Unknown(format!("replay: {e}")),
    };
    let replayed = Replayed {
        setup: &setup,
        conc: &conc,
        bytes: &bytes,
        bits: &bits,
        sides: [(a.label, &ca), (b.label, &cb)],
    };
    match replayed.evidence() {
        Some(ev) => Outcome::Differs(ev),
        None => Outcome::Unknown(
            "counterexample replay mismatch: z3's difference does not replay on the interpreter"
                .into(),
        ),
    }
}

/// Both bodies replayed on a model's inputs and bytes.
struct Replayed<'a> {
    setup: &'a Setup,
    conc: &'a BTreeMap<&'static str, u128>,
    /// The model's bytes at every address a body read, and at the probe address.
    bytes: &'a BTreeMap<u64, u8>,
    /// Bits compared per output.
    bits: &'a [u32],
    sides: [(&'a str, &'a Ran<Concrete>); 2],
}

impl Replayed<'_> {
    /// The evidence of the difference, or `None` when the replay shows none.
    fn evidence(&self) -> Option<Vec<(String, String)>> {
        let [(la, ca), (lb, cb)] = self.sides;
        let space = self.setup.family.space().label();
        let mut touched: BTreeSet<u64> = self.bytes.keys().copied().collect();
        touched.extend(ca.mem.written.keys().copied());
        touched.extend(cb.mem.written.keys().copied());
        let mem_diff = touched
            .iter()
            .find(|x| ca.mem.get64(**x) != cb.mem.get64(**x))
            .copied();
        let low = |r: &Ran<Concrete>, i: usize| {
            let name = self.setup.outputs[i].0;
            r.out(name).map(|b: &Bits| b.value & mask(self.bits[i]))
        };
        let out_diff = (0..self.bits.len()).find(|&i| self.bits[i] > 0 && low(ca, i) != low(cb, i));
        if mem_diff.is_none() && out_diff.is_none() {
            return None;
        }
        let hidden = self.setup.family.hidden();
        let shown: Vec<String> = self
            .setup
            .inputs
            .iter()
            .filter(|(n, _)| !hidden.contains(n))
            .map(|(n, w)| format!("{n} = {}", hex(self.conc[n], *w)))
            .collect();
        let mut ev = vec![("inputs".to_string(), shown.join(", "))];
        if let Some(a) = self.setup.family.assumption() {
            ev.push(("assumption".to_string(), a.to_string()));
        }
        ev.push((
            "memory before".to_string(),
            ranges(space, self.bytes, |x| self.bytes[&x]),
        ));
        let zeros: BTreeMap<u64, u8> = touched.iter().map(|x| (*x, 0)).collect();
        for (label, r) in self.sides {
            let mut t = ranges(space, &zeros, |x| r.mem.get64(x));
            for (i, (name, _)) in self.setup.outputs.iter().enumerate() {
                if self.bits[i] > 0 {
                    let v = hex(low(r, i).unwrap_or(0), self.bits[i]);
                    t.push_str(&format!("; {name} = {v}"));
                }
            }
            ev.push((format!("{label} result"), t));
        }
        let first = match mem_diff {
            Some(x) => format!(
                "{space}[{x:#x}]: {la} {:#04x}, {lb} {:#04x}",
                ca.mem.get64(x),
                cb.mem.get64(x)
            ),
            None => self.setup.outputs[out_diff?].0.to_string(),
        };
        ev.push(("first difference".to_string(), first));
        Some(ev)
    }
}

type Pair = (Ran<Concrete>, Ran<Concrete>);

/// Both bodies on the concrete interpreter with the inputs `conc` and memories `mems`.
fn replay(
    setup: &Setup,
    a: &Side,
    b: &Side,
    conc: &BTreeMap<&'static str, u128>,
    mems: (CMem, Option<CMem>),
) -> Result<Pair, String> {
    let mut c = Concrete;
    let vals: BTreeMap<&'static str, Bits> = setup
        .inputs
        .iter()
        .map(|(n, w)| (*n, c.bv(conc[n], *w)))
        .collect();
    let (mem, other) = mems;
    let ra = run_side(&mut c, setup, a, &vals, mem.clone(), other.clone())?;
    let rb = run_side(&mut c, setup, b, &vals, mem, other)?;
    Ok((ra, rb))
}
