//! Memory accesses of the evaluator: the effective address per the machine settings (alignment,
//! LDS/GDS bounds, buffer range checks through [`crate::buffer`]), and byte-wise reads and
//! writes of the address space the frame's [`MemView`] selects.

use super::*;

/// One place a FLAT access may go: the space, the condition it goes there (given that no
/// earlier path's holds), and the address within the space.
type FlatPath<D> = (AddrSpace, <D as Domain>::Bool, <D as Domain>::Bv);

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
                offset: self.var_any(st, "OFFSET")?,
                lane_id: self.var_bits(st, "LANE_ID")?,
            };
            if self.d.width(&inp.srsrc) != 128 {
                return err("SRSRC must be 128 bits");
            }
            let acc = crate::buffer::access(self.d, &mode, &self.frame.settings, &inp, addr, size);
            st.mem.ub = self.d.or(&st.mem.ub, &acc.unmodelled);
            if !mode.addr64 {
                let multi = self.swizzled_multi_element(st, &mode, &inp, addr, size)?;
                st.mem.ub = self.d.or(&st.mem.ub, &multi);
            }
            a = acc.addr;
            in_buffer_range = Some(acc.in_range);
        }
        let aw = self.d.width(&a);
        // The alignment setting is the LDS/buffer one (per generation; DWORD on gfx6-gfx8).
        // GLOBAL accesses are byte addressed, and scalar loads drop the two low address bits
        // themselves (`global.pcode`): rounding a scalar load down to its access size would
        // misplace every 16-byte kernel argument at byte 36 (LLVM's SI test expectations).
        // Scratch reached through FLAT is byte addressed too (AMDGPUUsage "Memory Spaces":
        // FLAT and scratch instructions support unaligned access).
        // The GWS resources and GS registers are no memory at all: no alignment mode or
        // bound applies.
        let byte_addressed = (space == AddrSpace::Global && buffer.is_none())
            || matches!(
                space,
                AddrSpace::Scratch | AddrSpace::Gws | AddrSpace::GsReg
            );
        let alignment = if byte_addressed {
            Alignment::Unaligned
        } else {
            self.frame.settings.alignment
        };
        match alignment {
            Alignment::Unaligned => {}
            Alignment::Dword => {
                // Buffer accesses round to at most a dword: CLRX `GcnMemHandling.md` ("For
                // 32-bit and wider operations, an address are aligned to 4 bytes"), so a
                // 64-bit buffer atomic keeps bit 2, while a 64-bit DS access drops it (CLRX
                // `GcnInstrsDs.md` writes `(ADDR+OFFSET)&~7` for every 64-bit DS op).
                let round = if buffer.is_some() {
                    natural.min(4)
                } else {
                    natural
                };
                if round > 1 {
                    let all = (1u128 << aw) - 1;
                    let m = self.d.bv(!(round as u128 - 1) & all, aw);
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
        // gfx101x in WGP mode (setting `lds_misaligned=UNDEFINED`, LLVM FeatureLdsMisalignedBug):
        // a multi-dword LDS access, DS or FLAT, below its natural alignment is undefined.
        if space == AddrSpace::Lds
            && size > 4
            && self.frame.settings.lds_misaligned == crate::settings::LdsMisaligned::Undefined
        {
            let m = self.d.bv(natural as u128 - 1, aw);
            let low = self.d.op(BvOp::And, &a, &m);
            let z = self.d.bv(0, aw);
            let aligned = self.d.cmp(CmpOp::Eq, &low, &z);
            let mis = self.d.lnot(&aligned);
            st.mem.ub = self.d.or(&st.mem.ub, &mis);
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
            // A FLAT access to LDS is assumed in range: its bound (the work-group's allocation,
            // not M0) is not modelled.
            AddrSpace::Lds if self.frame.mem == MemView::Flat => None,
            AddrSpace::Lds => match self.frame.settings.lds_limit {
                LdsLimit::None => None,
                LdsLimit::M0 => Some(self.var_bits(st, "M0")?),
                LdsLimit::Alloc => Some(self.var_bits(st, "LDS_SIZE")?),
            },
            AddrSpace::Global | AddrSpace::Scratch | AddrSpace::Gws | AddrSpace::GsReg => None,
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

    /// A buffer access of more than one dword (an 8-byte access, or any but the first of the
    /// per-dword accesses of a dwordx2/x3/x4 or multi-component format op: its record offset
    /// `addr` differs from the instruction's AOFFSET) through a V# with SWIZZLE_EN set is
    /// undefined behaviour. Swizzled (interleaved) memory supports no multi-dword access: LLVM
    /// AMDGPUUsage, private segment ("the interleave (swizzle) element size", multi-dword
    /// scratch access only through flat/scratch instructions on gfx9+), and SILoadStoreOptimizer
    /// merges no buffer access with the `swz` bit; how the hardware splits such an access into
    /// elements is not documented (CLRX GcnMemHandling.md gives the per-element formula only).
    fn swizzled_multi_element(
        &mut self,
        st: &St<D>,
        mode: &crate::buffer::BufferMode,
        inp: &crate::buffer::BufferInputs<D>,
        addr: &D::Bv,
        size: u32,
    ) -> Result<D::Bool, EvalError> {
        let swz = crate::buffer::swizzle_enabled(self.d, mode, &inp.srsrc);
        if size > 4 {
            return Ok(swz);
        }
        let offset = self.var_any(st, "OFFSET")?;
        let first = crate::buffer::aoffset(self.d, mode, &inp.vaddr, &offset);
        let a = if self.d.width(addr) == 32 {
            addr.clone()
        } else {
            self.d.extract(addr, 31, 0)
        };
        let same = self.d.cmp(CmpOp::Eq, &a, &first);
        let later = self.d.lnot(&same);
        Ok(self.d.and(&swz, &later))
    }

    pub(super) fn var_any(&mut self, st: &St<D>, name: &str) -> Result<D::Bv, EvalError> {
        match st.vars.get(name) {
            Some(Val::Bits(b, _)) => Ok(b.clone()),
            _ => err(format!("the memory access needs the input `{name}`")),
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
        let paths = match self.frame.mem {
            MemView::Space(space) => return self.read_in(st, space, addr, size),
            MemView::Flat => self.flat_paths(st, addr)?,
        };
        // Reads change only the undefined-behaviour flag; variables stay as they are (merging
        // them would wrap every one in an `ite` of equal arms).
        let (last, rest) = paths.split_last().expect("the global path is always there");
        let ub0 = st.mem.ub.clone();
        let mut v = self.read_in(st, last.0, &last.2, size)?;
        let mut ub = st.mem.ub.clone();
        for (space, cond, a) in rest.iter().rev() {
            st.mem.ub = ub0.clone();
            let pv = self.read_in(st, *space, a, size)?;
            v = self.d.ite(cond, &pv, &v);
            ub = self.d.ite_bool(cond, &st.mem.ub, &ub);
        }
        st.mem.ub = ub;
        Ok(v)
    }

    /// Write the `size` bytes of `v` at `addr` of the memory the frame names.
    pub(super) fn mem_write(
        &mut self,
        st: &mut St<D>,
        addr: &D::Bv,
        size: u32,
        v: &D::Bv,
    ) -> Result<(), EvalError> {
        let paths = match self.frame.mem {
            MemView::Space(space) => return self.write_in(st, space, addr, size, v),
            MemView::Flat => self.flat_paths(st, addr)?,
        };
        // Each path writes its own space: a path's condition guards its space, and keeps the
        // spaces of the later paths as they were.
        let (last, rest) = paths.split_last().expect("the global path is always there");
        let old = st.mem.clone();
        self.write_in(st, last.0, &last.2, size, v)?;
        let mut later = vec![last.0];
        for (space, cond, a) in rest.iter().rev() {
            let mut s = St {
                vars: st.vars.clone(),
                mem: old.clone(),
            };
            self.write_in(&mut s, *space, a, size, v)?;
            for sp in later.iter().chain([space]) {
                st.mem[*sp] = self.d.ite_mem(cond, &s.mem[*sp], &st.mem[*sp]);
            }
            st.mem.ub = self.d.ite_bool(cond, &s.mem.ub, &st.mem.ub);
            later.push(*space);
        }
        Ok(())
    }

    /// Where a FLAT access at the 64-bit `addr` (VADDR + OFFSET) goes, as (space, condition,
    /// address in the space), first match wins, the last (global memory at `addr`)
    /// unconditional. A path whose condition is known false is left out, and one known true
    /// ends the list (so the concrete interpreter reads only the memory the access reaches).
    ///
    /// The apertures (LLVM AMDGPUUsage, "Address Spaces"): in 64-bit mode each is 2^32 bytes,
    /// based at a multiple of 2^32, so an address is in the shared (LDS) aperture when its high
    /// 32 bits equal `SHARED_BASE`, and in the private (scratch) aperture when they equal
    /// `PRIVATE_BASE`. The aperture test reads the address register VADDR, not VADDR + OFFSET:
    /// "the memory aperture test ignores the immediate offset" (llvm/llvm-project #153001 and
    /// #165427, LLVM's fix of the miscompile ROCm/legacy-rocm-build#4389 reports on gfx1030
    /// and gfx1100, where `offset:4` on a base 4 bytes below the shared aperture reached global
    /// memory), so an offset never moves an access into or out of an aperture. Inside LDS or
    /// scratch the access is at the low 32 bits of `addr` (the flat-to-segment `addrspacecast`
    /// of SIISelLowering `lowerADDRSPACECAST` truncates to them); an offset that carries past
    /// the aperture's end therefore wraps to its start (no source says what the hardware does
    /// there). `SHARED_BASE` and `PRIVATE_BASE` are the 32-bit high halves of the aperture bases
    /// (gfx9+ `src_shared_base`/`src_private_base`, gfx7/gfx8 the `amd_queue_t` aperture
    /// fields); should they be equal, LDS wins.
    ///
    /// Errors: `addr` or the input `VADDR` is not 64 bits, or an aperture variable is missing
    /// or not 32 bits.
    fn flat_paths(&mut self, st: &St<D>, addr: &D::Bv) -> Result<Vec<FlatPath<D>>, EvalError> {
        if self.d.width(addr) != 64 {
            return err("a FLAT address must be 64 bits");
        }
        let mut paths = Vec::new();
        // gfx101x (setting `flat_offset=IGNORED`, LLVM FeatureFlatSegmentOffsetBug): a FLAT
        // access of global memory ignores the instruction offset, so its address is
        // `addr - OFFSET` (the pcode's `VADDR + OFFSET` plus any byte offset of its own).
        let global = if self.frame.settings.flat_offset == crate::settings::FlatOffset::Ignored {
            let off = self.var_any(st, "OFFSET")?;
            let w = self.d.width(&off);
            let off = if w < 64 {
                self.d.sext(&off, 64 - w)
            } else {
                off
            };
            self.d.op(BvOp::Sub, addr, &off)
        } else {
            addr.clone()
        };
        if self.frame.settings.flat_aperture == crate::settings::FlatAperture::Global {
            let t = self.d.boolean(true);
            paths.push((AddrSpace::Global, t, global));
            return Ok(paths);
        }
        let vaddr = self.var_any(st, "VADDR")?;
        if self.d.width(&vaddr) != 64 {
            return err("a FLAT access needs the 64-bit input `VADDR`");
        }
        let hi = self.d.extract(&vaddr, 63, 32);
        let lo = self.d.extract(addr, 31, 0);
        for (space, base) in [
            (AddrSpace::Lds, "SHARED_BASE"),
            (AddrSpace::Scratch, "PRIVATE_BASE"),
        ] {
            let b = match st.vars.get(base) {
                Some(Val::Bits(b, t)) if t.width() == 32 => b.clone(),
                _ => return err(format!("a FLAT access needs the 32-bit input `{base}`")),
            };
            let cond = self.d.cmp(CmpOp::Eq, &hi, &b);
            let at = if space == AddrSpace::Scratch {
                self.scratch_addr(st, &lo)
            } else {
                lo.clone()
            };
            match self.d.known(&cond) {
                Some(false) => {}
                Some(true) => {
                    paths.push((space, cond.clone(), at));
                    return Ok(paths);
                }
                None => paths.push((space, cond, at)),
            }
        }
        let t = self.d.boolean(true);
        paths.push((AddrSpace::Global, t, global));
        Ok(paths)
    }

    /// A scratch address: the lane's private memory is its own (AMDGPUUsage "Memory Spaces":
    /// lanes accessing the same private address reach different dwords; breaker19 11), so the
    /// SCRATCH memory is indexed by `{LANE_ID, offset}` (0 for the lane when the entry has no
    /// `LANE_ID`), the 32-bit offset in the low half.
    fn scratch_addr(&mut self, st: &St<D>, lo: &D::Bv) -> D::Bv {
        let lane = match st.vars.get("LANE_ID") {
            Some(Val::Bits(b, t)) if t.width() == 32 => b.clone(),
            _ => self.d.bv(0, 32),
        };
        self.d.concat(&lane, lo)
    }

    /// The address of byte `k` of an access at `a`: `a + k`, except in SCRATCH, where the
    /// offset wraps in its 32 bits and stays in the lane's memory.
    fn byte_at(&mut self, space: AddrSpace, a: &D::Bv, k: u32) -> D::Bv {
        let aw = self.d.width(a);
        if space == AddrSpace::Scratch && aw == 64 {
            let hi = self.d.extract(a, 63, 32);
            let lo = self.d.extract(a, 31, 0);
            let off = self.d.bv(k as u128, 32);
            let lo = self.d.op(BvOp::Add, &lo, &off);
            return self.d.concat(&hi, &lo);
        }
        let off = self.d.bv(k as u128, aw);
        self.d.op(BvOp::Add, a, &off)
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
        let mut acc: Option<D::Bv> = None;
        for k in 0..size {
            let ak = self.byte_at(space, &a, k);
            let byte = self.d.load(&mem, &ak);
            acc = Some(match acc {
                None => byte,
                Some(lo) => self.d.concat(&byte, &lo),
            });
        }
        let v = acc.expect("accesses are at least one byte");
        let z = self.d.bv(0, size * 8);
        let out = self.d.ite(&ok, &v, &z);
        self.d.accessed(&ok);
        Ok(out)
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
        let mut m = old.clone();
        for k in 0..size {
            let ak = self.byte_at(space, &a, k);
            let byte = self.d.extract(v, 8 * k + 7, 8 * k);
            m = self.d.store(&m, &ak, &byte);
        }
        st.mem[space] = self.d.ite_mem(&ok, &m, &old);
        self.d.accessed(&ok);
        Ok(())
    }
}
