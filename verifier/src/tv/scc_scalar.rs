//! SCC formulas from SALU arithmetic alone, for the EXEC model (`exec.rs`).
//!
//! The one-lane model computes a condition with a VALU compare, `v_cndmask_b32` and
//! `v_readfirstlane_b32`: one lane is always active there. In the EXEC model lane L may be
//! inactive (its VALU work is guarded by EXEC's bit L) and `Lanes:` rules have no first active
//! lane, so a condition, which SALU computes whatever EXEC is, is built from scalar ops: `x != 0`
//! is `min(x, 1)`; the unsigned borrow of `a - b` is bit 31 of `(~a & b) | (~(a ^ b) & (a - b))`
//! (Warren, Hacker's Delight, 2-13); a signed compare is the unsigned one of the operands with
//! their sign bits flipped; a select is `clear ^ ((set ^ clear) & (0 - scc))`.

/// Builds the lines; `var` names a fresh scratch variable.
pub struct Scalar<'a> {
    pub var: &'a mut dyn FnMut() -> String,
    pub out: Vec<String>,
}

impl Scalar<'_> {
    fn fresh(&mut self) -> String {
        (self.var)()
    }

    /// `x` in a scratch variable (an immediate operand may be a literal: one per SALU op).
    fn load(&mut self, x: &str) -> String {
        let t = self.fresh();
        self.out.push(format!("s_mov_b32 {t}, {x}"));
        t
    }

    fn op(&mut self, op: &str, a: &str, b: &str) -> String {
        let t = self.fresh();
        self.out.push(format!("{op} {t}, {a}, {b}"));
        t
    }

    /// 1 if `x` != 0, else 0.
    fn nonzero(&mut self, x: &str) -> String {
        self.op("s_min_u32", x, "1")
    }

    /// 1 - `b` for `b` in {0, 1}.
    fn not(&mut self, b: &str) -> String {
        self.op("s_xor_b32", b, "1")
    }

    fn ne(&mut self, a: &str, b: &str) -> String {
        let x = self.op("s_xor_b32", a, b);
        self.nonzero(&x)
    }

    /// 1 if `a` <u `b`.
    fn ltu(&mut self, a: &str, b: &str) -> String {
        let na = self.op("s_xor_b32", a, "-1");
        let t1 = self.op("s_and_b32", &na, b);
        let x = self.op("s_xor_b32", a, b);
        let nx = self.op("s_xor_b32", &x, "-1");
        let d = self.op("s_sub_u32", a, b);
        let t2 = self.op("s_and_b32", &nx, &d);
        let t3 = self.op("s_or_b32", &t1, &t2);
        self.op("s_lshr_b32", &t3, "31")
    }

    /// `cmp` (`eq`, `ne`, `lt`, `le`, `gt`, `ge`) of 32-bit `a`, `b`, signed or not.
    fn rel32(&mut self, cmp: &str, signed: bool, a: &str, b: &str) -> Result<String, String> {
        let (mut a, mut b) = (self.load(a), self.load(b));
        if signed && !matches!(cmp, "eq" | "ne") {
            a = self.op("s_xor_b32", &a, "0x80000000");
            b = self.op("s_xor_b32", &b, "0x80000000");
        }
        Ok(match cmp {
            "eq" => {
                let n = self.ne(&a, &b);
                self.not(&n)
            }
            "ne" => self.ne(&a, &b),
            "lt" => self.ltu(&a, &b),
            "gt" => self.ltu(&b, &a),
            "le" => {
                let g = self.ltu(&b, &a);
                self.not(&g)
            }
            "ge" => {
                let l = self.ltu(&a, &b);
                self.not(&l)
            }
            _ => {
                return Err(format!(
                    "the compare {cmp} is not modelled in the EXEC model"
                ))
            }
        })
    }

    /// `dst` = the VALU compare `cmp` (`v_cmp_lt_i32`, `v_cmp_ne_u64`...) of `a` and `b`
    /// (one dword each, or the two dwords of a 64-bit operand) as 0 or 1.
    pub fn bool_of(
        &mut self,
        dst: &str,
        cmp: &str,
        a: &[String],
        b: &[String],
    ) -> Result<(), String> {
        let rest = cmp
            .strip_prefix("v_cmp_")
            .ok_or_else(|| format!("{cmp} is no compare"))?;
        let (rel, ty) = rest
            .split_once('_')
            .ok_or_else(|| format!("{cmp} is no compare"))?;
        let r = match (ty, a, b) {
            ("u32" | "i32", [a], [b]) => self.rel32(rel, ty == "i32", a, b)?,
            ("u64", [a0, a1], [b0, b1]) => {
                let (lo, hi) = (
                    self.rel32("ne", false, a0, b0)?,
                    self.rel32("ne", false, a1, b1)?,
                );
                match rel {
                    "ne" => self.op("s_or_b32", &lo, &hi),
                    "eq" => {
                        let n = self.op("s_or_b32", &lo, &hi);
                        self.not(&n)
                    }
                    "lt" => {
                        // a <u b: the high dwords decide unless they are equal.
                        let hlt = self.rel32("lt", false, a1, b1)?;
                        let llt = self.rel32("lt", false, a0, b0)?;
                        let heq = self.not(&hi);
                        let both = self.op("s_and_b32", &heq, &llt);
                        self.op("s_or_b32", &hlt, &both)
                    }
                    _ => return Err(format!("{cmp} is not modelled in the EXEC model")),
                }
            }
            _ => return Err(format!("{cmp}: operands of the wrong width")),
        };
        self.out.push(format!("s_mov_b32 {dst}, {r}"));
        Ok(())
    }

    /// `dst` = `scc` ? `set` : `clear`, for `scc` in {0, 1}.
    pub fn select(&mut self, dst: &str, scc: &str, set: &str, clear: &str) {
        let (s, c) = (self.load(set), self.load(clear));
        let m = self.op("s_sub_u32", "0", scc);
        let x = self.op("s_xor_b32", &s, &c);
        let y = self.op("s_and_b32", &x, &m);
        self.out.push(format!("s_xor_b32 {dst}, {y}, {c}"));
    }
}
