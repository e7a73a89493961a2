//! The assumptions of a check, written once over any semantics [`Domain`]: the input ranges
//! (immediates below 2^32, LANE_ID below the wave size, LDS_SIZE at most the target's LDS
//! under `lds_limit=ALLOC`, SCC 0 or 1), the lane assumptions under `--lanes` (increasing lane
//! ids below the wave size, no EXEC bit outside them), the precondition in every lane, and the
//! field ranges that make a program encodable. Over [`Smt`] they are the query's assumptions; over
//! [`Concrete`] they validate a model or a cached counterexample ([`holds`]).

use super::elaborate::Elaborated;
use super::inputs::{pre_frame, pre_vars, Inputs};
use crate::machine::{eval_imm, Bound, Env, Machine, RegKey};
use crate::smt::{Model, Smt};
use gcnsmt_lifter::lift::wave_size;
use gcnsmt_semantics::domain::{BvOp, CmpOp, Domain};
use gcnsmt_semantics::eval::{eval_expr, truth, MemState};
use gcnsmt_semantics::interp::{CMem, Concrete};
use gcnsmt_semantics::settings::LdsLimit;
use std::collections::BTreeSet;
use std::rc::Rc;

/// `x <= c` at `x`'s width.
fn at_most<D: Domain>(d: &mut D, x: &D::Bv, c: u128) -> D::Bool {
    let w = d.width(x);
    let c = d.bv(c, w);
    d.cmp(CmpOp::Ule, x, &c)
}

/// The range assumptions on the inputs, in the order the query asserts them.
///
/// Under `--lanes N` the N lanes have symbolic, increasing ids, and EXEC has no bit outside
/// them -- so a claim covers every wave with at most N active lanes, wherever they are (the
/// other lanes are inactive; a cross-lane read from one gives 0).
pub(super) fn ranges<D: Domain>(d: &mut D, b: &Elaborated, x: &Inputs<D>) -> Vec<D::Bool> {
    let target = x.env.target;
    // A cross-target rule's inputs must be valid on both targets: the smaller wave and LDS.
    let wave = wave_size(target).min(wave_size(b.to)) as u128;
    let max_lds = target.max_lds_bytes().min(b.to.max_lds_bytes());
    let mut out = Vec::new();
    for v in x.env.imms.values() {
        out.push(at_most(d, v, 0xffff_ffff));
    }
    out.push(at_most(d, &x.env.lane_id, wave - 1));
    if let Some((mode, _)) = &b.lanes {
        let mut present = d.bv(0, 64);
        let one = d.bv(1, 64);
        for j in 0..mode.lanes {
            let id = x.m0.regs[&RegKey::lane_id(j)].clone();
            out.push(at_most(d, &id, wave - 1));
            if j > 0 {
                let prev = &x.m0.regs[&RegKey::lane_id(j - 1)];
                out.push(d.cmp(CmpOp::Ult, prev, &id));
            }
            let sh = d.zext(&id, 32);
            let bit = d.op(BvOp::Shl, &one, &sh);
            present = d.op(BvOp::Or, &present, &bit);
        }
        let exec = crate::machine::read(d, &x.m0, &[RegKey::exec_lo(), RegKey::exec_hi()]);
        let absent = d.not(&present);
        let stray = d.op(BvOp::And, &exec, &absent);
        let zero = d.bv(0, 64);
        out.push(d.cmp(CmpOp::Eq, &stray, &zero));
    }
    if b.settings.lds_limit == LdsLimit::Alloc || b.to_settings.lds_limit == LdsLimit::Alloc {
        out.push(at_most(d, &x.env.lds_size, max_lds as u128));
    }
    // SCC is one bit (an input only where some instruction writes it and it is not dead).
    if let Some(scc) = x.m0.regs.get(&RegKey::scc()) {
        out.push(at_most(d, scc, 1));
    }
    out
}

/// The precondition as it must hold: in the one lane, or under `--lanes` in every lane with
/// that lane's registers and lane id (empty without a precondition). It reads memory from
/// `x.m0.mem`.
///
/// Errors: the precondition fails to evaluate (the semantics error's message).
pub(super) fn precondition<D: Domain>(
    d: &mut D,
    b: &Elaborated,
    x: &Inputs<D>,
) -> Result<Vec<D::Bool>, String> {
    let Some(p) = &b.pre else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for (env, m, keys) in lane_views(b, x) {
        let vars = pre_vars(d, &env, &m, &keys);
        let v = eval_expr(d, &pre_frame(b.settings), p, None, vars, x.m0.mem.clone())
            .map_err(|e| e.msg)?;
        out.push(truth(d, v));
    }
    Ok(out)
}

/// What each lane sees of the initial state: its environment (its lane id), its registers
/// named without their lane, and the names of those registers.
fn lane_views<D: Domain>(
    b: &Elaborated,
    x: &Inputs<D>,
) -> Vec<(Env<D>, Machine<D>, BTreeSet<RegKey>)> {
    let Some((mode, e)) = &b.lanes else {
        return vec![(
            x.env.clone_with_lane(x.env.lane_id.clone()),
            x.m0.clone(),
            b.keys.clone(),
        )];
    };
    (0..mode.lanes)
        .map(|l| {
            let view = crate::lanes::lane_view(&e.keys, l);
            let m = Machine {
                regs: view
                    .iter()
                    .map(|(name, key)| (name.clone(), x.m0.regs[key].clone()))
                    .collect(),
                mem: x.m0.mem.clone(),
            };
            let ks = view.into_iter().map(|(name, _)| name).collect();
            let lane = x.m0.regs[&RegKey::lane_id(l)].clone();
            (x.env.clone_with_lane(lane), m, ks)
        })
        .collect()
}

/// Field validity of a program: every immediate field within its range.
///
/// Errors: a field expression fails to evaluate.
pub(super) fn fields_ok<D: Domain>(
    d: &mut D,
    env: &Env<D>,
    m: &Machine<D>,
    prog: &[Bound],
) -> Result<D::Bool, String> {
    let mut ok = d.boolean(true);
    for b in prog {
        for f in &b.fields {
            let v = eval_imm(d, env, m, &f.expr)?;
            let max = d.bv(f.max as u128, 64);
            let c = d.cmp(CmpOp::Ule, &v, &max);
            ok = d.and(&ok, &c);
        }
    }
    Ok(ok)
}

/// Whether the values `model` gives the inputs of `sym` meet the query's [`ranges`] and
/// [`precondition`] on the concrete interpreter. (The source's encodability and definedness
/// are the replay's to check.) A precondition that reads memory, or fails to evaluate, counts
/// as not met: the query read memory symbolically, which a model's inputs do not fix.
pub(super) fn holds(model: &Model, b: &Elaborated, sym: &Inputs<Smt>) -> bool {
    let read = Rc::new(std::cell::Cell::new(false));
    let mem = || {
        let read = read.clone();
        CMem::new_wide(move |_| {
            read.set(true);
            0
        })
    };
    let mem = MemState::new(|_| mem(), false);
    let x = sym.concrete(model, mem);
    let mut d = Concrete;
    if !ranges(&mut d, b, &x).into_iter().all(|ok| ok) {
        return false;
    }
    match precondition(&mut d, b, &x) {
        Ok(holds) => holds.into_iter().all(|ok| ok) && !read.get(),
        Err(_) => false,
    }
}
