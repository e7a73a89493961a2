//! The inputs table of a check: every value the initial state leaves free (register dwords,
//! immediates, `LDS_SIZE`, `LANE_ID`), with its name, width and slot, and the initial state
//! built from it in any semantics domain. The solver query declares one variable per entry;
//! a replay reads the same entries from a model, and the result cache stores them by name, so
//! the three agree on what an input is by construction.

use crate::machine::{Env, Machine, RegKey};
use crate::smt::{Model, Smt};
use gcnsmt_semantics::domain::Domain;
use gcnsmt_semantics::eval::{Frame, MemState, Val};
use gcnsmt_semantics::interp::{Bits, Concrete};
use gcnsmt_semantics::settings::Settings;
use gcnsmt_semantics::target::Target;
use gcnsmt_semantics::ty::{Kind, Ty};
use std::collections::{BTreeMap, BTreeSet};

/// Where an input sits in the initial state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Slot {
    /// One 32-bit register: a dword of a rule variable, a named register, M0, EXEC, or a
    /// lane's id under `--lanes`.
    Reg(RegKey),
    /// An immediate variable (name without `%`), 64 bits wide and assumed below 2^32.
    Imm(String),
    /// `LDS_SIZE`, 32 bits.
    LdsSize,
    /// `LANE_ID` of a single-lane check, 32 bits.
    LaneId,
}

/// One input of a check.
#[derive(Clone, Debug)]
pub(super) struct Input {
    pub slot: Slot,
    /// As a counterexample prints it and the result cache stores it: `%a`, `%r[1]`, `m0`,
    /// `LDS_SIZE`, `LANE_ID`.
    pub name: String,
    /// The solver variable's name, as `--emit-smt2` writes it (`[` and `]` are not SMT-LIB
    /// symbol characters, so `%r[1]` is `%r_1_`).
    pub var: String,
    /// Width in bits of the variable.
    pub width: u32,
    /// The width a counterexample prints the value with (immediates: 32, since they are
    /// below 2^32); `None` when the input is not printed because no run reads it (LDS_SIZE
    /// without `lds_limit=ALLOC`) or each lane has its own (LANE_ID under `--lanes`).
    pub shown: Option<u32>,
}

/// The inputs of a check comparing programs that name the registers `keys` (M0 included) and
/// the immediates `imms`, in the order a counterexample prints them: immediates, registers,
/// LDS_SIZE, LANE_ID. `alloc`: `lds_limit=ALLOC`; `lanes`: a multi-lane check.
pub(super) fn table(
    keys: &BTreeSet<RegKey>,
    imms: &BTreeSet<String>,
    alloc: bool,
    lanes: bool,
) -> Vec<Input> {
    let imms = imms.iter().map(|v| Input {
        slot: Slot::Imm(v.clone()),
        name: format!("%{v}"),
        var: format!("%{v}"),
        width: 64,
        shown: Some(32),
    });
    let regs = keys.iter().map(|k| Input {
        slot: Slot::Reg(k.clone()),
        name: k.to_string(),
        var: k.to_string().replace(['[', ']'], "_"),
        width: 32,
        shown: Some(32),
    });
    let env = [
        Input {
            slot: Slot::LdsSize,
            name: "LDS_SIZE".into(),
            var: "LDS_SIZE".into(),
            width: 32,
            shown: alloc.then_some(32),
        },
        Input {
            slot: Slot::LaneId,
            name: "LANE_ID".into(),
            var: "LANE_ID".into(),
            width: 32,
            shown: (!lanes).then_some(32),
        },
    ];
    imms.chain(regs).chain(env).collect()
}

/// The initial state of a check in domain `D`: the environment (immediates, LDS_SIZE,
/// LANE_ID) and the machine (registers, memories).
pub(super) struct Inputs<D: Domain> {
    pub env: Env<D>,
    pub m0: Machine<D>,
}

impl<D: Domain> Inputs<D> {
    /// The value of the input in `slot`.
    ///
    /// Panics if the slot is not one of this state's table (an internal error).
    pub fn at(&self, slot: &Slot) -> &D::Bv {
        match slot {
            Slot::Reg(k) => &self.m0.regs[k],
            Slot::Imm(v) => &self.env.imms[v],
            Slot::LdsSize => &self.env.lds_size,
            Slot::LaneId => &self.env.lane_id,
        }
    }
}

impl Inputs<Smt> {
    /// One solver variable per input of `table`, and the initial memories as uninterpreted
    /// functions named by their space's label (`LDS`, `GDS`, `MEM`, `SCRATCH`) with
    /// its address width, defined (`ub` false).
    pub fn declare(d: &mut Smt, table: &[Input], target: Target, settings: Settings) -> Self {
        // Registers are declared before the other inputs, as the query always did: z3's
        // search, and with it which model comes back, can depend on declaration order.
        let regs = table.iter().filter(|i| matches!(i.slot, Slot::Reg(_)));
        let others = table.iter().filter(|i| !matches!(i.slot, Slot::Reg(_)));
        let mut imms = BTreeMap::new();
        let mut regs_of = BTreeMap::new();
        let (mut lds_size, mut lane_id) = (None, None);
        for i in regs.chain(others) {
            let t = d.var(&i.var, i.width);
            match &i.slot {
                Slot::Reg(k) => {
                    regs_of.insert(k.clone(), t);
                }
                Slot::Imm(v) => {
                    imms.insert(v.clone(), t);
                }
                Slot::LdsSize => lds_size = Some(t),
                Slot::LaneId => lane_id = Some(t),
            }
        }
        let env = Env {
            target,
            settings,
            imms,
            lds_size: lds_size.expect("the table has LDS_SIZE"),
            lane_id: lane_id.expect("the table has LANE_ID"),
        };
        let ub = d.boolean(false);
        let m0 = Machine {
            regs: regs_of,
            mem: MemState::new(|s| d.mem_wide(s.label(), s.addr_width()), ub),
        };
        Inputs { env, m0 }
    }

    /// The values `model` gives every input, on memories `mem` (which the caller builds: the
    /// concrete memories read the model byte by byte or flag any read).
    pub fn concrete(&self, model: &Model, mem: MemState<Concrete>) -> Inputs<Concrete> {
        let bits = |t: &crate::smt::Term| Bits {
            value: model.bv(t),
            width: Smt.width(t),
        };
        Inputs {
            env: Env {
                target: self.env.target,
                settings: self.env.settings,
                imms: self
                    .env
                    .imms
                    .iter()
                    .map(|(k, t)| (k.clone(), bits(t)))
                    .collect(),
                lds_size: bits(&self.env.lds_size),
                lane_id: bits(&self.env.lane_id),
            },
            m0: Machine {
                regs: self
                    .m0
                    .regs
                    .iter()
                    .map(|(k, t)| (k.clone(), bits(t)))
                    .collect(),
                mem,
            },
        }
    }
}

/// The frame a precondition is evaluated in: the rule's settings, LDS as MEM, no operand
/// aliases, no buffer instruction.
pub(super) fn pre_frame(settings: Settings) -> Frame<'static> {
    Frame::plain(settings)
}

/// Variables a precondition can name: immediates (64-bit), register variables (their initial
/// value, 32 bits per dword, `keys` being the registers in view), the concrete registers in
/// view (`v1`, `s2`, `a0`, `vcc_lo`: 32 bits), M0 (also `m0`), LDS_SIZE, LANE_ID,
/// SHARED_BASE and PRIVATE_BASE where a FLAT op reads them, and under `--lanes` EXEC (64 bits
/// on wave64 targets, 32 on wave32).
pub(super) fn pre_vars<D: Domain>(
    d: &mut D,
    env: &Env<D>,
    m: &Machine<D>,
    keys: &BTreeSet<RegKey>,
) -> BTreeMap<String, Val<D>> {
    let mut vars: BTreeMap<String, Val<D>> = env
        .imms
        .iter()
        .map(|(k, v)| (format!("%{k}"), Val::Bits(v.clone(), Ty::Bits(Kind::U, 64))))
        .collect();
    let mut by_var: BTreeMap<String, Vec<RegKey>> = BTreeMap::new();
    for k in keys.iter().filter(|k| k.is_var()) {
        by_var.entry(k.base.clone()).or_default().push(k.clone());
    }
    for (name, ks) in by_var {
        let mut acc: Option<D::Bv> = None;
        for k in &ks {
            let r = m.regs[k].clone();
            acc = Some(match acc {
                None => r,
                Some(lo) => d.concat(&r, &lo),
            });
        }
        let v = acc.expect("non-empty");
        let w = d.width(&v);
        vars.insert(name, Val::Bits(v, Ty::Bits(Kind::U, w)));
    }
    // Concrete registers by their assembly names (`v1`, `s2`, `vcc_lo`), 32 bits each.
    for k in keys
        .iter()
        .filter(|k| matches!(k.base.as_str(), "v" | "s" | "a" | "vcc"))
    {
        let name = RegKey {
            lane: None,
            ..k.clone()
        }
        .to_string();
        vars.insert(name, Val::Bits(m.regs[k].clone(), Ty::U32));
    }
    for name in ["M0", "m0"] {
        vars.insert(
            name.into(),
            Val::Bits(m.regs[&RegKey::m0()].clone(), Ty::U32),
        );
    }
    vars.insert("LDS_SIZE".into(), Val::Bits(env.lds_size.clone(), Ty::U32));
    vars.insert("LANE_ID".into(), Val::Bits(env.lane_id.clone(), Ty::U32));
    for k in [RegKey::aperture(true), RegKey::aperture(false)] {
        if let Some(b) = m.regs.get(&k) {
            vars.insert(k.to_string(), Val::Bits(b.clone(), Ty::U32));
        }
    }
    if let Some(lo) = m.regs.get(&RegKey::exec_lo()) {
        let e = match m.regs.get(&RegKey::exec_hi()) {
            Some(hi) => d.concat(hi, lo),
            None => lo.clone(),
        };
        let w = d.width(&e);
        vars.insert("EXEC".into(), Val::Bits(e, Ty::Bits(Kind::U, w)));
    }
    vars
}
