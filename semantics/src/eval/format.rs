//! The evaluator's format accesses: `ConvertFromFormat(addr, c[, FORMAT])` (component c of
//! the element at record offset `addr`, as a 32-bit register value; `ConvertFromFormatD16`
//! gives 16 bits) and `ConvertToFormat(addr, c, value[, FORMAT])` (stores component c;
//! `ConvertToFormatD16` takes a 16-bit value). AMD's pseudocode writes
//! `ConvertFromFormat(MEM[addr + ChannelOffsetX()])`; here the call does the access too,
//! because the element size, and so the all-or-nothing range check, depend on the format.
//! Without FORMAT the format and DST_SEL come from the V#; with it (`tbuffer_*`) from the
//! instruction (7 bits: gfx10+ unified code, before gfx10 `dfmt | nfmt << 4` as LLVM packs
//! it) with the identity select. Facts and sources: [`crate::buffer::format`].

use super::*;
use crate::buffer::format::{self as bf, Format};

/// One data format's view of the access: its condition and in-range flag, the (aligned)
/// address and the element's undefined-behaviour flag.
struct Elem<D: Domain> {
    df: u8,
    cond: D::Bool,
    ok: D::Bool,
    addr: D::Bv,
    ub: D::Bool,
}

impl<D: Domain> Ev<'_, '_, D> {
    /// A format call, or `None` if `f` is not one.
    pub(super) fn format_call(
        &mut self,
        f: &str,
        args: &[Expr],
        st: &mut St<D>,
    ) -> Result<Option<Val<D>>, EvalError> {
        // The `Default` stores write a component the instruction does not supply
        // (`DefaultComponent`), which exists only where the format has that component.
        let (load, bits, dflt) = match f {
            "ConvertFromFormat" => (true, 32, false),
            "ConvertFromFormatD16" => (true, 16, false),
            "ConvertToFormat" => (false, 32, false),
            "ConvertToFormatD16" => (false, 16, false),
            "ConvertToFormatDefault" => (false, 32, true),
            "ConvertToFormatD16Default" => (false, 16, true),
            _ => return Ok(None),
        };
        let n = if load { 2 } else { 3 };
        if args.len() != n && args.len() != n + 1 {
            return err(format!("{f} takes {n} or {} arguments", n + 1));
        }
        let Some(mode) = self.frame.buffer else {
            return err(format!("{f} is only defined for buffer instructions"));
        };
        let Expr::Lit { value: c, .. } = args[1] else {
            return err(format!("{f}: the component must be a literal 0..3"));
        };
        if c > 3 {
            return err(format!("{f}: component {c} is not 0..3"));
        }
        let a = self.expr(&args[0], Some(Ty::U32), st)?;
        let a = self.address(a)?;
        let fmt = self.format_of(st, &mode, args.get(n))?;
        let elems = self.elems(st, &mode, &a, &fmt)?;
        let c = c as usize;
        if load {
            let v = self.load_comp(st, &fmt, &elems, c, bits);
            self.accessed(&elems);
            return Ok(Some(Val::Bits(v, Ty::Bits(Kind::B, bits))));
        }
        let v = self.expr(&args[2], None, st)?;
        let v = self.convert(v, Ty::Bits(Kind::B, bits))?;
        let Val::Bits(v, _) = v else { unreachable!() };
        self.store_comp(st, &fmt, &elems, c, &v, dflt);
        self.accessed(&elems);
        Ok(Some(Val::Bool(self.d.boolean(true))))
    }

    /// Tell the domain the access of each data format is in range when it is the one the
    /// format names ([`Domain::accessed`]).
    fn accessed(&mut self, elems: &[Elem<D>]) {
        for e in elems {
            let other = self.d.lnot(&e.cond);
            let ok = self.d.or(&other, &e.ok);
            self.d.accessed(&ok);
        }
    }

    fn format_of(
        &mut self,
        st: &mut St<D>,
        mode: &BufferMode,
        code: Option<&Expr>,
    ) -> Result<Format<D>, EvalError> {
        let Some(e) = code else {
            let r = self.var_any(st, "SRSRC")?;
            if self.d.width(&r) != 128 {
                return err("SRSRC must be 128 bits");
            }
            return bf::from_vsharp(self.d, mode.target, &r).ok_or_else(|| EvalError {
                msg: format!("{} has no format instructions", mode.target),
            });
        };
        let v = self.expr(e, None, st)?;
        let Val::Bits(v, _) = self.convert(v, Ty::Bits(Kind::B, 7))? else {
            unreachable!()
        };
        Ok(if bf::ufmt_table(mode.target).is_some() {
            bf::from_unified(self.d, mode.target, &v)
        } else {
            Format {
                dfmt: self.d.extract(&v, 3, 0),
                nfmt: self.d.extract(&v, 6, 4),
                dst_sel: None,
                bad: self.d.boolean(false),
            }
        })
    }

    /// The access under each data format the code can name (range check over the element,
    /// address aligned as the alignment setting says for the component size).
    fn elems(
        &mut self,
        st: &mut St<D>,
        mode: &BufferMode,
        a: &D::Bv,
        fmt: &Format<D>,
    ) -> Result<Vec<Elem<D>>, EvalError> {
        let inp = crate::buffer::BufferInputs {
            vaddr: self.var_any(st, "VADDR")?,
            srsrc: self.var_any(st, "SRSRC")?,
            soffset: self.var_bits(st, "SOFFSET")?,
            offset: self.var_any(st, "OFFSET")?,
            lane_id: self.var_bits(st, "LANE_ID")?,
        };
        let mut out = Vec::new();
        for df in 1..=14u8 {
            let cond = bf::is(self.d, &fmt.dfmt, df as u128);
            if self.d.known(&cond) == Some(false) {
                continue;
            }
            let size = bf::dfmt_bytes(df);
            let settings = self.frame.settings;
            let acc = crate::buffer::access(self.d, mode, &settings, &inp, a, size);
            let comp = if bf::byte_aligned(df) {
                bf::dfmt_widths(df).unwrap()[0] / 8
            } else {
                4
            };
            let (addr, mis) = self.align(&acc.addr, comp);
            let ub = self.d.or(&acc.unmodelled, &mis);
            out.push(Elem {
                df,
                cond,
                ok: acc.in_range,
                addr,
                ub,
            });
        }
        Ok(out)
    }

    /// `a` aligned to `natural` bytes as the alignment setting says, and whether it is
    /// misaligned under `strict`.
    fn align(&mut self, a: &D::Bv, natural: u32) -> (D::Bv, D::Bool) {
        let aw = self.d.width(a);
        let f = self.d.boolean(false);
        if natural <= 1 {
            return (a.clone(), f);
        }
        match self.frame.settings.alignment {
            Alignment::Unaligned => (a.clone(), f),
            Alignment::Dword => {
                let all = (1u128 << aw) - 1;
                let m = self.d.bv(!(natural as u128 - 1) & all, aw);
                (self.d.op(BvOp::And, a, &m), f)
            }
            Alignment::Strict => {
                let m = self.d.bv(natural as u128 - 1, aw);
                let low = self.d.op(BvOp::And, a, &m);
                let z = self.d.bv(0, aw);
                let ok = self.d.cmp(CmpOp::Eq, &low, &z);
                (a.clone(), self.d.lnot(&ok))
            }
        }
    }

    /// `v` per number format: `f(nf)` for nf 0..7, ite on the code; `None` arms are undefined.
    fn by_nfmt(
        &mut self,
        nf: &D::Bv,
        bits: u32,
        mut f: impl FnMut(&mut D, u8) -> Option<D::Bv>,
    ) -> (D::Bv, D::Bool) {
        let mut v = self.d.bv(0, bits);
        let mut ub = self.d.boolean(false);
        for n in 0..8u8 {
            let c = bf::is(self.d, nf, n as u128);
            if self.d.known(&c) == Some(false) {
                continue;
            }
            match f(self.d, n) {
                Some(x) => v = bf::pick(self.d, &c, &x, &v),
                None => ub = self.d.or(&ub, &c),
            }
        }
        (v, ub)
    }

    fn load_comp(
        &mut self,
        st: &mut St<D>,
        fmt: &Format<D>,
        elems: &[Elem<D>],
        c: usize,
        bits: u32,
    ) -> D::Bv {
        let nf = fmt.nfmt.clone();
        let (one, _) = self.by_nfmt(&nf, bits, |d, n| Some(d.bv(bf::one(n, bits), bits)));
        let zero = self.d.bv(0, bits);
        let sel = match &fmt.dst_sel {
            Some(s) => s[c].clone(),
            None => self.d.bv(4 + c as u128, 3),
        };
        let sel1 = bf::is(self.d, &sel, 1);
        let sel_bad = {
            let s2 = bf::is(self.d, &sel, 2);
            let s3 = bf::is(self.d, &sel, 3);
            self.d.or(&s2, &s3)
        };
        let oob_v = self.d.ite(&sel1, &one, &zero);
        let mut v = zero.clone();
        let mut ub = fmt.bad.clone();
        let mem = st.mem[AddrSpace::Global].clone();
        for e in elems {
            let widths = bf::dfmt_widths(e.df).unwrap();
            let size = bf::dfmt_bytes(e.df);
            let mut raw: Option<D::Bv> = None;
            for k in 0..size {
                let off = self.d.bv(k as u128, 64);
                let ak = self.d.op(BvOp::Add, &e.addr, &off);
                let byte = self.d.load(&mem, &ak);
                raw = Some(match raw {
                    None => byte,
                    Some(lo) => self.d.concat(&byte, &lo),
                });
            }
            let raw = raw.expect("elements are at least one byte");
            // Source components R, G, B, A (missing: 0, alpha 1).
            let mut val = self.d.ite(&sel1, &one, &zero);
            let mut conv_ub = sel_bad.clone();
            let mut lo = 0;
            for k in 0..4usize {
                let (x, kub) = if k < widths.len() {
                    let w = widths[k];
                    let comp = self.d.extract(&raw, lo + w - 1, lo);
                    lo += w;
                    self.by_nfmt(&nf, bits, |d, n| bf::to_reg(d, n, &comp, bits))
                } else if k == 3 {
                    (one.clone(), self.d.boolean(false))
                } else {
                    (zero.clone(), self.d.boolean(false))
                };
                let is_k = bf::is(self.d, &sel, 4 + k as u128);
                val = bf::pick(self.d, &is_k, &x, &val);
                let u = self.d.and(&is_k, &kub);
                conv_ub = self.d.or(&conv_ub, &u);
            }
            let r = self.d.ite(&e.ok, &val, &oob_v);
            v = bf::pick(self.d, &e.cond, &r, &v);
            let cu = self.d.and(&e.ok, &conv_ub);
            let all = self.d.or(&cu, &e.ub);
            let here = self.d.and(&e.cond, &all);
            ub = self.d.or(&ub, &here);
        }
        let known_df = elems.iter().fold(self.d.boolean(false), |acc, e| {
            let c = e.cond.clone();
            self.d.or(&acc, &c)
        });
        let unknown_df = self.d.lnot(&known_df);
        ub = self.d.or(&ub, &unknown_df);
        st.mem.ub = self.d.or(&st.mem.ub, &ub);
        v
    }

    fn store_comp(
        &mut self,
        st: &mut St<D>,
        fmt: &Format<D>,
        elems: &[Elem<D>],
        c: usize,
        v: &D::Bv,
        dflt: bool,
    ) {
        let nf = fmt.nfmt.clone();
        let mut ub = fmt.bad.clone();
        if let Some(s) = &fmt.dst_sel {
            let id = bf::is(self.d, &s[c], 4 + c as u128);
            let mut not_id = self.d.lnot(&id);
            if dflt {
                // A default component's select matters only where the format has it.
                let mut has = self.d.boolean(false);
                for e in elems
                    .iter()
                    .filter(|e| c < bf::dfmt_widths(e.df).map_or(0, |w| w.len()))
                {
                    has = self.d.or(&has, &e.cond);
                }
                not_id = self.d.and(&not_id, &has);
            }
            ub = self.d.or(&ub, &not_id);
        }
        let mut known_df = self.d.boolean(false);
        for e in elems {
            known_df = self.d.or(&known_df, &e.cond);
            let widths = bf::dfmt_widths(e.df).unwrap();
            let mut here = e.ub.clone();
            if !bf::byte_aligned(e.df) {
                // Storing part of a bit-packed element: not documented.
                let t = self.d.boolean(true);
                here = self.d.or(&here, &t);
            } else if c < widths.len() {
                let w = widths[c];
                let lo: u32 = widths[..c].iter().sum();
                let mut exact = self.d.boolean(true);
                let mut cub = self.d.boolean(false);
                let mut bitsv = self.d.bv(0, w);
                for n in 0..8u8 {
                    let is_n = bf::is(self.d, &nf, n as u128);
                    if self.d.known(&is_n) == Some(false) {
                        continue;
                    }
                    match bf::from_reg(self.d, n, v, w) {
                        Some((b, ex)) => {
                            bitsv = bf::pick(self.d, &is_n, &b, &bitsv);
                            exact = match self.d.known(&is_n) {
                                Some(true) => ex,
                                _ => self.d.ite_bool(&is_n, &ex, &exact),
                            };
                        }
                        None => cub = self.d.or(&cub, &is_n),
                    }
                }
                let inexact = self.d.lnot(&exact);
                let cu = self.d.or(&cub, &inexact);
                let cu = self.d.and(&e.ok, &cu);
                here = self.d.or(&here, &cu);
                let old = st.mem[AddrSpace::Global].clone();
                let mut m = old.clone();
                for k in 0..w / 8 {
                    let off = self.d.bv((lo / 8 + k) as u128, 64);
                    let ak = self.d.op(BvOp::Add, &e.addr, &off);
                    let byte = self.d.extract(&bitsv, 8 * k + 7, 8 * k);
                    m = self.d.store(&m, &ak, &byte);
                }
                let wr = self.d.and(&e.cond, &e.ok);
                st.mem[AddrSpace::Global] = match self.d.known(&wr) {
                    Some(true) => m,
                    Some(false) => old,
                    None => self.d.ite_mem(&wr, &m, &old),
                };
            }
            let h = self.d.and(&e.cond, &here);
            ub = self.d.or(&ub, &h);
        }
        let unknown_df = self.d.lnot(&known_df);
        ub = self.d.or(&ub, &unknown_df);
        st.mem.ub = self.d.or(&st.mem.ub, &ub);
    }
}
