//! Memory accesses of the evaluator: the effective address per the machine settings (alignment,
//! LDS/GDS bounds, buffer range checks through [`crate::buffer`]), and byte-wise reads and
//! writes of the memory space the frame selects.

use super::*;

impl<D: Domain> Ev<'_, '_, D> {
    /// The effective address and whether the access is in range, per the settings.
    pub(super) fn access(
        &mut self,
        st: &mut St<D>,
        addr: &D::Bv,
        size: u32,
    ) -> Result<(D::Bv, D::Bool), EvalError> {
        let natural = pow2_ceil(size);
        let mut a = addr.clone();
        let mut in_buffer_range = None;
        if let Some(mode) = self.frame.buffer {
            let inp = crate::buffer::BufferInputs {
                vaddr: self.var_any(st, "VADDR")?,
                srsrc: self.var_any(st, "SRSRC")?,
                soffset: self.var_bits(st, "SOFFSET")?,
                lane_id: self.var_bits(st, "LANE_ID")?,
            };
            if self.d.width(&inp.srsrc) != 128 {
                return err("SRSRC must be 128 bits");
            }
            let acc = crate::buffer::access(self.d, &mode, &self.frame.settings, &inp, addr, size);
            st.mem.ub = self.d.or(&st.mem.ub, &acc.unmodelled);
            a = acc.addr;
            in_buffer_range = Some(acc.in_range);
        }
        let aw = self.d.width(&a);
        // The alignment setting is the LDS/buffer one (per generation; DWORD on gfx6-gfx8).
        // GLOBAL accesses are byte addressed, and scalar loads drop the two low address bits
        // themselves (`global.pcode`): rounding a scalar load down to its access size would
        // misplace every 16-byte kernel argument at byte 36 (LLVM's SI test expectations).
        let alignment = if self.frame.global {
            Alignment::Unaligned
        } else {
            self.frame.settings.alignment
        };
        match alignment {
            Alignment::Unaligned => {}
            Alignment::Dword => {
                if natural > 1 {
                    let all = (1u128 << aw) - 1;
                    let m = self.d.bv(!(natural as u128 - 1) & all, aw);
                    a = self.d.op(BvOp::And, &a, &m);
                }
            }
            Alignment::Strict => {
                if natural > 1 {
                    let m = self.d.bv(natural as u128 - 1, aw);
                    let low = self.d.op(BvOp::And, &a, &m);
                    let z = self.d.bv(0, aw);
                    let aligned = self.d.cmp(CmpOp::Eq, &low, &z);
                    let mis = self.d.lnot(&aligned);
                    st.mem.ub = self.d.or(&st.mem.ub, &mis);
                }
            }
        }
        if let Some(ok) = in_buffer_range {
            return Ok((a, ok));
        }
        if self.frame.global {
            return Ok((a, self.d.boolean(true)));
        }
        // Bound check in 34 bits so `addr + size` cannot wrap.
        let limit = if self.frame.gds {
            let m0 = self.var_bits(st, "M0")?;
            Some(self.d.extract(&m0, 15, 0))
        } else {
            match self.frame.settings.lds_limit {
                LdsLimit::None => None,
                LdsLimit::M0 => Some(self.var_bits(st, "M0")?),
                LdsLimit::Alloc => Some(self.var_bits(st, "LDS_SIZE")?),
            }
        };
        let in_range = match limit {
            None => self.d.boolean(true),
            Some(l) => {
                let lw = self.d.width(&l);
                let l34 = self.d.zext(&l, 34 - lw);
                let a34 = self.d.zext(&a, 2);
                let s = self.d.bv(size as u128, 34);
                let end = self.d.op(BvOp::Add, &a34, &s);
                self.d.cmp(CmpOp::Ule, &end, &l34)
            }
        };
        if self.frame.gds {
            let m0 = self.var_bits(st, "M0")?;
            let base = self.d.extract(&m0, 31, 16);
            let base = self.d.zext(&base, 16);
            a = self.d.op(BvOp::Add, &a, &base);
        }
        Ok((a, in_range))
    }

    pub(super) fn var_any(&mut self, st: &St<D>, name: &str) -> Result<D::Bv, EvalError> {
        match st.vars.get(name) {
            Some(Val::Bits(b, _)) => Ok(b.clone()),
            _ => err(format!("a buffer access needs the input `{name}`")),
        }
    }

    pub(super) fn mem_of(&self, st: &St<D>) -> D::Mem {
        if self.frame.buffer.is_some() || self.frame.global {
            st.mem.global.clone()
        } else if self.frame.gds {
            st.mem.gds.clone()
        } else {
            st.mem.lds.clone()
        }
    }

    pub(super) fn var_bits(&mut self, st: &St<D>, name: &str) -> Result<D::Bv, EvalError> {
        match st.vars.get(name) {
            Some(Val::Bits(b, t)) if t.width() == 32 => Ok(b.clone()),
            _ => err(format!("the memory bound needs the 32-bit input `{name}`")),
        }
    }

    pub(super) fn mem_read(
        &mut self,
        st: &mut St<D>,
        addr: &D::Bv,
        size: u32,
    ) -> Result<D::Bv, EvalError> {
        let (a, ok) = self.access(st, addr, size)?;
        let mem = self.mem_of(st);
        let aw = self.d.width(&a);
        let mut acc: Option<D::Bv> = None;
        for k in 0..size {
            let off = self.d.bv(k as u128, aw);
            let ak = self.d.op(BvOp::Add, &a, &off);
            let byte = self.d.load(&mem, &ak);
            acc = Some(match acc {
                None => byte,
                Some(lo) => self.d.concat(&byte, &lo),
            });
        }
        let v = acc.expect("accesses are at least one byte");
        let z = self.d.bv(0, size * 8);
        Ok(self.d.ite(&ok, &v, &z))
    }

    pub(super) fn mem_write(
        &mut self,
        st: &mut St<D>,
        addr: &D::Bv,
        size: u32,
        v: &D::Bv,
    ) -> Result<(), EvalError> {
        let (a, ok) = self.access(st, addr, size)?;
        let old = self.mem_of(st);
        let aw = self.d.width(&a);
        let mut m = old.clone();
        for k in 0..size {
            let off = self.d.bv(k as u128, aw);
            let ak = self.d.op(BvOp::Add, &a, &off);
            let byte = self.d.extract(v, 8 * k + 7, 8 * k);
            m = self.d.store(&m, &ak, &byte);
        }
        let new = self.d.ite_mem(&ok, &m, &old);
        if self.frame.buffer.is_some() || self.frame.global {
            st.mem.global = new;
        } else if self.frame.gds {
            st.mem.gds = new;
        } else {
            st.mem.lds = new;
        }
        Ok(())
    }
}
