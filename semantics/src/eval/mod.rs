//! The evaluator: runs one [`Def`] body over any [`Domain`], applying the machine
//! [`Settings`] (alignment, LDS bound) at every memory access. The interpreter and the SMT
//! encoding are both this code.

use crate::buffer::BufferMode;
use crate::domain::{BvOp, CmpOp, Domain, FpOp};
use crate::ir::*;
use crate::settings::{Alignment, LdsLimit, Settings};
use crate::ty::{FpFmt, Kind, Ty};
use std::collections::BTreeMap;
use thiserror::Error;

mod space;
pub use space::{AddrSpace, PerSpace};

/// A typed value in a domain.
pub enum Val<D: Domain> {
    /// A bit-vector whose width is the type's width, read as the type says.
    Bits(D::Bv, Ty),
    /// A boolean (comparisons, `true`/`false`, `&&`/`||`).
    Bool(D::Bool),
}

impl<D: Domain> Clone for Val<D> {
    fn clone(&self) -> Self {
        match self {
            Val::Bits(b, t) => Val::Bits(b.clone(), *t),
            Val::Bool(b) => Val::Bool(b.clone()),
        }
    }
}

impl<D: Domain> std::fmt::Debug for Val<D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Val::Bits(b, t) => write!(f, "{b:?}:{t}"),
            Val::Bool(b) => write!(f, "{b:?}"),
        }
    }
}

impl<D: Domain> Val<D> {
    /// The bits and type; booleans are 1-bit `.b1`.
    pub fn ty(&self) -> Ty {
        match self {
            Val::Bits(_, t) => *t,
            Val::Bool(_) => Ty::Bool,
        }
    }
}

/// An evaluation error: a semantics entry that does not type-check for the operands given.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("{msg}")]
pub struct EvalError {
    /// The reason, naming the construct, e.g. ``unknown name `DATA2` ``.
    pub msg: String,
}

fn err<T>(msg: impl Into<String>) -> Result<T, EvalError> {
    Err(EvalError { msg: msg.into() })
}

/// The memory state an instruction reads and writes: one memory per [`AddrSpace`] and the
/// undefined-behaviour flag.
pub struct MemState<D: Domain> {
    /// The memories, addresses of [`AddrSpace::addr_width`] bits each.
    pub spaces: PerSpace<D::Mem>,
    /// True when some executed path hit `UNDEFINED` (e.g. a misaligned access under STRICT).
    pub ub: D::Bool,
}

impl<D: Domain> MemState<D> {
    /// The state with memory `f(space)` for every space and the given `ub` flag.
    pub fn new(f: impl FnMut(AddrSpace) -> D::Mem, ub: D::Bool) -> MemState<D> {
        MemState {
            spaces: PerSpace::from_fn(f),
            ub,
        }
    }
}

impl<D: Domain> Clone for MemState<D> {
    fn clone(&self) -> Self {
        MemState {
            spaces: self.spaces.clone(),
            ub: self.ub.clone(),
        }
    }
}

impl<D: Domain> std::ops::Index<AddrSpace> for MemState<D> {
    type Output = D::Mem;
    fn index(&self, s: AddrSpace) -> &D::Mem {
        &self.spaces[s]
    }
}

impl<D: Domain> std::ops::IndexMut<AddrSpace> for MemState<D> {
    fn index_mut(&mut self, s: AddrSpace) -> &mut D::Mem {
        &mut self.spaces[s]
    }
}

/// What `MEM[...]` in an entry names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemView {
    /// One address space: LDS (32-bit addresses, the LDS bound of the settings), GDS (based at
    /// `M0[31:16]`, bounded by `M0[15:0]`, CLRX GcnInstrsDs "GDS"), or global memory: through
    /// the V# when the frame has a [`BufferMode`], else at the 64-bit address the entry
    /// computes with no range check and byte alignment (`global_*`, `s_load_*`: AMD CDNA3 ISA
    /// guide, "Global instructions": the address is `SADDR + VADDR[31:0] + OFFSET` or
    /// `VADDR + OFFSET`).
    Space(AddrSpace),
    /// A FLAT access: a 64-bit address that reaches LDS, scratch or global memory by the
    /// aperture it lies in (see the evaluator's `flat_paths`); the variables `SHARED_BASE` and
    /// `PRIVATE_BASE` (the apertures' 32-bit high halves) must be set.
    Flat,
}

/// How one instruction runs: its settings, the memory it addresses, and the operand names it
/// may use.
pub struct Frame<'a> {
    /// Alignment, LDS bound and buffer range-check assumptions applied at every access.
    pub settings: Settings,
    /// The memory `MEM[...]` names.
    pub mem: MemView,
    /// Operand aliases of the entry name being run (`SRC = DATA1`).
    pub aliases: &'a [(String, String)],
    /// A buffer instruction: MEM is global memory addressed through the V# (see
    /// [`crate::buffer`]); the variables VADDR, SRSRC, SOFFSET and LANE_ID must be set.
    pub buffer: Option<BufferMode>,
}

impl Frame<'static> {
    /// A frame with no instruction operands: MEM is LDS, no operand aliases, no buffer
    /// addressing (preconditions, immediates, the VALU/SALU entries).
    pub fn plain(settings: Settings) -> Frame<'static> {
        Frame {
            settings,
            mem: MemView::Space(AddrSpace::Lds),
            aliases: &[],
            buffer: None,
        }
    }
}

impl Frame<'_> {
    /// Whether MEM is indexed by an address the entry computes in 64 bits (GLOBAL, scalar
    /// loads and FLAT), rather than a 32-bit LDS/GDS address or a buffer offset.
    fn wide_address(&self) -> bool {
        match self.mem {
            MemView::Space(s) => s == AddrSpace::Global && self.buffer.is_none(),
            MemView::Flat => true,
        }
    }
}

struct St<D: Domain> {
    vars: BTreeMap<String, Val<D>>,
    mem: MemState<D>,
}

impl<D: Domain> Clone for St<D> {
    fn clone(&self) -> Self {
        St {
            vars: self.vars.clone(),
            mem: self.mem.clone(),
        }
    }
}

/// The final variables and memory of a run.
pub type RunResult<D> = (BTreeMap<String, Val<D>>, MemState<D>);

/// Run `body` with the operand values in `vars` (ADDR, DATA0, DATA1, OFFSET0, OFFSET1, M0,
/// LDS_SIZE, LANE_ID, RETURN_DATA = old destination contents, ...). Returns the final variables
/// (RETURN_DATA among them) and memory.
///
/// Errors: an unknown name, a type mismatch or a malformed built-in call in the entry.
pub fn run<D: Domain>(
    d: &mut D,
    frame: &Frame,
    body: &[Stmt],
    vars: BTreeMap<String, Val<D>>,
    mem: MemState<D>,
) -> Result<RunResult<D>, EvalError> {
    let mut st = St { vars, mem };
    let mut ev = Ev { d, frame };
    ev.stmts(body, &mut st)?;
    Ok((st.vars, st.mem))
}

/// Evaluate one expression over `vars` (no statements; memory reads see `mem`).
///
/// Errors: as for [`run`].
pub fn eval_expr<D: Domain>(
    d: &mut D,
    frame: &Frame,
    e: &Expr,
    hint: Option<Ty>,
    vars: BTreeMap<String, Val<D>>,
    mem: MemState<D>,
) -> Result<Val<D>, EvalError> {
    let mut st = St { vars, mem };
    let mut ev = Ev { d, frame };
    ev.expr(e, hint, &mut st)
}

/// A value as a condition: booleans as they are, bit-vectors true when non-zero (C's rule, as
/// AMD's pseudocode uses it).
pub fn truth<D: Domain>(d: &mut D, v: Val<D>) -> D::Bool {
    match v {
        Val::Bool(b) => b,
        Val::Bits(b, t) => {
            let z = d.bv(0, t.width());
            let e = d.cmp(CmpOp::Eq, &b, &z);
            d.lnot(&e)
        }
    }
}

struct Ev<'a, 'b, D: Domain> {
    d: &'a mut D,
    frame: &'a Frame<'b>,
}

fn pow2_ceil(n: u32) -> u32 {
    n.next_power_of_two()
}

impl<D: Domain> Ev<'_, '_, D> {
    fn stmts(&mut self, ss: &[Stmt], st: &mut St<D>) -> Result<(), EvalError> {
        for s in ss {
            self.stmt(s, st)?;
        }
        Ok(())
    }

    fn stmt(&mut self, s: &Stmt, st: &mut St<D>) -> Result<(), EvalError> {
        match s {
            Stmt::Undefined => {
                st.mem.ub = self.d.boolean(true);
                Ok(())
            }
            Stmt::If(arms, els) => self.if_chain(arms, els, st),
            Stmt::Assign(LValue::Mem { addr, ty }, e) => {
                let hint = self.addr_ty();
                let a = self.expr(addr, Some(hint), st)?;
                let a = self.address(a)?;
                let v = self.expr(e, Some(*ty), st)?;
                let v = self.convert(v, *ty)?;
                let Val::Bits(bits, _) = v else {
                    unreachable!("convert gives bits")
                };
                self.mem_write(st, &a, ty.width() / 8, &bits)
            }
            Stmt::Assign(LValue::Var { name, ty, slice }, e) => {
                let name = self.resolve(name);
                let old = st.vars.get(&name).cloned();
                let v = self.expr(e, *ty, st)?;
                let v = match ty {
                    Some(t) => self.convert(v, *t)?,
                    None => v,
                };
                let new = match (slice, old) {
                    (Some((hi, lo)), Some(Val::Bits(ob, ot))) => {
                        let w = ot.width();
                        if *hi >= w {
                            return err(format!("bit {hi} outside {name} ({w} bits)"));
                        }
                        let v = self.convert(v, Ty::Bits(Kind::B, hi - lo + 1))?;
                        let Val::Bits(vb, _) = v else { unreachable!() };
                        Val::Bits(self.splice(&ob, w, *hi, *lo, &vb), ot)
                    }
                    (Some(_), _) => return err(format!("slice assignment to undefined `{name}`")),
                    // A typed write narrower than an existing register replaces its low bits,
                    // as a VGPR view does (`RETURN_DATA.b32 = ...` on a 64-bit destination).
                    (None, Some(Val::Bits(ob, ot)))
                        if ty.is_some() && v.ty().width() < ot.width() =>
                    {
                        let Val::Bits(vb, _) = v else { unreachable!() };
                        let w = ot.width();
                        let hi = self.d.width(&vb) - 1;
                        Val::Bits(self.splice(&ob, w, hi, 0, &vb), ot)
                    }
                    (None, _) => v,
                };
                st.vars.insert(name, new);
                Ok(())
            }
        }
    }

    fn splice(&mut self, old: &D::Bv, w: u32, hi: u32, lo: u32, v: &D::Bv) -> D::Bv {
        let mut out = v.clone();
        if lo > 0 {
            let low = self.d.extract(old, lo - 1, 0);
            out = self.d.concat(&out, &low);
        }
        if hi + 1 < w {
            let high = self.d.extract(old, w - 1, hi + 1);
            out = self.d.concat(&high, &out);
        }
        out
    }

    fn if_chain(
        &mut self,
        arms: &[(Expr, Vec<Stmt>)],
        els: &[Stmt],
        st: &mut St<D>,
    ) -> Result<(), EvalError> {
        let Some(((c, body), rest)) = arms.split_first() else {
            return self.stmts(els, st);
        };
        let cv = self.expr(c, None, st)?;
        let cb = self.truth(cv)?;
        match self.d.known(&cb) {
            Some(true) => self.stmts(body, st),
            Some(false) => self.if_chain(rest, els, st),
            None => {
                let mut t = st.clone();
                self.d.guard_begin(&cb);
                self.stmts(body, &mut t)?;
                self.d.guard_end();
                let mut f = st.clone();
                let ncb = self.d.lnot(&cb);
                self.d.guard_begin(&ncb);
                self.if_chain(rest, els, &mut f)?;
                self.d.guard_end();
                *st = self.merge(&cb, t, f)?;
                Ok(())
            }
        }
    }

    fn merge(&mut self, c: &D::Bool, t: St<D>, f: St<D>) -> Result<St<D>, EvalError> {
        let mut vars = BTreeMap::new();
        for (k, tv) in &t.vars {
            let v = match f.vars.get(k) {
                Some(fv) => match (tv, fv) {
                    (Val::Bits(a, ta), Val::Bits(b, tb)) if ta.width() == tb.width() => {
                        Val::Bits(self.d.ite(c, a, b), *ta)
                    }
                    (Val::Bool(a), Val::Bool(b)) => Val::Bool(self.d.ite_bool(c, a, b)),
                    _ => return err(format!("`{k}` has different types on the two branches")),
                },
                // Defined on one path only: a later use on the other path would be a bug in
                // the entry, which the concrete runs would expose.
                None => tv.clone(),
            };
            vars.insert(k.clone(), v);
        }
        for (k, fv) in f.vars {
            vars.entry(k).or_insert(fv);
        }
        let mem = MemState {
            spaces: PerSpace::from_fn(|s| self.d.ite_mem(c, &t.mem[s], &f.mem[s])),
            ub: self.d.ite_bool(c, &t.mem.ub, &f.mem.ub),
        };
        Ok(St { vars, mem })
    }

    fn resolve(&self, name: &str) -> String {
        if let Some((_, b)) = self.frame.aliases.iter().find(|(a, _)| a == name) {
            return b.clone();
        }
        match name {
            // DS: DATA is DATA0. Buffer entries bind DATA itself.
            "DATA" if self.frame.buffer.is_none() => "DATA0".to_string(),
            "DATA2" => "DATA1".to_string(),
            _ => name.to_string(),
        }
    }

    fn truth(&mut self, v: Val<D>) -> Result<D::Bool, EvalError> {
        Ok(truth(self.d, v))
    }

    /// The type of a MEM index: 64 bits for global-segment accesses, else 32 (an LDS/GDS
    /// address, or a buffer offset that [`crate::buffer`] maps to a 64-bit address).
    fn addr_ty(&self) -> Ty {
        if self.frame.wide_address() {
            Ty::Bits(Kind::U, 64)
        } else {
            Ty::U32
        }
    }

    fn address(&mut self, v: Val<D>) -> Result<D::Bv, EvalError> {
        let ty = self.addr_ty();
        let v = self.convert(v, ty)?;
        let Val::Bits(b, _) = v else { unreachable!() };
        Ok(b)
    }

    /// View `v` as `ty`: same width relabels, narrower truncates, wider extends by the source's
    /// signedness. Booleans become 1 or 0.
    fn convert(&mut self, v: Val<D>, ty: Ty) -> Result<Val<D>, EvalError> {
        let (b, from) = match v {
            Val::Bool(b) => {
                if ty == Ty::Bool {
                    return Ok(Val::Bool(b));
                }
                let one = self.d.bv(1, 1);
                let zero = self.d.bv(0, 1);
                (self.d.ite(&b, &one, &zero), Ty::Bits(Kind::U, 1))
            }
            Val::Bits(b, t) => (b, t),
        };
        let Ty::Bits(_, to_w) = ty else {
            let bv = Val::Bits(b, from);
            return Ok(Val::Bool(self.truth(bv)?));
        };
        let w = from.width();
        let out = if to_w == w {
            b
        } else if to_w < w {
            self.d.extract(&b, to_w - 1, 0)
        } else if from.kind() == Some(Kind::I) {
            self.d.sext(&b, to_w - w)
        } else {
            self.d.zext(&b, to_w - w)
        };
        Ok(Val::Bits(out, ty))
    }

    fn lit(
        &mut self,
        value: u128,
        suffix: LitSuffix,
        hint: Option<Ty>,
    ) -> Result<Val<D>, EvalError> {
        let ty = match suffix {
            LitSuffix::U => Ty::Bits(Kind::U, 32),
            LitSuffix::Ull => Ty::Bits(Kind::U, 64),
            LitSuffix::Ll => Ty::Bits(Kind::I, 64),
            LitSuffix::None => match hint {
                Some(Ty::Bits(k, w)) => Ty::Bits(
                    if matches!(k, Kind::F | Kind::Bf) {
                        Kind::B
                    } else {
                        k
                    },
                    w,
                ),
                _ => {
                    if value <= u32::MAX as u128 {
                        Ty::Bits(Kind::I, 32)
                    } else if value <= u64::MAX as u128 {
                        Ty::Bits(Kind::U, 64)
                    } else {
                        Ty::Bits(Kind::U, 128)
                    }
                }
            },
        };
        let w = ty.width();
        if w < 128 && value >> w != 0 {
            return err(format!("literal {value} does not fit in .{ty}"));
        }
        Ok(Val::Bits(self.d.bv(value, w), ty))
    }

    fn is_untyped_lit(e: &Expr) -> bool {
        match e {
            Expr::Lit {
                suffix: LitSuffix::None,
                ..
            } => true,
            Expr::Unary(UnOp::Neg | UnOp::Not, x) => Self::is_untyped_lit(x),
            _ => false,
        }
    }

    /// Evaluate a pair so that an untyped literal takes the other side's type, each side under
    /// its guard if it has one ([`Domain::guard_begin`]: the arms of `?:`).
    fn pair(
        &mut self,
        a: &Expr,
        b: &Expr,
        hint: Option<Ty>,
        st: &mut St<D>,
        [ga, gb]: [Option<&D::Bool>; 2],
    ) -> Result<(Val<D>, Val<D>), EvalError> {
        if Self::is_untyped_lit(a) && !Self::is_untyped_lit(b) {
            let bv = self.expr_guarded(gb, b, hint, st)?;
            let av = self.expr_guarded(ga, a, Some(bv.ty()), st)?;
            Ok((av, bv))
        } else {
            let av = self.expr_guarded(ga, a, hint, st)?;
            let h = if matches!(av, Val::Bits(..)) {
                Some(av.ty())
            } else {
                hint
            };
            let bv = self.expr_guarded(gb, b, h, st)?;
            Ok((av, bv))
        }
    }

    /// `e` evaluated under the guard `g` (none: as is).
    fn expr_guarded(
        &mut self,
        g: Option<&D::Bool>,
        e: &Expr,
        hint: Option<Ty>,
        st: &mut St<D>,
    ) -> Result<Val<D>, EvalError> {
        g.iter().for_each(|g| self.d.guard_begin(g));
        let v = self.expr(e, hint, st)?;
        g.iter().for_each(|_| self.d.guard_end());
        Ok(v)
    }

    /// Bring two bit values to one width and kind for an arithmetic or compare operation.
    fn unify(&mut self, a: Val<D>, b: Val<D>) -> Result<(D::Bv, D::Bv, Ty), EvalError> {
        let (ta, tb) = (a.ty(), b.ty());
        let (Ty::Bits(ka, wa), Ty::Bits(kb, wb)) = (ta, tb) else {
            return err(format!("expected bit-vectors, found .{ta} and .{tb}"));
        };
        let kind = if matches!(ka, Kind::F | Kind::Bf) || matches!(kb, Kind::F | Kind::Bf) {
            if (ka, wa) != (kb, wb) && !(ka == kb) {
                return err(format!(
                    "mixing .{ta} and .{tb} needs an explicit conversion"
                ));
            }
            ka
        } else if ka == Kind::I || kb == Kind::I {
            Kind::I
        } else if ka == Kind::U || kb == Kind::U {
            Kind::U
        } else {
            Kind::B
        };
        let w = wa.max(wb);
        let ty = Ty::Bits(kind, w);
        let Val::Bits(x, _) = self.convert(a, Ty::Bits(ka, w))? else {
            unreachable!()
        };
        let Val::Bits(y, _) = self.convert(b, Ty::Bits(kb, w))? else {
            unreachable!()
        };
        Ok((x, y, ty))
    }

    fn expr(&mut self, e: &Expr, hint: Option<Ty>, st: &mut St<D>) -> Result<Val<D>, EvalError> {
        match e {
            Expr::Lit { value, suffix, .. } => self.lit(*value, *suffix, hint),
            Expr::BoolLit(b) => Ok(Val::Bool(self.d.boolean(*b))),
            Expr::Sized { width, value } => Ok(Val::Bits(
                self.d.bv(*value, *width),
                Ty::Bits(Kind::B, *width),
            )),
            Expr::Var(n) => {
                let r = self.resolve(n);
                st.vars.get(&r).cloned().ok_or_else(|| EvalError {
                    msg: format!("unknown name `{n}`"),
                })
            }
            Expr::Field(x, ty) => {
                let h = if Self::is_untyped_lit(x) {
                    Some(*ty)
                } else {
                    None
                };
                let v = self.expr(x, h, st)?;
                self.convert(v, *ty)
            }
            Expr::Mem(a, ty) => {
                let hint = self.addr_ty();
                let av = self.expr(a, Some(hint), st)?;
                let addr = self.address(av)?;
                let bits = self.mem_read(st, &addr, ty.width() / 8)?;
                Ok(Val::Bits(bits, *ty))
            }
            Expr::Slice(x, hi, lo) => {
                let v = self.expr(x, None, st)?;
                let Val::Bits(b, t) = v else {
                    return err("cannot slice a boolean");
                };
                if *hi >= t.width() {
                    return err(format!("bit {hi} outside a .{t} value"));
                }
                Ok(Val::Bits(
                    self.d.extract(&b, *hi, *lo),
                    Ty::Bits(Kind::B, hi - lo + 1),
                ))
            }
            Expr::Concat(parts) => {
                let mut acc: Option<D::Bv> = None;
                let mut w = 0;
                for p in parts {
                    let v = self.expr(p, None, st)?;
                    let Val::Bits(b, t) = v else {
                        return err("cannot concatenate a boolean");
                    };
                    w += t.width();
                    if w > 128 {
                        return err("concatenation wider than 128 bits");
                    }
                    acc = Some(match acc {
                        None => b,
                        Some(hi) => self.d.concat(&hi, &b),
                    });
                }
                Ok(Val::Bits(
                    acc.expect("parser requires two parts"),
                    Ty::Bits(Kind::B, w),
                ))
            }
            Expr::Unary(op, x) => {
                let v = self.expr(x, hint, st)?;
                match (op, v) {
                    (UnOp::LNot, v) => {
                        let b = self.truth(v)?;
                        Ok(Val::Bool(self.d.lnot(&b)))
                    }
                    (_, Val::Bool(_)) => err("arithmetic on a boolean"),
                    (UnOp::Not, Val::Bits(b, t)) => Ok(Val::Bits(self.d.not(&b), t)),
                    (UnOp::Neg, Val::Bits(b, t)) => {
                        let w = t.width();
                        if t.fp().is_some() {
                            let s = self.d.bv(1u128 << (w - 1), w);
                            Ok(Val::Bits(self.d.op(BvOp::Xor, &b, &s), t))
                        } else {
                            let z = self.d.bv(0, w);
                            Ok(Val::Bits(self.d.op(BvOp::Sub, &z, &b), t))
                        }
                    }
                }
            }
            Expr::Binary(op, a, b) => self.binary(*op, a, b, hint, st),
            Expr::Cond(c, a, b) => {
                let cv = self.expr(c, None, st)?;
                let cb = self.truth(cv)?;
                let ncb = self.d.known(&cb).is_none().then(|| self.d.lnot(&cb));
                let guards = [ncb.as_ref().map(|_| &cb), ncb.as_ref()];
                let (av, bv) = self.pair(a, b, hint, st, guards)?;
                match (av, bv) {
                    (Val::Bool(x), Val::Bool(y)) => Ok(Val::Bool(self.d.ite_bool(&cb, &x, &y))),
                    (av, bv) => {
                        let (x, y, ty) = self.unify(av, bv)?;
                        Ok(Val::Bits(self.d.ite(&cb, &x, &y), ty))
                    }
                }
            }
            Expr::Call(f, args) => self.call(f, args, st),
        }
    }

    fn binary(
        &mut self,
        op: BinOp,
        a: &Expr,
        b: &Expr,
        hint: Option<Ty>,
        st: &mut St<D>,
    ) -> Result<Val<D>, EvalError> {
        use BinOp::*;
        if matches!(op, LAnd | LOr) {
            let av = self.expr(a, None, st)?;
            let x = self.truth(av)?;
            // `b` decides only when `a` is true (`&&`) or false (`||`).
            let g = match (self.d.known(&x), op) {
                (Some(_), _) => None,
                (None, LAnd) => Some(x.clone()),
                (None, _) => Some(self.d.lnot(&x)),
            };
            let bv = self.expr_guarded(g.as_ref(), b, None, st)?;
            let y = self.truth(bv)?;
            return Ok(Val::Bool(if op == LAnd {
                self.d.and(&x, &y)
            } else {
                self.d.or(&x, &y)
            }));
        }
        let h = if op.is_compare() { None } else { hint };
        let (av, bv) = self.pair(a, b, h, st, [None, None])?;
        if let (Val::Bool(x), Val::Bool(y)) = (&av, &bv) {
            return match op {
                And => Ok(Val::Bool(self.d.and(x, y))),
                Or => Ok(Val::Bool(self.d.or(x, y))),
                Eq | Ne | Xor => {
                    let n = self.d.lnot(y);
                    let eq = self.d.ite_bool(x, y, &n);
                    Ok(Val::Bool(if op == Eq { eq } else { self.d.lnot(&eq) }))
                }
                _ => err(format!("`{}` on booleans", op.symbol())),
            };
        }
        if matches!(op, Shl | Shr) {
            let Val::Bits(x, t) = av else {
                return err("shift of a boolean");
            };
            let amount = self.convert(bv, Ty::Bits(Kind::U, t.width()))?;
            let Val::Bits(y, _) = amount else {
                unreachable!()
            };
            let o = match (op, t.kind()) {
                (Shl, _) => BvOp::Shl,
                (_, Some(Kind::I)) => BvOp::AShr,
                _ => BvOp::LShr,
            };
            return Ok(Val::Bits(self.d.op(o, &x, &y), t));
        }
        let (x, y, ty) = self.unify(av, bv)?;
        if let Some(fmt) = ty.fp() {
            return self.fp_binary(op, fmt, &x, &y, ty);
        }
        let signed = ty.kind() == Some(Kind::I);
        let bvop = match op {
            Add => BvOp::Add,
            Sub => BvOp::Sub,
            Mul => BvOp::Mul,
            Div => {
                if signed {
                    BvOp::SDiv
                } else {
                    BvOp::UDiv
                }
            }
            Rem => {
                if signed {
                    BvOp::SRem
                } else {
                    BvOp::URem
                }
            }
            And => BvOp::And,
            Or => BvOp::Or,
            Xor => BvOp::Xor,
            Lt | Le | Gt | Ge | Eq | Ne => {
                let (l, r, o) = match op {
                    Lt => (&x, &y, if signed { CmpOp::Slt } else { CmpOp::Ult }),
                    Le => (&x, &y, if signed { CmpOp::Sle } else { CmpOp::Ule }),
                    Gt => (&y, &x, if signed { CmpOp::Slt } else { CmpOp::Ult }),
                    Ge => (&y, &x, if signed { CmpOp::Sle } else { CmpOp::Ule }),
                    _ => (&x, &y, CmpOp::Eq),
                };
                let c = self.d.cmp(o, l, r);
                return Ok(Val::Bool(if op == Ne { self.d.lnot(&c) } else { c }));
            }
            Shl | Shr | LAnd | LOr => unreachable!("handled above"),
        };
        Ok(Val::Bits(self.d.op(bvop, &x, &y), ty))
    }

    fn fp_binary(
        &mut self,
        op: BinOp,
        fmt: FpFmt,
        x: &D::Bv,
        y: &D::Bv,
        ty: Ty,
    ) -> Result<Val<D>, EvalError> {
        use BinOp::*;
        if op.is_compare() {
            self.d.fp_compared(fmt, x, y);
        }
        let r = match op {
            Add => Val::Bits(self.d.fp(FpOp::Add, fmt, x, y), ty),
            Sub => Val::Bits(self.d.fp(FpOp::Sub, fmt, x, y), ty),
            Mul => Val::Bits(self.d.fp(FpOp::Mul, fmt, x, y), ty),
            Lt => Val::Bool(self.f_lt(fmt, x, y)),
            Gt => Val::Bool(self.f_lt(fmt, y, x)),
            Le => {
                let l = self.f_lt(fmt, x, y);
                let e = self.f_eq(fmt, x, y);
                Val::Bool(self.d.or(&l, &e))
            }
            Ge => {
                let l = self.f_lt(fmt, y, x);
                let e = self.f_eq(fmt, x, y);
                Val::Bool(self.d.or(&l, &e))
            }
            Eq => Val::Bool(self.f_eq(fmt, x, y)),
            Ne => {
                let e = self.f_eq(fmt, x, y);
                Val::Bool(self.d.lnot(&e))
            }
            _ => return err(format!("`{}` is not defined on .{ty}", op.symbol())),
        };
        Ok(r)
    }
}

mod buffer_hw;
mod builtins;
mod format;
mod fp8;
mod memory;
