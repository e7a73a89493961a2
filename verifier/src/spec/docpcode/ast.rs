//! The document dialect's syntax tree: what AMD's pseudocode writes, before any meaning is
//! given to it (that is [`super::lower`]'s job).

use super::lex::{FloatLit, IntLit};

/// An expression as written.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// An integer literal.
    Int(IntLit),
    /// A float literal.
    Float(FloatLit),
    /// `N'V`: the value V in N bits.
    Sized {
        /// Width in bits.
        width: u32,
        /// The value.
        value: u128,
    },
    /// `N'K(e)`: e converted to an N-bit value of kind K (`I`, `U`, `B`, `F`).
    Cast {
        /// Width in bits.
        width: u32,
        /// The kind letter.
        kind: char,
        /// The operand.
        e: Box<Expr>,
    },
    /// A name.
    Name(String),
    /// `e.name`: a type view (`.u32`) or a field (`.X`, `.base`).
    Dot(Box<Expr>, String),
    /// `e[i]`: an element, lane, register or single bit, by what `e` is.
    Index(Box<Expr>, Box<Expr>),
    /// `e[hi : lo]`, bounds as written (constants or expressions of a loop variable).
    Range(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `f(args)`.
    Call(String, Vec<Expr>),
    /// `(a, b)`: several values at once (a multi-register result).
    Tuple(Vec<Expr>),
    /// `{a, b}`, or `a:b` in RDNA's swizzle text: most significant part first.
    Concat(Vec<Expr>),
    /// A prefix operator (`-`, `~`, `!`) and its operand.
    Unary(&'static str, Box<Expr>),
    /// A binary operator (`+`, `<<`, `&&`, ...) and its operands.
    Binary(&'static str, Box<Expr>, Box<Expr>),
    /// `c ? a : b`.
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `lambda(params) (body)`.
    Lambda(Vec<String>, Vec<Stmt>),
}

/// A statement and the 1-based line (within the entry's text) where it starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    /// What it is.
    pub kind: StmtKind,
    /// 1-based line.
    pub line: u32,
}

/// The statements of the dialect.
#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// `lhs = rhs`, or `lhs op= rhs` with `op` the operator (`+`, `|`, ...).
    Assign {
        /// The target.
        lhs: Expr,
        /// `None` for `=`, else the compound operator without its `=`.
        op: Option<&'static str>,
        /// The value.
        rhs: Expr,
    },
    /// `x++` / `x--` (C style) and `Increment x` / `Decrement x` (prose): `delta` is 1 or -1.
    Step {
        /// The target.
        target: Expr,
        /// +1 or -1.
        delta: i8,
    },
    /// `declare name : TYPE`; `ty` as written (`32'U[2]`); `count` for an array.
    Declare {
        /// The declared name.
        name: String,
        /// Element width in bits.
        width: u32,
        /// Number of elements of an array, `None` for a scalar.
        count: Option<u32>,
    },
    /// `if c then ... elsif c then ... else ... endif` (also prose `if c` on its own line and
    /// C `if (c) { ... }`): the arms and the else branch.
    If(Vec<(Expr, Vec<Stmt>)>, Vec<Stmt>),
    /// `for v in a : b do ... endfor` / `for v = a..b do` (inclusive bounds) and C
    /// `for (v = a; v < b; v++)` (read as inclusive `a .. b-1`).
    For {
        /// The loop variable.
        var: String,
        /// First value.
        from: Expr,
        /// Last value (inclusive).
        to: Expr,
        /// The body.
        body: Vec<Stmt>,
    },
    /// `break`.
    Break,
    /// `return e` (inside a lambda or function).
    Return(Option<Expr>),
    /// `function name(params): ... endfunction`.
    Function(String, Vec<String>, Vec<Stmt>),
    /// A call on its own (`Increment` and friends aside).
    Expr(Expr),
    /// A lookup table as some entries print it instead of code (`0x00: {1,11,9,...}`): the
    /// rows as key and cells, verbatim.
    Table(Vec<(String, String)>),
}
