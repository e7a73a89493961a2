//! The machine state a bound program runs on: inputs ([`Env`]), registers and memory
//! ([`Machine`]).

use super::regkey::RegKey;
use gcnsmt_semantics::domain::Domain;
use gcnsmt_semantics::eval::{eval_expr, Frame, MemState, Val};
use gcnsmt_semantics::ir::Expr;
use gcnsmt_semantics::settings::Settings;
use gcnsmt_semantics::target::Target;
use gcnsmt_semantics::ty::{Kind, Ty};
use std::collections::BTreeMap;

/// Inputs shared by both sides of a rule.
pub struct Env<D: Domain> {
    /// The target both sides run on.
    pub target: Target,
    /// The model choices: alignment, LDS limit (M0 or allocation), buffer range-check variants.
    pub settings: Settings,
    /// Immediate variables, 64-bit (constrained below 2^32 by the checker).
    pub imms: BTreeMap<String, D::Bv>,
    /// `LDS_SIZE`: bytes of LDS allocated to the work-group (32 bits, at most the target's
    /// LDS size per the checker's assumptions).
    pub lds_size: D::Bv,
    /// `LANE_ID`: the lane the instruction runs in (32 bits, below the wave size).
    pub lane_id: D::Bv,
}

impl<D: Domain> Env<D> {
    /// A copy with another `LANE_ID`.
    pub fn clone_with_lane(&self, lane_id: D::Bv) -> Env<D> {
        Env {
            target: self.target,
            settings: self.settings,
            imms: self.imms.clone(),
            lds_size: self.lds_size.clone(),
            lane_id,
        }
    }

    /// A copy on another target with its settings: the environment of a cross-target rule's
    /// target side (the same immediates, LDS_SIZE and LANE_ID).
    pub fn on(&self, target: Target, settings: Settings) -> Env<D> {
        Env {
            target,
            settings,
            ..self.clone_with_lane(self.lane_id.clone())
        }
    }
}

/// Register file and memory.
pub struct Machine<D: Domain> {
    /// Register values, 32 bits each, by register key; a register absent from the map reads as 0.
    pub regs: BTreeMap<RegKey, D::Bv>,
    /// One memory per address space (LDS, GDS, global, scratch).
    pub mem: MemState<D>,
}

impl<D: Domain> Clone for Machine<D> {
    fn clone(&self) -> Self {
        Machine {
            regs: self.regs.clone(),
            mem: self.mem.clone(),
        }
    }
}

pub(crate) fn imm_vars<D: Domain>(env: &Env<D>) -> BTreeMap<String, Val<D>> {
    env.imms
        .iter()
        .map(|(k, v)| (format!("%{k}"), Val::Bits(v.clone(), Ty::Bits(Kind::U, 64))))
        .collect()
}

/// Evaluate an immediate expression to a 64-bit value.
pub fn eval_imm<D: Domain>(
    d: &mut D,
    env: &Env<D>,
    m: &Machine<D>,
    e: &Expr,
) -> Result<D::Bv, String> {
    let frame = Frame::plain(env.settings);
    let v = eval_expr(
        d,
        &frame,
        e,
        Some(Ty::Bits(Kind::U, 64)),
        imm_vars(env),
        m.mem.clone(),
    )
    .map_err(|e| e.msg)?;
    match v {
        Val::Bits(b, t) => {
            let w = t.width();
            Ok(match w.cmp(&64) {
                std::cmp::Ordering::Equal => b,
                std::cmp::Ordering::Less if t.kind() == Some(Kind::I) => d.sext(&b, 64 - w),
                std::cmp::Ordering::Less => d.zext(&b, 64 - w),
                std::cmp::Ordering::Greater => d.extract(&b, 63, 0),
            })
        }
        Val::Bool(_) => Err("an immediate cannot be a boolean".into()),
    }
}

pub(crate) fn read<D: Domain>(d: &mut D, m: &Machine<D>, keys: &[RegKey]) -> D::Bv {
    let mut acc: Option<D::Bv> = None;
    for k in keys {
        let r = m.regs.get(k).cloned().unwrap_or_else(|| d.bv(0, 32));
        acc = Some(match acc {
            None => r,
            Some(lo) => d.concat(&r, &lo),
        });
    }
    acc.unwrap_or_else(|| d.bv(0, 32))
}

pub(crate) fn write<D: Domain>(
    d: &mut D,
    m: &mut Machine<D>,
    keys: &[RegKey],
    v: &Val<D>,
) -> Result<(), String> {
    let Val::Bits(b, _) = v else {
        return Err("register result is a boolean".into());
    };
    let w = d.width(b);
    let need = 32 * keys.len() as u32;
    let b = if w < need {
        d.zext(b, need - w)
    } else {
        b.clone()
    };
    for (i, k) in keys.iter().enumerate() {
        let part = d.extract(&b, 32 * i as u32 + 31, 32 * i as u32);
        m.regs.insert(k.clone(), part);
    }
    Ok(())
}

pub(crate) fn bits<D: Domain>(b: D::Bv, d: &D) -> Val<D> {
    let w = d.width(&b);
    Val::Bits(b, Ty::Bits(Kind::B, w))
}
