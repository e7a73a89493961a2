//! Parser for semantics files: entries of names and a body in AMD's pseudocode notation.
//!
//! ```text
//! // comment lines directly above an entry are kept as its sources
//! DS_CMPST_B32 { CMP = DATA0, SRC = DATA1 }, DS_CMPSTORE_B32 { SRC = DATA0, CMP = DATA1 }:
//!   addr = CalcDsAddr(ADDR.b32, OFFSET.b32);
//!   tmp = MEM[addr].b32;
//!   if tmp == CMP.b32 then
//!     MEM[addr].b32 = SRC.b32
//!   endif;
//!   RETURN_DATA.b32 = tmp
//! ```
//! An entry header starts in column 1; its body is the indented lines below it.

use crate::cursor::{Cursor, Grammar};
use crate::ir::*;
use crate::lex::{lex, Tok, Token};
use crate::ty::Ty;
use crate::ParseError;

/// Parse a whole semantics file into its entries.
///
/// Errors: the first syntax error, with line and column.
pub fn parse_file(src: &str) -> Result<Vec<Def>, ParseError> {
    let lines: Vec<&str> = src.lines().collect();
    let mut defs = Vec::new();
    let mut comments: Vec<String> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let t = line.trim();
        if t.is_empty() {
            comments.clear();
            i += 1;
            continue;
        }
        if let Some(c) = t.strip_prefix("//") {
            if !line.starts_with(char::is_whitespace) {
                comments.push(c.trim().to_string());
            }
            i += 1;
            continue;
        }
        if line.starts_with(char::is_whitespace) {
            return Err(ParseError::at(
                Pos {
                    line: i as u32 + 1,
                    col: 1,
                },
                "indented line outside an entry (entry headers start in column 1)",
            ));
        }
        // Header, then indented body lines.
        let start = i;
        let mut j = i + 1;
        // A header may continue on further column-1 lines until one ends with `:`.
        while !lines[j - 1].trim_end().ends_with(':')
            && j < lines.len()
            && !lines[j].starts_with(char::is_whitespace)
            && !lines[j].trim().is_empty()
        {
            j += 1;
        }
        while j < lines.len()
            && (lines[j].trim().is_empty() || lines[j].starts_with(char::is_whitespace))
        {
            j += 1;
        }
        // Trailing comment lines at column 0 belong to the next entry.
        let text = lines[start..j].join("\n");
        let toks = lex(&text, start as u32 + 1)?;
        let mut p = Parser::new(toks);
        let mut def = p.entry()?;
        def.comments = std::mem::take(&mut comments);
        defs.push(def);
        i = j;
    }
    Ok(defs)
}

/// Parse a statement list (used by tests and by other front ends).
pub fn parse_stmts(src: &str) -> Result<Vec<Stmt>, ParseError> {
    let toks = lex(src, 1)?;
    let mut p = Parser::new(toks);
    let s = p.stmts(&[])?;
    p.expect_eof()?;
    Ok(s)
}

/// Parse one expression.
pub fn parse_expr(src: &str) -> Result<Expr, ParseError> {
    let toks = lex(src, 1)?;
    let mut p = Parser::new(toks);
    let e = p.expr()?;
    p.expect_eof()?;
    Ok(e)
}

/// The deepest expression tree the parser builds (nodes on the longest root-to-leaf path), and
/// the deepest nesting of parentheses, braces, calls and `if`s it follows. Everything after
/// parsing (evaluation, the z3 encoding, printing, dropping) recurses over the tree, so a bound
/// here keeps all of them within a thread's stack: 256 is far beyond any instruction's
/// pseudocode (the deepest in AMD's guides is under 20) and a `||` chain of 256 terms.
pub const MAX_DEPTH: usize = 256;

struct Parser {
    c: Cursor<Token>,
    /// Height of the expression the last expression rule returned (for [`MAX_DEPTH`]).
    h: usize,
    /// Current nesting of `expr`/`stmts` calls (for [`MAX_DEPTH`]).
    nest: usize,
}

const STOP_WORDS: [&str; 4] = ["elsif", "else", "endif", "then"];

// The token walk is the shared cursor's; the parser adds the grammar and the depth bound.
crate::cursor_parser!(Parser, c, Token, ParseError, err);

impl Parser {
    fn new(toks: Vec<Token>) -> Parser {
        Parser {
            c: Cursor::new(toks),
            h: 0,
            nest: 0,
        }
    }
    /// Record `h` as the height of the expression being returned; an error past [`MAX_DEPTH`].
    fn height(&mut self, h: usize) -> Result<(), ParseError> {
        if h > MAX_DEPTH {
            return Err(self.err(format!(
                "expression nested too deeply (more than {MAX_DEPTH} levels)"
            )));
        }
        self.h = h;
        Ok(())
    }
    /// Enter one level of nesting; an error past [`MAX_DEPTH`]. Pair with `self.nest -= 1`.
    fn enter(&mut self) -> Result<(), ParseError> {
        if self.nest >= MAX_DEPTH {
            return Err(self.err(format!("nested too deeply (more than {MAX_DEPTH} levels)")));
        }
        self.nest += 1;
        Ok(())
    }
    fn pos(&self) -> Pos {
        self.token().pos
    }
    fn expect_eof(&self) -> Result<(), ParseError> {
        if self.at_eof() {
            Ok(())
        } else {
            Err(self.err("unexpected text after the end"))
        }
    }
    fn err(&self, msg: impl Into<String>) -> ParseError {
        let found = match self.peek() {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Num { value, .. } => format!("`{value}`"),
            Tok::SizePrefix(w) => format!("`{w}'`"),
            Tok::Suffix(s) => format!("`.{s}`"),
            Tok::Punct(p) => format!("`{p}`"),
            Tok::Eof => "end of entry".to_string(),
        };
        ParseError::at(self.pos(), format!("{}, found {found}", msg.into()))
    }

    fn entry(&mut self) -> Result<Def, ParseError> {
        let pos = self.pos();
        let mut names = Vec::new();
        loop {
            let name = self.ident()?;
            if name.chars().any(|c| c.is_ascii_lowercase()) {
                return Err(ParseError::at(
                    pos,
                    format!("entry names are upper case, as in AMD's guides: `{name}`"),
                ));
            }
            let mut aliases = Vec::new();
            if self.eat_punct("{") {
                loop {
                    let a = self.ident()?;
                    self.expect_punct("=")?;
                    let b = self.ident()?;
                    aliases.push((a, b));
                    if !self.eat_punct(",") {
                        break;
                    }
                }
                self.expect_punct("}")?;
            }
            names.push(DefName { name, aliases });
            if !self.eat_punct(",") {
                break;
            }
        }
        self.expect_punct(":")?;
        let body = self.stmts(&[])?;
        self.expect_eof()?;
        Ok(Def {
            names,
            body,
            comments: Vec::new(),
            pos,
        })
    }

    fn stmts(&mut self, stops: &[&str]) -> Result<Vec<Stmt>, ParseError> {
        self.enter()?;
        let r = self.stmts_in(stops);
        self.nest -= 1;
        r
    }

    fn stmts_in(&mut self, stops: &[&str]) -> Result<Vec<Stmt>, ParseError> {
        let mut out = Vec::new();
        loop {
            while self.eat_punct(";") {}
            if matches!(self.peek(), Tok::Eof) {
                return Ok(out);
            }
            if let Tok::Ident(w) = self.peek() {
                if stops.contains(&w.as_str()) || STOP_WORDS.contains(&w.as_str()) {
                    return Ok(out);
                }
            }
            out.push(self.stmt()?);
        }
    }

    fn stmt(&mut self) -> Result<Stmt, ParseError> {
        if self.eat_word("if") {
            let c = self.expr()?;
            let then = |p: &mut Self| {
                p.expect_word("then")?;
                p.stmts(&[])
            };
            let (arms, els) = self.if_chain(c, Self::expr, then, |p| p.stmts(&[]))?;
            return Ok(Stmt::If(arms, els));
        }
        if self.is_word("UNDEFINED") {
            self.bump();
            return Ok(Stmt::Undefined);
        }
        let pos = self.pos();
        let lhs = self.postfix()?;
        self.expect_punct("=")?;
        let rhs = self.expr()?;
        let lv = match lhs {
            Expr::Mem(addr, ty) => LValue::Mem { addr: *addr, ty },
            Expr::Var(name) => LValue::Var {
                name,
                ty: None,
                slice: None,
            },
            Expr::Field(inner, ty) => match *inner {
                Expr::Var(name) => LValue::Var {
                    name,
                    ty: Some(ty),
                    slice: None,
                },
                Expr::Slice(v, hi, lo) => match *v {
                    Expr::Var(name) => LValue::Var {
                        name,
                        ty: Some(ty),
                        slice: Some((hi, lo)),
                    },
                    _ => return Err(ParseError::at(pos, "cannot assign to this expression")),
                },
                _ => return Err(ParseError::at(pos, "cannot assign to this expression")),
            },
            Expr::Slice(v, hi, lo) => match *v {
                Expr::Var(name) => LValue::Var {
                    name,
                    ty: None,
                    slice: Some((hi, lo)),
                },
                _ => return Err(ParseError::at(pos, "cannot assign to this expression")),
            },
            _ => return Err(ParseError::at(pos, "cannot assign to this expression")),
        };
        Ok(Stmt::Assign(lv, rhs))
    }

    pub fn expr(&mut self) -> Result<Expr, ParseError> {
        self.enter()?;
        let r = self.expr_in();
        self.nest -= 1;
        r
    }

    fn expr_in(&mut self) -> Result<Expr, ParseError> {
        let c = self.binary(1)?;
        if self.eat_punct("?") {
            let hc = self.h;
            let a = self.expr()?;
            let ha = self.h;
            self.expect_punct(":")?;
            let b = self.expr()?;
            self.height(1 + hc.max(ha).max(self.h))?;
            return Ok(Expr::Cond(Box::new(c), Box::new(a), Box::new(b)));
        }
        Ok(c)
    }

    fn binop(&self) -> Option<BinOp> {
        use BinOp::*;
        let Tok::Punct(p) = self.peek() else {
            return None;
        };
        Some(match *p {
            "*" => Mul,
            "/" => Div,
            "%" => Rem,
            "+" => Add,
            "-" => Sub,
            "<<" => Shl,
            ">>" => Shr,
            "<" => Lt,
            "<=" => Le,
            ">" => Gt,
            ">=" => Ge,
            "==" => Eq,
            "!=" => Ne,
            "&" => And,
            "^" => Xor,
            "|" => Or,
            "&&" => LAnd,
            "||" => LOr,
            _ => return None,
        })
    }

    fn binary(&mut self, min: u8) -> Result<Expr, ParseError> {
        let mut lhs = self.unary()?;
        while let Some(op) = self.binop() {
            if op.prec() < min {
                break;
            }
            let hl = self.h;
            self.bump();
            let rhs = self.binary(op.prec() + 1)?;
            self.height(1 + hl.max(self.h))?;
            lhs = Expr::Binary(op, Box::new(lhs), Box::new(rhs));
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> Result<Expr, ParseError> {
        let op = if self.is_punct("-") {
            Some(UnOp::Neg)
        } else if self.is_punct("~") {
            Some(UnOp::Not)
        } else if self.is_punct("!") {
            Some(UnOp::LNot)
        } else {
            None
        };
        if let Some(op) = op {
            self.bump();
            // Bounded before recursing: the height is only known on the way back.
            self.enter()?;
            let e = self.unary();
            self.nest -= 1;
            let e = e?;
            self.height(self.h + 1)?;
            return Ok(Expr::Unary(op, Box::new(e)));
        }
        self.postfix()
    }

    fn postfix(&mut self) -> Result<Expr, ParseError> {
        let mut e = self.primary()?;
        loop {
            match self.peek().clone() {
                Tok::Suffix(s) => {
                    let pos = self.pos();
                    self.bump();
                    let ty = Ty::parse_suffix(&s).ok_or_else(|| {
                        ParseError::at(pos, format!("unknown type suffix `.{s}`"))
                    })?;
                    self.height(self.h + 1)?;
                    e = Expr::Field(Box::new(e), ty);
                }
                Tok::Punct("[") if !matches!(e, Expr::Var(ref n) if n == "MEM") => {
                    self.bump();
                    let hi = self.small_int()?;
                    let lo = if self.eat_punct(":") {
                        self.small_int()?
                    } else {
                        hi
                    };
                    if lo > hi || hi > 127 {
                        return Err(self.err(format!("bad bit range [{hi}:{lo}]")));
                    }
                    self.expect_punct("]")?;
                    self.height(self.h + 1)?;
                    e = Expr::Slice(Box::new(e), hi, lo);
                }
                _ => return Ok(e),
            }
        }
    }

    fn small_int(&mut self) -> Result<u32, ParseError> {
        match self.peek().clone() {
            Tok::Num {
                value,
                suffix: LitSuffix::None,
                ..
            } if value < 1024 => {
                self.bump();
                Ok(value as u32)
            }
            _ => Err(self.err("expected a bit index")),
        }
    }

    fn primary(&mut self) -> Result<Expr, ParseError> {
        let pos = self.pos();
        match self.peek().clone() {
            Tok::Num { value, suffix, hex } => {
                self.bump();
                self.h = 1;
                Ok(Expr::Lit { value, suffix, hex })
            }
            Tok::SizePrefix(width) => {
                self.bump();
                match self.peek().clone() {
                    Tok::Num {
                        value,
                        suffix: LitSuffix::None,
                        ..
                    } => {
                        self.bump();
                        if width < 128 && value >> width != 0 {
                            return Err(ParseError::at(
                                pos,
                                format!("{value} does not fit in {width} bits"),
                            ));
                        }
                        self.h = 1;
                        Ok(Expr::Sized { width, value })
                    }
                    _ => Err(self.err("expected a number after the width")),
                }
            }
            Tok::Punct("(") => {
                self.bump();
                let e = self.expr()?;
                self.expect_punct(")")?;
                Ok(e)
            }
            Tok::Punct("{") => {
                self.bump();
                let mut parts = vec![self.expr()?];
                let mut h = self.h;
                while self.eat_punct(",") {
                    parts.push(self.expr()?);
                    h = h.max(self.h);
                }
                self.expect_punct("}")?;
                self.height(h + 1)?;
                if parts.len() < 2 {
                    return Err(ParseError::at(
                        pos,
                        "a concatenation needs at least two parts",
                    ));
                }
                Ok(Expr::Concat(parts))
            }
            Tok::Ident(name) => {
                self.bump();
                self.h = 1;
                match name.as_str() {
                    "true" => return Ok(Expr::BoolLit(true)),
                    "false" => return Ok(Expr::BoolLit(false)),
                    _ => {}
                }
                if name == "MEM" {
                    self.expect_punct("[")?;
                    let a = self.expr()?;
                    let ha = self.h;
                    self.expect_punct("]")?;
                    let ty = match self.peek().clone() {
                        Tok::Suffix(s) => {
                            let p = self.pos();
                            self.bump();
                            Ty::parse_suffix(&s).ok_or_else(|| {
                                ParseError::at(p, format!("unknown type suffix `.{s}`"))
                            })?
                        }
                        _ => return Err(self.err("MEM[...] needs a type suffix such as `.b32`")),
                    };
                    if ty.width() % 8 != 0 {
                        return Err(ParseError::at(pos, "memory accesses are whole bytes"));
                    }
                    self.height(ha + 1)?;
                    return Ok(Expr::Mem(Box::new(a), ty));
                }
                if self.is_punct("(") {
                    self.bump();
                    let mut args = Vec::new();
                    let mut h = 0;
                    if !self.is_punct(")") {
                        args.push(self.expr()?);
                        h = self.h;
                        while self.eat_punct(",") {
                            args.push(self.expr()?);
                            h = h.max(self.h);
                        }
                    }
                    self.expect_punct(")")?;
                    self.height(h + 1)?;
                    return Ok(Expr::Call(name, args));
                }
                if STOP_WORDS.contains(&name.as_str()) || name == "if" {
                    return Err(ParseError::at(
                        pos,
                        format!("expected an expression, found `{name}`"),
                    ));
                }
                Ok(Expr::Var(name))
            }
            _ => Err(self.err("expected an expression")),
        }
    }
}
