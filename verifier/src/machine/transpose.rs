//! The per-lane half of a transpose load under `--lanes N`: each present lane's own LDS read,
//! through the plain `DS_READ_B64`/`B96`/`B128` entry of `semantics/pcode/ds_load.pcode` (so
//! alignment mode, LDS bound and out-of-range zeros are those of every DS load), and the
//! undefined behaviour of a misaligned lane address. The exchange between lanes is
//! `gcnsmt_semantics::transpose`, dispatched by [`super::cross::run_cross`].

use super::regkey::RegKey;
use super::state::{bits, read, Env, Machine};
use gcnsmt_lifter::lift::ds_semantics;
use gcnsmt_semantics::domain::{BvOp, CmpOp, Domain};
use gcnsmt_semantics::eval::{run, AddrSpace, Frame, MemView, Val};
use gcnsmt_semantics::transpose::Transpose;
use gcnsmt_semantics::ty::{Kind, Ty};
use std::collections::BTreeMap;

/// Lane `id`'s read for transpose `t` at `addr + offset` (the instruction's `offset` field) (`t.read_bits()` bits; 0 out of
/// range, as DS loads). When `active`, a misaligned address (not a multiple of `t.align()`
/// bytes; rocRoller requires 128-bit alignment for `ds_read_b96_tr_b6`, no source gives the
/// others' behaviour) sets the undefined-behaviour flag, as do the entry's own cases (STRICT
/// alignment). An inactive lane changes nothing.
///
/// Errors: the entry fails to evaluate (an internal error).
pub fn lane_read<D: Domain>(
    d: &mut D,
    env: &Env<D>,
    m: &mut Machine<D>,
    (t, offset): (Transpose, u16),
    id: &D::Bv,
    addr: D::Bv,
    active: &D::Bool,
) -> Result<D::Bv, String> {
    let (entry, def) = ds_semantics(&t.lane_read().to_ascii_lowercase())
        .ok_or_else(|| format!("no semantics entry {}", t.lane_read()))?;
    let frame = Frame {
        settings: env.settings,
        mem: MemView::Space(AddrSpace::Lds),
        aliases: def.aliases_for(&entry).unwrap_or(&[]),
        buffer: None,
    };
    let mut vars = BTreeMap::new();
    let off = d.bv(offset as u128, 16);
    let mis = {
        let o = d.bv(offset as u128, 32);
        let a = d.op(BvOp::Add, &addr, &o);
        let low = d.bv(t.align() as u128 - 1, 32);
        let a = d.op(BvOp::And, &a, &low);
        let zero = d.bv(0, 32);
        let ok = d.cmp(CmpOp::Eq, &a, &zero);
        d.lnot(&ok)
    };
    vars.insert("ADDR".to_string(), bits(addr, d));
    vars.insert("OFFSET".to_string(), Val::Bits(off, Ty::Bits(Kind::U, 16)));
    let m0 = read(d, m, &[RegKey::m0()]);
    vars.insert("M0".to_string(), bits(m0, d));
    vars.insert("LDS_SIZE".to_string(), bits(env.lds_size.clone(), d));
    vars.insert("LANE_ID".to_string(), bits(id.clone(), d));
    let zero = d.bv(0, t.read_bits());
    vars.insert("RETURN_DATA".to_string(), bits(zero, d));
    let before = m.mem.ub.clone();
    let (out, mem) = run(d, &frame, &def.body, vars, m.mem.clone())
        .map_err(|e| format!("{entry}: {}", e.msg))?;
    let ub = d.or(&mem.ub, &mis);
    m.mem.ub = d.ite_bool(active, &ub, &before);
    match &out["RETURN_DATA"] {
        Val::Bits(b, _) => Ok(d.extract(b, t.read_bits() - 1, 0)),
        Val::Bool(_) => Err(format!("{entry}: RETURN_DATA is a boolean")),
    }
}
