//! Front end for CLRX's C-like operation listings: translate them into AMD pseudocode text and
//! parse that with the semantics parser, so both notations end in the same IR.
//!
//! The notation (CLRX `GcnInstrsDs.md`): pointer declarations
//! `UINT32* V = (UINT32*)(DS + ((ADDR+OFFSET)&~3))`, stores `*V = expr`, loads
//! `VDST = *V`, casts `(INT32)VDATA0`, `MIN(a, b)` / `MAX(a, b)`, C operators, `//` comments.
//! `VDATA0`/`VDATA1` read the data registers as the type of the pointer the statement uses;
//! `ADDR`, `OFFSET`, `OFFSET0`, `OFFSET1` are unsigned. Anything else is an error naming the
//! line, which the caller reports as unchecked.

use gcnsmt_semantics::ir::Stmt;
use gcnsmt_semantics::parse::parse_stmts;
use std::collections::BTreeMap;

/// Why a listing could not be translated: 0-based line within the listing and the reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Untranslatable {
    /// 0-based line within the listing.
    pub line: u32,
    /// What has no translation (a C construct outside the subset), or why the result does not
    /// parse.
    pub reason: String,
}

fn c_type(t: &str) -> Option<&'static str> {
    Some(match t {
        "UINT8" => "u8",
        "INT8" => "i8",
        "UINT16" => "u16",
        "INT16" => "i16",
        "UINT32" | "UINT" => "u32",
        "INT32" | "INT" => "i32",
        "UINT64" => "u64",
        "INT64" => "i64",
        "FLOAT" | "float" => "f32",
        "DOUBLE" | "double" => "f64",
        _ => return None,
    })
}

#[derive(Clone, Debug, PartialEq)]
enum T {
    Id(String),
    Num(String),
    P(&'static str),
}

const PUNCT: &[&str] = &[
    ">=", "<=", "==", "!=", "&&", "||", "<<", ">>", "+", "-", "*", "/", "%", "&", "|", "^", "~",
    "!", "<", ">", "(", ")", "?", ":", ",", "=", "[", "]",
];

fn lex(s: &str) -> Result<Vec<T>, String> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    'outer: while i < b.len() {
        let c = b[i] as char;
        if c.is_whitespace() || c == ';' {
            i += 1;
            continue;
        }
        if c.is_ascii_alphabetic() || c == '_' {
            let st = i;
            while i < b.len() && ((b[i] as char).is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(T::Id(s[st..i].to_string()));
            continue;
        }
        if c.is_ascii_digit() {
            let st = i;
            while i < b.len() && ((b[i] as char).is_ascii_alphanumeric()) {
                i += 1;
            }
            out.push(T::Num(s[st..i].to_string()));
            continue;
        }
        for p in PUNCT {
            if s[i..].starts_with(p) {
                out.push(T::P(p));
                i += p.len();
                continue 'outer;
            }
        }
        return Err(format!("unexpected character `{c}`"));
    }
    // The translation recurses per parenthesis: bound it as the semantics parser does.
    let mut depth = 0usize;
    for t in &out {
        match t {
            T::P("(") => depth += 1,
            T::P(")") => depth = depth.saturating_sub(1),
            _ => {}
        }
        if depth > gcnsmt_semantics::parse::MAX_DEPTH {
            let max = gcnsmt_semantics::parse::MAX_DEPTH;
            return Err(format!("nested too deeply (more than {max} levels)"));
        }
    }
    Ok(out)
}

struct Ptr {
    addr: String,
    ty: &'static str,
}

struct Tr<'a> {
    ptrs: &'a BTreeMap<String, Ptr>,
    locals: &'a BTreeMap<String, &'static str>,
    /// The type `VDATA0`/`VDATA1` are read as in this statement.
    ty: &'static str,
    /// A buffer listing (`VMEM(...)`): the width in bits of its VDATA register, else `None`.
    vdata: Option<u32>,
}

/// [`Tr::expr`] of `t` with the statement's pointers and locals, VDATA read as `ty`.
fn expr_in(
    ptrs: &BTreeMap<String, Ptr>,
    locals: &BTreeMap<String, &'static str>,
    ty: &'static str,
    vdata: Option<u32>,
    t: &[T],
) -> Result<String, String> {
    Tr {
        ptrs,
        locals,
        ty,
        vdata,
    }
    .expr(t)
}

impl Tr<'_> {
    /// Translate tokens `t[..]` (a whole expression) to AMD text.
    fn expr(&self, t: &[T]) -> Result<String, String> {
        let mut out = String::new();
        let mut i = 0;
        let mut unary = true;
        while i < t.len() {
            match &t[i] {
                T::P("*") if unary && t.get(i + 1) == Some(&T::P("(")) => {
                    let (prim, len) = self.primary(&t[i..], self.ty)?;
                    out.push_str(&prim);
                    i += len;
                    unary = false;
                }
                T::P("*") if unary => {
                    let Some(T::Id(p)) = t.get(i + 1) else {
                        return Err("`*` must dereference a pointer name".into());
                    };
                    let ptr = self
                        .ptrs
                        .get(p)
                        .ok_or_else(|| format!("`{p}` is not a declared pointer"))?;
                    out.push_str(&format!("MEM[{}].{}", ptr.addr, ptr.ty));
                    i += 2;
                    unary = false;
                }
                T::P("(")
                    if unary
                        && matches!(t.get(i + 1), Some(T::Id(x)) if c_type(x).is_some())
                        && t.get(i + 2) == Some(&T::P(")")) =>
                {
                    let T::Id(x) = &t[i + 1] else { unreachable!() };
                    let ty = c_type(x).expect("checked");
                    // The cast applies to the next primary.
                    let (prim, len) = self.primary(&t[i + 3..], ty)?;
                    out.push_str(&format!("{prim}.{ty}"));
                    i += 3 + len;
                    unary = false;
                }
                T::P(p) => {
                    if *p == "(" {
                        let close = matching(t, i)?;
                        let inner = self.expr(&t[i + 1..close])?;
                        out.push_str(&format!("({inner})"));
                        i = close + 1;
                        unary = false;
                        continue;
                    }
                    if unary && matches!(*p, "~" | "-" | "!") {
                        out.push_str(p);
                    } else {
                        out.push_str(&format!(" {p} "));
                    }
                    unary = *p != ")";
                    i += 1;
                }
                T::Id(_) | T::Num(_) => {
                    let (prim, len) = self.primary(&t[i..], self.ty)?;
                    out.push_str(&prim);
                    i += len;
                    unary = false;
                }
            }
        }
        Ok(out)
    }

    /// One primary (name, number, call, dereference or parenthesised group) with the data
    /// registers read as `ty`; returns the text and the tokens used.
    fn primary(&self, t: &[T], ty: &'static str) -> Result<(String, usize), String> {
        match t.first() {
            Some(T::Num(n)) => Ok((n.clone(), 1)),
            Some(T::P("(")) => {
                let close = matching(t, 0)?;
                let sub = Tr {
                    ptrs: self.ptrs,
                    locals: self.locals,
                    ty,
                    vdata: self.vdata,
                };
                Ok((format!("({})", sub.expr(&t[1..close])?), close + 1))
            }
            Some(T::P("*")) if t.get(1) == Some(&T::P("(")) => {
                // `*(TYPE*)VMEM(...)`: a read through a cast pointer.
                let (addr, pty, used) = vmem_pointer(&t[1..])?;
                Ok((promote(format!("MEM[{addr}].{pty}"), pty), used + 1))
            }
            Some(T::P("*")) => {
                let Some(T::Id(p)) = t.get(1) else {
                    return Err("`*` must dereference a pointer name".into());
                };
                let ptr = self
                    .ptrs
                    .get(p)
                    .ok_or_else(|| format!("`{p}` is not a declared pointer"))?;
                Ok((format!("MEM[{}].{}", ptr.addr, ptr.ty), 2))
            }
            Some(T::Id(name)) => {
                if (name == "MIN" || name == "MAX") && ty.starts_with('f') {
                    // C leaves MIN/MAX of NaN and of -0/+0 open; the listing does not say
                    // which IEEE rule it means, so there is nothing definite to compare.
                    return Err(format!(
                        "{name} of floats leaves NaN and signed-zero results open"
                    ));
                }
                if (name == "MIN" || name == "MAX") && t.get(1) == Some(&T::P("(")) {
                    let close = matching(t, 1)?;
                    let args = split_commas(&t[2..close]);
                    if args.len() != 2 {
                        return Err(format!("{name} takes two arguments"));
                    }
                    let a = self.expr(args[0])?;
                    let b = self.expr(args[1])?;
                    let op = if name == "MAX" { ">" } else { "<" };
                    return Ok((format!("(({a}) {op} ({b}) ? ({a}) : ({b}))"), close + 1));
                }
                if (name == "ASFLOAT" || name == "ASDOUBLE") && t.get(1) == Some(&T::P("(")) {
                    let close = matching(t, 1)?;
                    let fty = if name == "ASFLOAT" { "f32" } else { "f64" };
                    let (inner, used) = self.primary(&t[2..close], fty)?;
                    if used != close - 2 {
                        return Err(format!("{name} takes one name"));
                    }
                    return Ok((inner, close + 1));
                }
                if t.get(1) == Some(&T::P("(")) {
                    return Err(format!("unknown function `{name}`"));
                }
                if t.get(1) == Some(&T::P("[")) {
                    let close = t
                        .iter()
                        .position(|x| *x == T::P("]"))
                        .ok_or("unclosed `[`")?;
                    return Ok((self.indexed(name, &t[2..close], ty)?, close + 1));
                }
                if let (Some(w), true) = (self.vdata, name == "VDATA") {
                    return Ok((vdata_view(w, ty), 1));
                }
                if self.vdata.is_some() && name == "GLC" {
                    return Ok(("GLC".to_string(), 1));
                }
                let text = match name.as_str() {
                    "VDATA0" | "VDATA" | "DATA0" | "DATA" => format!("DATA0.{ty}"),
                    "VDATA1" | "DATA1" => format!("DATA1.{ty}"),
                    "ADDR" | "OFFSET" | "OFFSET0" | "OFFSET1" | "M0" => format!("{name}.u32"),
                    other if self.locals.contains_key(other) => other.to_string(),
                    other => return Err(format!("unknown name `{other}`")),
                };
                Ok((text, 1))
            }
            _ => Err("expected a value".into()),
        }
    }
}

impl Tr<'_> {
    /// `VM[k]` (element k of a pointer) or `VDATA[k]` / `VDATA[a:b]` (dwords of the register).
    fn indexed(&self, name: &str, idx: &[T], ty: &'static str) -> Result<String, String> {
        if name == "VDATA" && self.vdata.is_some() {
            let (a, b) = dword_range(idx)?;
            return Ok(format!(
                "VDATA[{} : {}].b{}",
                32 * b + 31,
                32 * a,
                32 * (b - a + 1)
            ));
        }
        let _ = ty;
        let ptr = self
            .ptrs
            .get(name)
            .ok_or_else(|| format!("`{name}` is not a declared pointer"))?;
        let k = match idx {
            [T::Num(n)] => n.parse::<u32>().map_err(|_| format!("index `{n}`"))?,
            _ => return Err("a pointer index must be a number".into()),
        };
        if k > 15 {
            return Err(format!("element {k} is past any buffer access"));
        }
        Ok(promote(
            format!("MEM[{}].{}", elem_addr(&ptr.addr, ptr.ty, k), ptr.ty),
            ptr.ty,
        ))
    }
}

/// C's integer promotion of a value read as `ty`: narrower than 32 bits it takes part in
/// arithmetic as a 32-bit int (`*(UINT16*)p << 16` keeps the shifted bits), sign-extended
/// from a signed type.
fn promote(text: String, ty: &str) -> String {
    let w: u32 = ty[1..].parse().unwrap_or(32);
    if w >= 32 || ty.starts_with('f') {
        return text;
    }
    let k = if ty.starts_with('i') { 'i' } else { 'u' };
    format!("({text}).{k}32")
}

/// The address of element `k` of a pointer of type `ty` at `addr`.
fn elem_addr(addr: &str, ty: &str, k: u32) -> String {
    let bytes: u32 = ty[1..].parse::<u32>().unwrap_or(32) / 8;
    if k == 0 {
        addr.to_string()
    } else {
        format!("{addr} + {}U", k * bytes)
    }
}

/// `k` or `a:b` inside `VDATA[...]`: dword numbers.
fn dword_range(idx: &[T]) -> Result<(u32, u32), String> {
    let num = |x: &T| match x {
        T::Num(n) => n.parse::<u32>().map_err(|_| format!("index `{n}`")),
        _ => Err("a VDATA index must be a number".to_string()),
    };
    match idx {
        [a] => Ok((num(a)?, num(a)?)),
        [a, T::P(":"), b] => Ok((num(a)?, num(b)?)),
        _ => Err("a VDATA index must be `k` or `a:b`".into()),
    }
    .and_then(|(a, b)| {
        // VDATA is at most four dwords (a 128-bit tuple).
        if a > b || b > 3 {
            Err(format!("VDATA[{a}:{b}] is not a range of dwords 0-3"))
        } else {
            Ok((a, b))
        }
    })
}

/// The destination a DS listing writes: all of VDST (`VDST = e`), or from dword `k` on: `VDST+k
/// = e` (CLRX's next register, two-address reads: `VDST+1 = *V1`) and `VDST[k]`, `VDST[a:b]`
/// (dwords `a..=b`, which must be as wide as the value of type `ty`).
fn vdst_part(part: &[T], ty: &str) -> Result<String, String> {
    let w: u32 = ty[1..].parse().map_err(|_| format!("type `{ty}`"))?;
    let lo = match part {
        [] => return Ok(format!("RETURN_DATA.{ty}")),
        [T::P("+"), T::Num(k)] => k
            .parse::<u32>()
            .ok()
            .filter(|k| *k <= 3)
            .ok_or_else(|| format!("VDST+{k} is past a 4-dword VDST"))?,
        [T::P("["), idx @ .., T::P("]")] => {
            let (a, b) = dword_range(idx)?;
            if 32 * (b - a + 1) != w {
                return Err(format!("VDST[{a}:{b}] is not as wide as a {ty} value"));
            }
            a
        }
        _ => return Err("a VDST destination must be `VDST`, `VDST+k` or `VDST[a:b]`".into()),
    };
    if w < 32 || 32 * lo + w > 128 {
        return Err(format!("a {ty} value from dword {lo} of VDST is not read"));
    }
    Ok(format!(
        "RETURN_DATA[{} : {}].b{w}",
        32 * lo + w - 1,
        32 * lo
    ))
}

/// The whole VDATA register read in a statement of type `ty`: as `ty` when the widths agree,
/// otherwise as the unsigned register of its own width (C widens the narrower operand).
fn vdata_view(w: u32, ty: &str) -> String {
    if ty[1..].parse::<u32>().ok() == Some(w) {
        format!("VDATA.{ty}")
    } else {
        format!("VDATA.u{w}")
    }
}

/// The buffer address of `(TYPE*)VMEM(SRSRC, VADDR(1:2), SOFFSET, OFFSET)` and the pointer's
/// type; the tokens used. The operands must be exactly those, in that order (CLRX
/// `GcnInstrsMubuf.md`); they are what `CalcBufferAddr` takes in AMD's notation.
fn vmem_pointer(t: &[T]) -> Result<(String, &'static str, usize), String> {
    let (pty, rest) = match t {
        [T::P("("), T::Id(ty), T::P("*"), T::P(")"), rest @ ..] if c_type(ty).is_some() => {
            (c_type(ty).expect("checked"), rest)
        }
        _ => return Err("a buffer pointer must be (TYPE*)VMEM(...)".into()),
    };
    if !matches!(rest.first(), Some(T::Id(v)) if v == "VMEM") || rest.get(1) != Some(&T::P("(")) {
        return Err("a buffer pointer must be (TYPE*)VMEM(...)".into());
    }
    let close = matching(rest, 1)?;
    let args: Vec<String> = split_commas(&rest[2..close])
        .iter()
        .map(|a| {
            a.iter()
                .map(|x| match x {
                    T::Id(s) | T::Num(s) => s.clone(),
                    T::P(p) => p.to_string(),
                })
                .collect::<String>()
        })
        .collect();
    if args != ["SRSRC", "VADDR(1:2)", "SOFFSET", "OFFSET"] {
        return Err(format!(
            "VMEM operands `{}` are not SRSRC, VADDR(1:2), SOFFSET, OFFSET",
            args.join(", ")
        ));
    }
    Ok((
        "CalcBufferAddr(VADDR, SRSRC, SOFFSET, OFFSET)".to_string(),
        pty,
        4 + close + 1,
    ))
}

fn matching(t: &[T], open: usize) -> Result<usize, String> {
    let mut depth = 0;
    for (k, x) in t.iter().enumerate().skip(open) {
        match x {
            T::P("(") => depth += 1,
            T::P(")") => {
                depth -= 1;
                if depth == 0 {
                    return Ok(k);
                }
            }
            _ => {}
        }
    }
    Err("unbalanced parentheses".into())
}

fn split_commas(t: &[T]) -> Vec<&[T]> {
    let mut out = Vec::new();
    let mut depth = 0;
    let mut st = 0;
    for (k, x) in t.iter().enumerate() {
        match x {
            T::P("(") => depth += 1,
            T::P(")") => depth -= 1,
            T::P(",") if depth == 0 => {
                out.push(&t[st..k]);
                st = k + 1;
            }
            _ => {}
        }
    }
    out.push(&t[st..]);
    out
}

/// Translate a listing into AMD pseudocode text (one statement per line, `;`-separated).
///
/// Errors: the first line outside the notation above.
pub fn to_amd(listing: &str) -> Result<String, Untranslatable> {
    translate(listing, None)
}

/// Translate a buffer listing (CLRX `GcnInstrsMubuf.md`): pointers `(TYPE*)VMEM(SRSRC,
/// VADDR(1:2), SOFFSET, OFFSET)` (also written `*(TYPE*)VMEM(...)` before elements `VM[k]`
/// are used, read as the same pointer), reads `*(TYPE*)VMEM(...)`, the register `VDATA` of
/// `vdata_bits` bits with dwords `VDATA[k]` / `VDATA[a:b]`, `GLC`. In an atomic (`atomic`),
/// what the listing assigns to VDATA is the returned value, RETURN_DATA.
///
/// Errors: as for [`to_amd`].
pub fn to_amd_buffer(
    listing: &str,
    vdata_bits: u32,
    atomic: bool,
) -> Result<String, Untranslatable> {
    translate(listing, Some((vdata_bits, atomic)))
}

fn translate(listing: &str, buffer: Option<(u32, bool)>) -> Result<String, Untranslatable> {
    let vdata = buffer.map(|b| b.0);
    let dst = if buffer.is_some_and(|b| b.1) {
        "RETURN_DATA"
    } else {
        "VDATA"
    };
    let mut ptrs: BTreeMap<String, Ptr> = BTreeMap::new();
    let mut locals: BTreeMap<String, &'static str> = BTreeMap::new();
    let mut out = Vec::new();
    // The type of the last declared pointer: what a bare VDATA is read as.
    let mut last_ty: &'static str = "u32";
    let stmts = listing.lines().enumerate().flat_map(|(ln, raw)| {
        let code = raw.split("//").next().unwrap_or("");
        code.split(';')
            .map(move |s| (ln, s.trim().to_string()))
            .collect::<Vec<_>>()
    });
    for (ln, line) in stmts {
        let bad = |reason: String| Untranslatable {
            line: ln as u32,
            reason,
        };
        let line = line.as_str();
        if line.is_empty() {
            continue;
        }
        let t = lex(line).map_err(bad)?;
        let Some(eq) = t.iter().position(|x| *x == T::P("=")) else {
            return Err(bad(format!("`{line}` is not an assignment")));
        };
        let (lhs, rhs) = (&t[..eq], &t[eq + 1..]);
        match lhs {
            // TYPE* NAME = (TYPE*)VMEM(...) or *(TYPE*)VMEM(...)
            [T::Id(ty), T::P("*"), T::Id(name)] if c_type(ty).is_some() && vdata.is_some() => {
                let ty = c_type(ty).expect("checked");
                let r = rhs.strip_prefix(&[T::P("*")]).unwrap_or(rhs);
                let (addr, _, used) = vmem_pointer(r).map_err(bad)?;
                if used != r.len() {
                    return Err(bad("text after the pointer's VMEM(...)".into()));
                }
                last_ty = ty;
                ptrs.insert(name.clone(), Ptr { addr, ty });
            }
            // TYPE* NAME = (TYPE*)(DS + addr)
            [T::Id(ty), T::P("*"), T::Id(name)] if c_type(ty).is_some() => {
                let ty = c_type(ty).expect("checked");
                let addr = pointer_target(rhs).map_err(bad)?;
                let a = expr_in(&ptrs, &locals, "u32", vdata, addr).map_err(bad)?;
                ptrs.insert(name.clone(), Ptr { addr: a, ty });
            }
            // TYPE NAME = expr (a local)
            [T::Id(ty), T::Id(name)] if c_type(ty).is_some() => {
                let ty = c_type(ty).expect("checked");
                let e = expr_in(&ptrs, &locals, ty, vdata, rhs).map_err(bad)?;
                out.push(format!("{name}.{ty} = {e}"));
                locals.insert(name.clone(), ty);
            }
            [T::P("*"), T::Id(p)] => {
                let ptr = ptrs
                    .get(p)
                    .ok_or_else(|| bad(format!("`{p}` is not a declared pointer")))?;
                let e = expr_in(&ptrs, &locals, ptr.ty, vdata, rhs).map_err(bad)?;
                out.push(format!("MEM[{}].{} = {e}", ptr.addr, ptr.ty));
            }
            // *(TYPE*)VMEM(...) = expr
            [T::P("*"), ptr @ ..] if vdata.is_some() && ptr.first() == Some(&T::P("(")) => {
                let (addr, ty, used) = vmem_pointer(ptr).map_err(bad)?;
                if used != ptr.len() {
                    return Err(bad("text after the pointer's VMEM(...)".into()));
                }
                let e = expr_in(&ptrs, &locals, ty, vdata, rhs).map_err(bad)?;
                out.push(format!("MEM[{addr}].{ty} = {e}"));
            }
            // VM[k] = expr
            [T::Id(p), T::P("["), T::Num(k), T::P("]")] if vdata.is_some() && p != "VDATA" => {
                let ptr = ptrs
                    .get(p)
                    .ok_or_else(|| bad(format!("`{p}` is not a declared pointer")))?;
                let k: u32 = k.parse().map_err(|_| bad(format!("index `{k}`")))?;
                if k > 15 {
                    return Err(bad(format!("element {k} is past any buffer access")));
                }
                let e = expr_in(&ptrs, &locals, ptr.ty, vdata, rhs).map_err(bad)?;
                out.push(format!(
                    "MEM[{}].{} = {e}",
                    elem_addr(&ptr.addr, ptr.ty, k),
                    ptr.ty
                ));
            }
            // VDATA = e, VDATA &= e, VDATA |= e, VDATA[k] = e, VDATA[a:b] = e
            [T::Id(v), rest @ ..] if v == "VDATA" && vdata.is_some() => {
                let w = vdata.expect("checked");
                let e = expr_in(&ptrs, &locals, last_ty, vdata, rhs).map_err(bad)?;
                match rest {
                    [] => out.push(format!("{dst}.b{w} = {e}")),
                    [T::P(op)] if matches!(*op, "&" | "|") => out.push(format!(
                        "{dst}.b{w} = {} {op} ({e})",
                        vdata_view(w, last_ty)
                    )),
                    [T::P("["), idx @ .., T::P("]")] => {
                        let (a, b) = dword_range(idx).map_err(bad)?;
                        out.push(format!(
                            "{dst}[{} : {}].b{} = {e}",
                            32 * b + 31,
                            32 * a,
                            32 * (b - a + 1)
                        ));
                    }
                    _ => return Err(bad(format!("unsupported assignment `{line}`"))),
                }
            }
            [T::Id(v), part @ ..] if v == "VDST" => {
                // The destination takes the type of the first pointer the value reads.
                let ty = rhs
                    .windows(2)
                    .find_map(|w| match w {
                        [T::P("*"), T::Id(p)] => ptrs.get(p).map(|x| x.ty),
                        _ => None,
                    })
                    .ok_or_else(|| bad("VDST is assigned without a memory read".into()))?;
                let e = expr_in(&ptrs, &locals, ty, vdata, rhs).map_err(bad)?;
                let target = vdst_part(part, ty).map_err(bad)?;
                out.push(format!("{target} = {e}"));
            }
            _ => return Err(bad(format!("unsupported assignment `{line}`"))),
        }
    }
    if out.is_empty() {
        return Err(Untranslatable {
            line: 0,
            reason: "no statement".into(),
        });
    }
    Ok(out.join(";\n"))
}

/// The address tokens of `(TYPE*)(DS + addr)`.
fn pointer_target(t: &[T]) -> Result<&[T], String> {
    let rest = match t {
        [T::P("("), T::Id(ty), T::P("*"), T::P(")"), rest @ ..] if c_type(ty).is_some() => rest,
        _ => return Err("a pointer must be initialised as (TYPE*)(DS + address)".into()),
    };
    if rest.first() != Some(&T::P("(")) || matching(rest, 0).ok() != Some(rest.len() - 1) {
        return Err("a pointer must be initialised as (TYPE*)(DS + address)".into());
    }
    let inner = &rest[1..rest.len() - 1];
    match inner {
        [T::Id(ds), T::P("+"), addr @ ..] if ds == "DS" || ds == "LDS" || ds == "GDS" => Ok(addr),
        _ => Err("a pointer must point into DS (DS + address)".into()),
    }
}

/// Translate and parse a listing into statements.
///
/// Errors: as for [`to_amd`]; a translation the semantics parser rejects (a bug in this front
/// end) is reported the same way, with the parser's message.
pub fn parse(listing: &str) -> Result<Vec<Stmt>, Untranslatable> {
    parse_amd(to_amd(listing)?)
}

/// Translate and parse a buffer listing (see [`to_amd_buffer`]).
///
/// Errors: as for [`parse`].
pub fn parse_buffer(
    listing: &str,
    vdata_bits: u32,
    atomic: bool,
) -> Result<Vec<Stmt>, Untranslatable> {
    parse_amd(to_amd_buffer(listing, vdata_bits, atomic)?)
}

fn parse_amd(amd: String) -> Result<Vec<Stmt>, Untranslatable> {
    parse_stmts(&amd).map_err(|e| Untranslatable {
        line: 0,
        reason: format!("translation `{amd}` does not parse: {e}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // The translation recurses per parenthesis: past the bound it is an error, not a crash.
    #[test]
    fn deep_parentheses_are_untranslatable() {
        let ptr = "UINT32* V = (UINT32*)(DS + (ADDR+OFFSET)&~3)";
        let deep = format!("*V = {}VDATA0{}", "(".repeat(100_000), ")".repeat(100_000));
        let e = to_amd(&format!("{ptr}\n{deep}")).unwrap_err();
        assert!(e.reason.contains("nested too deeply"), "{}", e.reason);
        let ok = format!("*V = {}VDATA0{}", "(".repeat(50), ")".repeat(50));
        let t = to_amd(&format!("{ptr}\n{ok}"));
        assert!(t.is_ok(), "{t:?}");
    }

    // Expected texts written by hand from the CLRX listing's meaning.
    #[test]
    fn dec_u32_listing() {
        let s = "UINT32* V = (UINT32*)(DS + (ADDR+OFFSET)&~3)\n*V = (VDATA0 >= *V && *V!=0) ? *V-1 : VDATA0 // atomic operation";
        let t = to_amd(s).unwrap();
        assert!(t.contains("MEM[(ADDR.u32 + OFFSET.u32) & ~3].u32 ="), "{t}");
        assert!(parse(s).is_ok());
    }

    #[test]
    fn casts_and_max() {
        let s = "INT32* V = (INT32*)(DS + ((ADDR+OFFSET)&~3))\n*V = MAX(*V, (INT32)VDATA0)";
        let t = to_amd(s).unwrap();
        assert!(
            t.contains("DATA0.i32.i32") || t.contains("DATA0.i32"),
            "{t}"
        );
        parse(s).unwrap();
    }

    // CLRX's BUFFER_ATOMIC_CMPSWAP: the compare value is the high dword of a 64-bit VDATA, and
    // what the listing assigns to VDATA is the returned value.
    #[test]
    fn buffer_cmpswap_listing() {
        let s = "UINT32* VM = (UINT32*)VMEM(SRSRC, VADDR(1:2), SOFFSET, OFFSET)\nUINT32 P = *VM; *VM = *VM==(VDATA>>32) ? VDATA&0xffffffff : *VM // part of atomic\nVDATA[0] = (GLC) ? P : VDATA[0]";
        let t = to_amd_buffer(s, 64, true).unwrap();
        assert!(
            t.contains("MEM[CalcBufferAddr(VADDR, SRSRC, SOFFSET, OFFSET)].u32 ="),
            "{t}"
        );
        assert!(t.contains("VDATA.u64 >> 32"), "{t}");
        assert!(
            t.contains("RETURN_DATA[31 : 0].b32 = (GLC) ? P : VDATA[31 : 0].b32"),
            "{t}"
        );
        parse_buffer(s, 64, true).unwrap();
        // A narrow read takes part in C arithmetic as a 32-bit int.
        let h = to_amd_buffer(
            "VDATA |= *(UINT16*)VMEM(SRSRC, VADDR(1:2), SOFFSET, OFFSET)<<16",
            32,
            false,
        )
        .unwrap();
        assert!(
            h.contains("(MEM[CalcBufferAddr(VADDR, SRSRC, SOFFSET, OFFSET)].u16).u32 << 16"),
            "{h}"
        );
        assert!(to_amd_buffer(
            "VDATA = *(UINT8*)VMEM(SRSRC, VADDR, SOFFSET, OFFSET)",
            32,
            false
        )
        .is_err());
    }

    #[test]
    fn unknown_names_are_errors_with_a_line() {
        let e = to_amd("UINT32* V = (UINT32*)(DS + ADDR)\n*V = FOO").unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.reason.contains("FOO"));
    }
}
