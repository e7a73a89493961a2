//! Buffer hardware facts the pcode names as functions, beside the address arithmetic of
//! `crate::buffer`:
//!
//! - `CalcBufferAtomicAddr(VADDR, SRSRC, SOFFSET, OFFSET)`, the atomics' `CalcBufferAddr`: the
//!   access is undefined when one of its address components (the VGPR offset or address,
//!   SOFFSET, the instruction offset) is not a multiple of 4. LLVM `splitMUBUFOffset`
//!   (AMDGPUBaseInfo.cpp, later SIInstrInfo.cpp): "Atomic operations fail to work correctly
//!   when individual address components are unaligned, even if their sum is aligned", so LLVM
//!   keeps every component of an atomic's address aligned (it splits a constant as
//!   `(Imm + Align) & 4095` and `((Imm + Align) & ~4095) - Align`); no source says what the
//!   hardware does instead.
//! - The SOFFSET check of every range-checked access on SI/CI (setting `sici_soffset_clamp`).
//! - `MemFAddFlushF32(x)`: the memory-side f32 add of `buffer_atomic_add_f32` flushes denormals
//!   to zero of their sign on the targets without LLVM's
//!   `FeatureMemoryAtomicFAddF32DenormalSupport` ([`crate::target::Target::mem_fadd_f32_denormals`]).
//! - `DefaultComponent(x)`: what a format store writes into a component of the format it does
//!   not supply: 0 before GFX12, X on GFX12 ([`crate::target::Target::default_component_broadcast`]).

use super::*;
use crate::settings::SiciSoffsetClamp;

impl<D: Domain> Ev<'_, '_, D> {
    /// One of this module's functions, or `None` if `f` is not one.
    pub(super) fn buffer_hw_call(
        &mut self,
        f: &str,
        args: &[Expr],
        st: &mut St<D>,
    ) -> Result<Option<Val<D>>, EvalError> {
        if !matches!(
            f,
            "CalcBufferAtomicAddr" | "MemFAddFlushF32" | "DefaultComponent"
        ) {
            return Ok(None);
        }
        let Some(mode) = self.frame.buffer else {
            return err(format!("{f} is only defined for buffer instructions"));
        };
        let mut vals = Vec::new();
        for a in args {
            vals.push(self.expr(a, None, st)?);
        }
        let want = if f == "CalcBufferAtomicAddr" { 4 } else { 1 };
        if vals.len() != want {
            return err(format!("{f} takes {want} argument(s), got {}", vals.len()));
        }
        match f {
            "CalcBufferAtomicAddr" => {
                self.atomic_components(st, &mode, &vals)?;
                // The address itself as every buffer access computes it.
                self.call("CalcBufferAddr", args, st).map(Some)
            }
            "MemFAddFlushF32" => {
                let v = vals.pop().expect("one argument");
                let flush = !mode.target.mem_fadd_f32_denormals();
                self.flush_f32(v, flush).map(Some)
            }
            _ => {
                let Some(Val::Bits(x, ty)) = vals.pop() else {
                    return err("DefaultComponent needs a bit-vector value");
                };
                if mode.target.default_component_broadcast() {
                    return Ok(Some(Val::Bits(x, ty)));
                }
                let w = self.d.width(&x);
                Ok(Some(Val::Bits(self.d.bv(0, w), ty)))
            }
        }
    }

    /// Undefined behaviour when a component of an atomic's address is not dword aligned.
    fn atomic_components(
        &mut self,
        st: &mut St<D>,
        mode: &BufferMode,
        vals: &[Val<D>],
    ) -> Result<(), EvalError> {
        let (Val::Bits(vaddr, _), Val::Bits(soff, _), off) = (&vals[0], &vals[2], &vals[3]) else {
            return err("CalcBufferAtomicAddr needs bit-vector operands");
        };
        let off = self.address(off.clone())?;
        let low2 = |d: &mut D, x: &D::Bv| d.extract(x, 1, 0);
        let mut parts = vec![low2(self.d, soff), low2(self.d, &off)];
        // The VGPR component: the offset (VADDR, or VADDR+1 with idxen), or the ADDR64 address.
        if mode.offen || mode.addr64 {
            let v = if mode.idxen && !mode.addr64 && self.d.width(vaddr) >= 64 {
                self.d.extract(vaddr, 33, 32)
            } else {
                low2(self.d, vaddr)
            };
            parts.push(v);
        }
        let zero = self.d.bv(0, 2);
        for p in parts {
            let aligned = self.d.cmp(CmpOp::Eq, &p, &zero);
            let bad = self.d.lnot(&aligned);
            st.mem.ub = self.d.or(&st.mem.ub, &bad);
        }
        Ok(())
    }

    /// Under `sici_soffset_clamp=UNDEFINED` (gfx6/gfx7), a range-checked access with a
    /// non-zero SOFFSET (`vals`: `CalcBufferAddr`'s operands) is undefined behaviour.
    pub(super) fn sici_soffset(&mut self, st: &mut St<D>, mode: &BufferMode, vals: &[Val<D>]) {
        if self.frame.settings.sici_soffset_clamp != SiciSoffsetClamp::Undefined || mode.addr64 {
            return;
        }
        let Some(Val::Bits(soff, _)) = vals.get(2) else {
            return;
        };
        let w = self.d.width(soff);
        let zero = self.d.bv(0, w);
        let is_zero = self.d.cmp(CmpOp::Eq, soff, &zero);
        let bad = self.d.lnot(&is_zero);
        st.mem.ub = self.d.or(&st.mem.ub, &bad);
    }
}
