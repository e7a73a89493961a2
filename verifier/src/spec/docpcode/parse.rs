//! Parser of the document dialect (see [`super`]): statements need no `;` between them (AMD
//! joins them with `;` or new lines), `if`'s `then` may be a line end, a call's `(` and an
//! index's `[` must be on the name's line (a new line starts a new statement), and a C block
//! still open at the end of the text is closed there with a note (a truncated entry).

use super::ast::{Expr, Stmt, StmtKind};
use super::lex::{lex, FloatLit, IntLit, Tok, Token};
use gcnsmt_semantics::cursor::{Cursor, Grammar};

/// A parse error: 1-based line and column within the entry's text, and what is wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct DocError {
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub col: u32,
    /// What is wrong.
    pub msg: String,
}

/// A parsed entry: its statements and notes on the text (1-based line, remark), such as a
/// block the text never closes.
#[derive(Clone, Debug, PartialEq)]
pub struct DocBody {
    /// The statements.
    pub stmts: Vec<Stmt>,
    /// Remarks on the text itself, each a fault of the document.
    pub notes: Vec<(u32, String)>,
}

/// Deepest nesting followed; far beyond AMD's texts (under 10), and it bounds the recursion.
const MAX_NEST: usize = 128;

/// Parse one entry's text.
///
/// Errors: text outside the dialect, with its line and column.
pub fn parse(src: &str) -> Result<DocBody, DocError> {
    if let Some(t) = table(src) {
        return Ok(DocBody {
            stmts: vec![Stmt { kind: t, line: 1 }],
            notes: Vec::new(),
        });
    }
    let toks = lex(src).map_err(|e| DocError {
        line: e.line,
        col: e.col,
        msg: e.msg,
    })?;
    let mut p = P {
        c: Cursor::new(toks),
        nest: 0,
        notes: Vec::new(),
    };
    let stmts = p.stmts(&[])?;
    if !p.at_eof() {
        return Err(p.err("unexpected text"));
    }
    Ok(DocBody {
        stmts,
        notes: p.notes,
    })
}

/// A text that is a lookup table, not code: every line `KEY: CELLS` and no `=` anywhere
/// (CDNA's DS_SWIZZLE_B32: `0x00: {1,11,9,19,...}`, cells in hex without `0x`).
fn table(src: &str) -> Option<StmtKind> {
    let lines: Vec<&str> = src.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.len() < 2 || src.contains('=') {
        return None;
    }
    let rows: Option<Vec<(String, String)>> = lines
        .iter()
        .map(|l| {
            let (k, v) = l.split_once(": ")?;
            Some((k.trim().to_string(), v.trim().to_string()))
        })
        .collect();
    rows.map(StmtKind::Table)
}

/// Words that end a statement list.
const ENDS: [&str; 6] = ["elsif", "else", "endif", "endfor", "endfunction", "then"];

struct P {
    c: Cursor<Token>,
    nest: usize,
    notes: Vec<(u32, String)>,
}

// The token walk is the shared cursor's (the same one our own pcode parser uses).
gcnsmt_semantics::cursor_parser!(P, c, Token, DocError, err);

impl P {
    fn line(&self) -> u32 {
        self.token().line
    }
    /// Line of the token before the current one.
    fn prev_line(&self) -> u32 {
        self.prev().line
    }
    fn err(&self, msg: &str) -> DocError {
        let t = self.token();
        let found = match &t.tok {
            Tok::Ident(s) | Tok::Dot(s) => format!("`{s}`"),
            Tok::Int(IntLit { value, .. }) => format!("`{value}`"),
            Tok::Float(FloatLit { value, .. }) => format!("`{value}`"),
            Tok::Sized(w, _) => format!("`{w}'`"),
            Tok::Punct(p) => format!("`{p}`"),
            Tok::Eof => "the end of the text".into(),
        };
        DocError {
            line: t.line,
            col: t.col,
            msg: format!("{msg}, found {found}"),
        }
    }
    fn enter(&mut self) -> Result<(), DocError> {
        self.nest += 1;
        if self.nest > MAX_NEST {
            return Err(self.err("nested too deeply"));
        }
        Ok(())
    }

    /// Statements up to one of `ENDS`, a `}` or `)` (block ends), or the end of the text.
    fn stmts(&mut self, stop: &[&str]) -> Result<Vec<Stmt>, DocError> {
        self.enter()?;
        let mut out = Vec::new();
        loop {
            while self.eat_punct(";") || self.eat_punct(".") {}
            if self.at_eof() || self.is_punct("}") || self.is_punct(")") {
                break;
            }
            if let Tok::Ident(w) = self.peek() {
                if ENDS.contains(&w.as_str()) || stop.contains(&w.as_str()) {
                    break;
                }
            }
            out.push(self.stmt()?);
        }
        self.nest -= 1;
        Ok(out)
    }

    fn stmt(&mut self) -> Result<Stmt, DocError> {
        let line = self.line();
        let kind = self.stmt_kind()?;
        Ok(Stmt { kind, line })
    }

    fn stmt_kind(&mut self) -> Result<StmtKind, DocError> {
        if let Tok::Ident(w) = self.peek().clone() {
            let next_same_line = self.ahead(1).line == self.line();
            match w.as_str() {
                "if" => return self.if_stmt(),
                "for" => return self.for_stmt(),
                "declare" => return self.declare(),
                "break" => {
                    self.bump();
                    return Ok(StmtKind::Break);
                }
                "return" => {
                    self.bump();
                    let same = self.line() == self.prev_line();
                    let e = if same && !self.at_eof() && !self.is_punct(";") && !self.is_punct(")")
                    {
                        Some(self.expr()?)
                    } else {
                        None
                    };
                    return Ok(StmtKind::Return(e));
                }
                "function" => return self.function(),
                "Increment" | "Decrement" if next_same_line => {
                    self.bump();
                    let target = self.postfix()?;
                    let delta = if w == "Increment" { 1 } else { -1 };
                    return Ok(StmtKind::Step { target, delta });
                }
                _ => {}
            }
        }
        let lhs = self.lhs()?;
        for op in ["+", "-", "*", "/", "|", "&", "^", "<<", ">>"] {
            if self.is_punct(&format!("{op}=")) {
                self.bump();
                let rhs = self.rhs()?;
                return Ok(StmtKind::Assign {
                    lhs,
                    op: Some(op),
                    rhs,
                });
            }
        }
        if self.eat_punct("=") {
            let rhs = self.rhs()?;
            return Ok(StmtKind::Assign { lhs, op: None, rhs });
        }
        if self.eat_punct("++") {
            return Ok(StmtKind::Step {
                target: lhs,
                delta: 1,
            });
        }
        if self.eat_punct("--") {
            return Ok(StmtKind::Step {
                target: lhs,
                delta: -1,
            });
        }
        match lhs {
            Expr::Call(..) => Ok(StmtKind::Expr(lhs)),
            _ => Err(self.err("expected `=`")),
        }
    }

    /// An assignment target: a postfix expression, `(a, b)` or `{a, b}`.
    fn lhs(&mut self) -> Result<Expr, DocError> {
        self.postfix()
    }

    /// An assigned value; `a:b` (RDNA's `offset1:offset0`) is the concatenation `{a, b}`.
    fn rhs(&mut self) -> Result<Expr, DocError> {
        let e = self.expr()?;
        if self.is_punct(":") && self.line() == self.prev_line() {
            self.bump();
            let lo = self.expr()?;
            return Ok(Expr::Concat(vec![e, lo]));
        }
        Ok(e)
    }

    /// `if c then`, `if c` + line end, or C `if (c) {`.
    fn if_stmt(&mut self) -> Result<StmtKind, DocError> {
        self.bump();
        let c = self.expr()?;
        if self.is_punct("{") {
            return self.c_if(c);
        }
        let (arms, els) = self.if_chain(c, Self::expr, Self::then_block, |p| p.stmts(&[]))?;
        Ok(StmtKind::If(arms, els))
    }

    fn then_block(&mut self) -> Result<Vec<Stmt>, DocError> {
        if !self.eat_word("then") && self.line() == self.prev_line() {
            return Err(self.err("expected `then` or a new line"));
        }
        self.stmts(&[])
    }

    fn c_if(&mut self, c: Expr) -> Result<StmtKind, DocError> {
        let body = self.c_block()?;
        let els = if self.eat_word("else") {
            if self.is_word("if") {
                let line = self.line();
                vec![Stmt {
                    kind: self.if_stmt()?,
                    line,
                }]
            } else {
                self.c_block()?
            }
        } else {
            Vec::new()
        };
        Ok(StmtKind::If(vec![(c, body)], els))
    }

    /// `{ stmts }`; a text that ends before the `}` is noted, not refused.
    fn c_block(&mut self) -> Result<Vec<Stmt>, DocError> {
        let open = self.line();
        self.expect_punct("{")?;
        let body = self.stmts(&[])?;
        if self.at_eof() {
            self.notes.push((
                open,
                "the text ends inside the block opened here (no closing `}`): the entry is cut short".into(),
            ));
        } else {
            self.expect_punct("}")?;
        }
        Ok(body)
    }

    /// `for v in a : b do`, `for v = a..b do` (both inclusive, closed by `endfor`) and C's
    /// `for (v = a; v < b; v++) { }`.
    fn for_stmt(&mut self) -> Result<StmtKind, DocError> {
        self.bump();
        if self.eat_punct("(") {
            let var = self.ident()?;
            self.expect_punct("=")?;
            let from = self.expr()?;
            self.expect_punct(";")?;
            self.expect_word(&var)?;
            let inclusive = if self.eat_punct("<") {
                false
            } else {
                self.expect_punct("<=")?;
                true
            };
            let bound = self.expr()?;
            self.expect_punct(";")?;
            self.expect_word(&var)?;
            self.expect_punct("++")?;
            self.expect_punct(")")?;
            let body = self.c_block()?;
            let to = if inclusive {
                bound
            } else {
                Expr::Binary("-", Box::new(bound), Box::new(int(1)))
            };
            return Ok(StmtKind::For {
                var,
                from,
                to,
                body,
            });
        }
        let var = self.ident()?;
        let (from, to) = if self.eat_word("in") {
            let a = self.expr()?;
            self.expect_punct(":")?;
            (a, self.expr()?)
        } else {
            self.expect_punct("=")?;
            let a = self.expr()?;
            self.expect_punct("..")?;
            (a, self.expr()?)
        };
        self.expect_word("do")?;
        let body = self.stmts(&[])?;
        self.expect_word("endfor")?;
        Ok(StmtKind::For {
            var,
            from,
            to,
            body,
        })
    }

    /// `declare name : N'K` or `N'K[count]`.
    fn declare(&mut self) -> Result<StmtKind, DocError> {
        self.bump();
        let name = self.ident()?;
        self.expect_punct(":")?;
        let Tok::Sized(width, Some(_)) = self.peek().clone() else {
            return Err(self.err("expected a type such as `32'U`"));
        };
        self.bump();
        let count = if self.eat_punct("[") {
            let n = self.const_int()?;
            self.expect_punct("]")?;
            Some(n)
        } else {
            None
        };
        Ok(StmtKind::Declare { name, width, count })
    }

    fn const_int(&mut self) -> Result<u32, DocError> {
        match self.peek().clone() {
            Tok::Int(IntLit { value, .. }) if value <= u32::MAX as u128 => {
                self.bump();
                Ok(value as u32)
            }
            _ => Err(self.err("expected a number")),
        }
    }

    /// `function name(params): body endfunction`.
    fn function(&mut self) -> Result<StmtKind, DocError> {
        self.bump();
        let name = self.ident()?;
        let params = self.params()?;
        self.eat_punct(":");
        let body = self.stmts(&[])?;
        self.expect_word("endfunction")?;
        Ok(StmtKind::Function(name, params, body))
    }

    fn params(&mut self) -> Result<Vec<String>, DocError> {
        self.paren_list(Self::ident)
    }

    fn expr(&mut self) -> Result<Expr, DocError> {
        self.enter()?;
        let c = self.binary(1)?;
        let r = if self.eat_punct("?") {
            let a = self.expr()?;
            self.expect_punct(":")?;
            let b = self.expr()?;
            Ok(Expr::Cond(Box::new(c), Box::new(a), Box::new(b)))
        } else {
            Ok(c)
        };
        self.nest -= 1;
        r
    }

    fn binop(&self) -> Option<(&'static str, u8)> {
        let Tok::Punct(p) = self.peek() else {
            return None;
        };
        let prec = match *p {
            "||" => 1,
            "&&" => 2,
            "|" => 3,
            "^" => 4,
            "&" => 5,
            "==" | "!=" => 6,
            "<" | "<=" | ">" | ">=" => 7,
            "<<" | ">>" => 8,
            "+" | "-" => 9,
            "*" | "/" | "%" => 10,
            _ => return None,
        };
        Some((p, prec))
    }

    fn binary(&mut self, min: u8) -> Result<Expr, DocError> {
        let mut lhs = self.unary()?;
        while let Some((op, prec)) = self.binop() {
            if prec < min {
                break;
            }
            self.bump();
            self.enter()?;
            let rhs = self.binary(prec + 1);
            self.nest -= 1;
            lhs = Expr::Binary(op, Box::new(lhs), Box::new(rhs?));
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> Result<Expr, DocError> {
        for op in ["-", "~", "!"] {
            if self.is_punct(op) {
                self.bump();
                self.enter()?;
                let e = self.unary();
                self.nest -= 1;
                return Ok(Expr::Unary(op, Box::new(e?)));
            }
        }
        self.postfix()
    }

    fn postfix(&mut self) -> Result<Expr, DocError> {
        let mut e = self.primary()?;
        loop {
            let same = self.line() == self.prev_line();
            match self.peek().clone() {
                Tok::Dot(s) => {
                    self.bump();
                    e = Expr::Dot(Box::new(e), s);
                }
                Tok::Punct("[") if same => {
                    self.bump();
                    let a = self.expr()?;
                    e = if self.eat_punct(":") {
                        let b = self.expr()?;
                        Expr::Range(Box::new(e), Box::new(a), Box::new(b))
                    } else {
                        Expr::Index(Box::new(e), Box::new(a))
                    };
                    self.expect_punct("]")?;
                }
                _ => return Ok(e),
            }
        }
    }

    fn primary(&mut self) -> Result<Expr, DocError> {
        match self.peek().clone() {
            Tok::Int(l) => {
                self.bump();
                Ok(Expr::Int(l))
            }
            Tok::Float(l) => {
                self.bump();
                Ok(Expr::Float(l))
            }
            Tok::Sized(width, None) => {
                self.bump();
                match self.peek().clone() {
                    Tok::Int(IntLit { value, .. }) => {
                        self.bump();
                        Ok(Expr::Sized { width, value })
                    }
                    _ => Err(self.err("expected a number after the width")),
                }
            }
            Tok::Sized(width, Some(kind)) => {
                self.bump();
                self.expect_punct("(")?;
                let e = self.expr()?;
                self.expect_punct(")")?;
                Ok(Expr::Cast {
                    width,
                    kind,
                    e: Box::new(e),
                })
            }
            Tok::Punct("(") => {
                let mut parts = self.delimited(["(", ")"], true, Self::expr)?;
                Ok(if parts.len() == 1 {
                    parts.remove(0)
                } else {
                    Expr::Tuple(parts)
                })
            }
            Tok::Punct("{") => Ok(Expr::Concat(self.delimited(
                ["{", "}"],
                true,
                Self::expr,
            )?)),
            Tok::Ident(name) if name == "lambda" => {
                self.bump();
                let params = self.params()?;
                self.expect_punct("(")?;
                let body = self.stmts(&[])?;
                self.expect_punct(")")?;
                Ok(Expr::Lambda(params, body))
            }
            Tok::Ident(name) if !ENDS.contains(&name.as_str()) && name != "if" => {
                self.bump();
                let same = self.line() == self.prev_line();
                if same && self.is_punct("(") {
                    let args = self.paren_list(Self::expr)?;
                    return Ok(Expr::Call(name, args));
                }
                // Prose operands: `valid mask` (two words naming one value).
                if let Tok::Ident(w) = self.peek().clone() {
                    if same && w == "mask" && name == "valid" {
                        self.bump();
                        return Ok(Expr::Name("valid mask".into()));
                    }
                }
                Ok(Expr::Name(name))
            }
            _ => Err(self.err("expected an expression")),
        }
    }
}

fn int(v: u128) -> Expr {
    Expr::Int(IntLit::dec(v, ""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compound_and_semicolons() {
        let b = parse("MEM[addr].u32 += DATA.u32; RETURN_DATA.u32 = tmp").unwrap();
        assert_eq!(b.stmts.len(), 2);
        assert!(matches!(
            b.stmts[0].kind,
            StmtKind::Assign { op: Some("+"), .. }
        ));
    }

    #[test]
    fn for_in_and_prose_if() {
        let b =
            parse("for i in 0 : n - 1 do\ntmp[i] = 0x0\nendfor;\nif x > 7\ny = 1\nendif.").unwrap();
        assert!(matches!(b.stmts[0].kind, StmtKind::For { .. }));
        assert!(matches!(b.stmts[1].kind, StmtKind::If(..)));
        assert_eq!(b.stmts[1].line, 4);
    }

    #[test]
    fn an_unclosed_c_block_is_a_note() {
        let b = parse("if (x >= 1) {\nfor (i = 0; i < 64; i++) {\nj |= i;\n}").unwrap();
        assert_eq!(b.notes.len(), 1);
        assert_eq!(b.notes[0].0, 1);
    }

    #[test]
    fn a_table_is_read_as_one() {
        let b = parse("Offset[4:0]: Swizzle\n0x00: {1,11,d,1d}\n0x1f: No swizzle").unwrap();
        assert!(matches!(&b.stmts[0].kind, StmtKind::Table(r) if r.len() == 3));
    }

    #[test]
    fn garbage_is_an_error_with_a_position() {
        let e = parse("x = = 1").unwrap_err();
        assert_eq!((e.line, e.col), (1, 5));
    }
}
