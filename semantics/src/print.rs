//! Printing the IR back in AMD's pseudocode notation with the `pretty` crate.
//! `parse(print(x)) == x` holds for every entry (tested in `tests`).

use crate::ir::*;
use pretty::RcDoc;

type Doc = RcDoc<'static, ()>;

const WIDTH: usize = 100;

/// Render one entry: its source comments, header and indented body.
pub fn def_to_string(d: &Def) -> String {
    let mut s = String::new();
    for c in &d.comments {
        s.push_str("// ");
        s.push_str(c);
        s.push('\n');
    }
    let names: Vec<String> = d
        .names
        .iter()
        .map(|n| {
            if n.aliases.is_empty() {
                n.name.clone()
            } else {
                let a: Vec<String> = n
                    .aliases
                    .iter()
                    .map(|(a, b)| format!("{a} = {b}"))
                    .collect();
                format!("{} {{ {} }}", n.name, a.join(", "))
            }
        })
        .collect();
    s.push_str(&names.join(", "));
    s.push_str(":\n");
    let body = stmts_doc(&d.body);
    let doc = Doc::text("  ").append(body.nest(2));
    s.push_str(&doc.pretty(WIDTH).to_string());
    s.push('\n');
    s
}

/// Render a statement list, one statement per line.
pub fn stmts_to_string(ss: &[Stmt]) -> String {
    stmts_doc(ss).pretty(WIDTH).to_string()
}

/// Render one expression.
pub fn expr_to_string(e: &Expr) -> String {
    expr_doc(e, 0).pretty(WIDTH).to_string()
}

fn stmts_doc(ss: &[Stmt]) -> Doc {
    Doc::intersperse(ss.iter().map(stmt_doc), Doc::hardline())
}

fn stmt_doc(s: &Stmt) -> Doc {
    match s {
        Stmt::Undefined => Doc::text("UNDEFINED;"),
        Stmt::Assign(lv, e) => {
            let l = match lv {
                LValue::Var { name, ty, slice } => {
                    let mut t = name.clone();
                    if let Some((hi, lo)) = slice {
                        t.push_str(&slice_text(*hi, *lo));
                    }
                    if let Some(ty) = ty {
                        t.push_str(&format!(".{ty}"));
                    }
                    Doc::text(t)
                }
                LValue::Mem { addr, ty } => Doc::text("MEM[")
                    .append(expr_doc(addr, 0))
                    .append(Doc::text(format!("].{ty}"))),
            };
            l.append(Doc::text(" = "))
                .append(expr_doc(e, 0))
                .append(Doc::text(";"))
                .group()
        }
        Stmt::If(arms, els) => {
            let mut d = Doc::nil();
            for (i, (c, body)) in arms.iter().enumerate() {
                let kw = if i == 0 { "if " } else { "elsif " };
                d = d
                    .append(Doc::text(kw))
                    .append(expr_doc(c, 0))
                    .append(Doc::text(" then"))
                    .append(Doc::hardline().append(stmts_doc(body)).nest(2))
                    .append(Doc::hardline());
            }
            if !els.is_empty() {
                d = d
                    .append(Doc::text("else"))
                    .append(Doc::hardline().append(stmts_doc(els)).nest(2))
                    .append(Doc::hardline());
            }
            d.append(Doc::text("endif;"))
        }
    }
}

fn slice_text(hi: u32, lo: u32) -> String {
    if hi == lo {
        format!("[{hi}]")
    } else {
        format!("[{hi}:{lo}]")
    }
}

fn lit_text(value: u128, suffix: LitSuffix, hex: bool) -> String {
    let n = if hex {
        format!("0x{value:x}")
    } else {
        value.to_string()
    };
    let s = match suffix {
        LitSuffix::None => "",
        LitSuffix::U => "U",
        LitSuffix::Ull => "ULL",
        LitSuffix::Ll => "LL",
    };
    format!("{n}{s}")
}

/// Precedence of an expression as printed: 0 = ternary, 1..=10 binary, 11 unary, 12 postfix/atom.
fn prec(e: &Expr) -> u8 {
    match e {
        Expr::Cond(..) => 0,
        Expr::Binary(op, ..) => op.prec(),
        Expr::Unary(..) => 11,
        _ => 12,
    }
}

fn paren(d: Doc, yes: bool) -> Doc {
    if yes {
        Doc::text("(").append(d).append(Doc::text(")"))
    } else {
        d
    }
}

fn expr_doc(e: &Expr, _ctx: u8) -> Doc {
    match e {
        Expr::Lit { value, suffix, hex } => Doc::text(lit_text(*value, *suffix, *hex)),
        Expr::BoolLit(b) => Doc::text(if *b { "true" } else { "false" }),
        Expr::Sized { width, value } => Doc::text(format!("{width}'{value}")),
        Expr::Var(n) => Doc::text(n.clone()),
        Expr::Field(x, ty) => {
            paren(expr_doc(x, 12), prec(x) < 12).append(Doc::text(format!(".{ty}")))
        }
        Expr::Slice(x, hi, lo) => {
            paren(expr_doc(x, 12), prec(x) < 12).append(Doc::text(slice_text(*hi, *lo)))
        }
        Expr::Mem(a, ty) => Doc::text("MEM[")
            .append(expr_doc(a, 0))
            .append(Doc::text(format!("].{ty}"))),
        Expr::Concat(parts) => Doc::text("{ ")
            .append(Doc::intersperse(
                parts.iter().map(|p| expr_doc(p, 0)),
                Doc::text(", "),
            ))
            .append(Doc::text(" }")),
        Expr::Unary(op, x) => {
            let s = match op {
                UnOp::Neg => "-",
                UnOp::Not => "~",
                UnOp::LNot => "!",
            };
            Doc::text(s).append(paren(expr_doc(x, 11), prec(x) < 11))
        }
        Expr::Binary(op, a, b) => {
            let p = op.prec();
            paren(expr_doc(a, p), prec(a) < p)
                .append(Doc::text(format!(" {} ", op.symbol())))
                .append(paren(expr_doc(b, p + 1), prec(b) <= p))
                .group()
        }
        Expr::Cond(c, a, b) => paren(expr_doc(c, 1), prec(c) < 1)
            .append(Doc::text(" ? "))
            .append(expr_doc(a, 0))
            .append(Doc::text(" : "))
            .append(expr_doc(b, 0))
            .group(),
        Expr::Call(f, args) => Doc::text(format!("{f}("))
            .append(Doc::intersperse(
                args.iter().map(|a| expr_doc(a, 0)),
                Doc::text(", "),
            ))
            .append(Doc::text(")")),
    }
}
