//! One lane of a wave-wide atomic as a function on the memory value it hits: `f(m, data) =
//! (m', returned)`, computed by running the instruction's own entry of `semantics/pcode/` on
//! any [`Domain`], so the concrete interpreter and the z3 encoding share it. A wave of N active
//! lanes hitting one address is a serialization of N such steps.

use gcnsmt_semantics::domain::Domain;
use gcnsmt_semantics::eval::{run, Frame, MemState, Val};
use gcnsmt_semantics::ir::Def;
use gcnsmt_semantics::settings::{Alignment, LdsLimit, Settings};
use gcnsmt_semantics::ty::{Kind, Ty};
use std::collections::BTreeMap;

/// Wave sizes: 64 lanes on every target, 32 as well from gfx10 on (RDNA runs both; AMD RDNA
/// ISA guides, "Wave32 and Wave64").
pub const WAVE32: u32 = 32;
pub const WAVE64: u32 = 64;

/// A lane's operands: DATA0 and DATA1 (bits; 0 when the instruction has no such operand).
#[derive(Clone, Debug)]
pub struct LaneData<B> {
    pub data0: B,
    pub data1: B,
}

/// One lane step of an atomic semantics entry, applied at LDS byte address 0.
pub struct LaneFn<'a> {
    /// The entry name the instruction lifts to (`DS_ADD_RTN_U32`); selects operand aliases.
    pub entry: &'a str,
    pub def: &'a Def,
    /// Width of the memory value in bits (32 or 64; the RETURN_DATA width).
    pub width: u32,
}

impl LaneFn<'_> {
    /// Apply the step to memory value `m` (`width` bits) with this lane's data. Returns the new
    /// memory value and the returned value (RETURN_DATA, `width` bits).
    ///
    /// The access is at byte 0 with offset 0, every address in range (`lds_limit=NONE`) and
    /// exact addressing (`alignment=UNALIGNED`): the lane's memory function does not depend on
    /// where the shared address is, only on the value there.
    ///
    /// Errors: the entry fails to evaluate (an internal error in `semantics/`).
    pub fn apply<D: Domain>(
        &self,
        d: &mut D,
        base: &D::Mem,
        m: &D::Bv,
        data: &LaneData<D::Bv>,
    ) -> Result<(D::Bv, D::Bv), String> {
        let bytes = self.width / 8;
        let mut mem = base.clone();
        for i in 0..bytes {
            let a = d.bv(i as u128, 32);
            let b = d.extract(m, 8 * i + 7, 8 * i);
            mem = d.store(&mem, &a, &b);
        }
        let frame = Frame {
            settings: Settings {
                alignment: Alignment::Unaligned,
                lds_limit: LdsLimit::None,
                buffer_soffset: gcnsmt_semantics::settings::BufferSoffset::Subtract,
                buffer_oob: gcnsmt_semantics::settings::BufferOob::End,
            },
            gds: false,
            aliases: self.def.aliases_for(self.entry).unwrap_or(&[]),
            buffer: None,
        };
        let mut vars = BTreeMap::new();
        let mut put = |name: &str, v: D::Bv, w: u32| {
            vars.insert(name.to_string(), Val::Bits(v, Ty::Bits(Kind::B, w)));
        };
        let (w0, w1) = (d.width(&data.data0), d.width(&data.data1));
        put("ADDR", d.bv(0, 32), 32);
        put("DATA0", data.data0.clone(), w0);
        put("DATA1", data.data1.clone(), w1);
        vars.insert(
            "OFFSET".into(),
            Val::Bits(d.bv(0, 16), Ty::Bits(Kind::U, 16)),
        );
        vars.insert(
            "OFFSET0".into(),
            Val::Bits(d.bv(0, 8), Ty::Bits(Kind::U, 8)),
        );
        vars.insert(
            "OFFSET1".into(),
            Val::Bits(d.bv(0, 8), Ty::Bits(Kind::U, 8)),
        );
        let mut put = |name: &str, v: D::Bv, w: u32| {
            vars.insert(name.to_string(), Val::Bits(v, Ty::Bits(Kind::B, w)));
        };
        put("M0", d.bv(0xffff_ffff, 32), 32);
        put("LDS_SIZE", d.bv(65536, 32), 32);
        put("LANE_ID", d.bv(0, 32), 32);
        put("RETURN_DATA", d.bv(0, 128), 128);
        let ub = d.boolean(false);
        // DS entries touch only LDS; the other spaces just fill their slots.
        let st = MemState {
            lds: mem.clone(),
            gds: mem.clone(),
            global: mem,
            ub,
        };
        let (out, st) = run(d, &frame, &self.def.body, vars, st)
            .map_err(|e| format!("{}: {}", self.entry, e.msg))?;
        let mut new = None;
        for i in 0..bytes {
            let a = d.bv(i as u128, 32);
            let b = d.load(&st.lds, &a);
            new = Some(match new {
                None => b,
                Some(lo) => d.concat(&b, &lo),
            });
        }
        let ret = match out.get("RETURN_DATA") {
            Some(Val::Bits(r, _)) => {
                let r = r.clone();
                let w = d.width(&r);
                if w > self.width {
                    d.extract(&r, self.width - 1, 0)
                } else if w < self.width {
                    d.zext(&r, self.width - w)
                } else {
                    r
                }
            }
            _ => return Err(format!("{}: no RETURN_DATA", self.entry)),
        };
        Ok((new.expect("width is at least one byte"), ret))
    }
}

/// The active lanes of an EXEC mask in lane order.
pub fn active(exec: u64, lanes: u32) -> Vec<usize> {
    (0..lanes as usize)
        .filter(|&i| exec >> i & 1 == 1)
        .collect()
}
