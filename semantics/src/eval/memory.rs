//! Memory accesses of the evaluator: the effective address per the machine settings (alignment,
//! LDS/GDS bounds, buffer range checks through [`crate::buffer`]), and byte-wise reads and
//! writes of the address space the frame's [`MemView`] selects.

use super::*;

impl<D: Domain> Ev<'_, '_, D> {
    /// The effective address in `space` and whether the access is in range, per the settings.
    fn access(
        &mut self,
        st: &mut St<D>,
        space: AddrSpace,
        addr: &D::Bv,
        size: u32,
    ) -> Result<(D::Bv, D::Bool), EvalError> {
        let natural = pow2_ceil(size);
        let mut a = addr.clone();
        let mut in_buffer_range = None;
        let buffer = self.frame.buffer.filter(|_| space == AddrSpace::Global);
        if let Some(mode) = buffer {
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
        let byte_addressed = space == AddrSpace::Global && buffer.is_none();
        let alignment = if byte_addressed {
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
        if byte_addressed {
            return Ok((a, self.d.boolean(true)));
        }
        // Bound check in 34 bits so `addr + size` cannot wrap.
        let limit = match space {
            AddrSpace::Gds => {
                let m0 = self.var_bits(st, "M0")?;
                Some(self.d.extract(&m0, 15, 0))
            }
            AddrSpace::Lds => match self.frame.settings.lds_limit {
                LdsLimit::None => None,
                LdsLimit::M0 => Some(self.var_bits(st, "M0")?),
                LdsLimit::Alloc => Some(self.var_bits(st, "LDS_SIZE")?),
            },
            AddrSpace::Global | AddrSpace::Scratch => None,
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
        if space == AddrSpace::Gds {
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

    pub(super) fn var_bits(&mut self, st: &St<D>, name: &str) -> Result<D::Bv, EvalError> {
        match st.vars.get(name) {
            Some(Val::Bits(b, t)) if t.width() == 32 => Ok(b.clone()),
            _ => err(format!("the memory bound needs the 32-bit input `{name}`")),
        }
    }

    /// Read `size` bytes at `addr` of the memory the frame names.
    pub(super) fn mem_read(
        &mut self,
        st: &mut St<D>,
        addr: &D::Bv,
        size: u32,
    ) -> Result<D::Bv, EvalError> {
        match self.frame.mem {
            MemView::Space(space) => self.read_in(st, space, addr, size),
        }
    }

    /// Write the `size` bytes of `v` at `addr` of the memory the frame names.
    pub(super) fn mem_write(
        &mut self,
        st: &mut St<D>,
        addr: &D::Bv,
        size: u32,
        v: &D::Bv,
    ) -> Result<(), EvalError> {
        match self.frame.mem {
            MemView::Space(space) => self.write_in(st, space, addr, size, v),
        }
    }

    fn read_in(
        &mut self,
        st: &mut St<D>,
        space: AddrSpace,
        addr: &D::Bv,
        size: u32,
    ) -> Result<D::Bv, EvalError> {
        let (a, ok) = self.access(st, space, addr, size)?;
        let mem = st.mem[space].clone();
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

    fn write_in(
        &mut self,
        st: &mut St<D>,
        space: AddrSpace,
        addr: &D::Bv,
        size: u32,
        v: &D::Bv,
    ) -> Result<(), EvalError> {
        let (a, ok) = self.access(st, space, addr, size)?;
        let old = st.mem[space].clone();
        let aw = self.d.width(&a);
        let mut m = old.clone();
        for k in 0..size {
            let off = self.d.bv(k as u128, aw);
            let ak = self.d.op(BvOp::Add, &a, &off);
            let byte = self.d.extract(v, 8 * k + 7, 8 * k);
            m = self.d.store(&m, &ak, &byte);
        }
        st.mem[space] = self.d.ite_mem(&ok, &m, &old);
        Ok(())
    }
}
