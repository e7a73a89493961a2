//! The IR: typed expressions and statements in AMD's pseudocode notation.
//!
//! An instruction's semantics is a [`Def`]: the names it covers (LLVM mnemonics, upper case, as AMD's
//! guides write them), per-name operand aliases, and a body of [`Stmt`]s over the operand names
//! `ADDR`, `DATA0`/`DATA`, `DATA1`, `OFFSET`, `OFFSET0`, `OFFSET1`, `M0`, `LANE_ID`, the memory `MEM`
//! (LDS, or GDS when the instruction's `gds` bit is set) and the output `RETURN_DATA`.

use crate::ty::Ty;

/// Source position of a construct: 1-based line and column in its file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pos {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in bytes.
    pub col: u32,
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// `-x`: two's-complement negation, or sign flip for floats.
    Neg,
    /// `~x`: bitwise not.
    Not,
    /// `!b`: boolean not.
    LNot,
}

/// Binary operators, C precedence as in AMD's pseudocode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `*`: multiplication (integer modulo 2^width, or IEEE for float types).
    Mul,
    /// `/`: division, signed for `.i` types, unsigned otherwise (division by zero as
    /// [`crate::domain::BvOp`] says).
    Div,
    /// `%`: remainder, signed for `.i` types, unsigned otherwise.
    Rem,
    /// `+`: addition (integer modulo 2^width, or IEEE for float types).
    Add,
    /// `-`: subtraction (integer modulo 2^width, or IEEE for float types).
    Sub,
    /// `<<`: shift left; the result has the left operand's type.
    Shl,
    /// `>>`: arithmetic shift right for `.i` types, logical otherwise.
    Shr,
    /// `<`: less than (signed for `.i`, IEEE for floats, unsigned otherwise).
    Lt,
    /// `<=`: less than or equal.
    Le,
    /// `>`: greater than.
    Gt,
    /// `>=`: greater than or equal.
    Ge,
    /// `==`: equal (IEEE equality for floats: NaN is unequal to itself, +0 equals -0).
    Eq,
    /// `!=`: not equal.
    Ne,
    /// `&`: bitwise and.
    And,
    /// `^`: bitwise exclusive or.
    Xor,
    /// `|`: bitwise or.
    Or,
    /// `&&`: boolean and.
    LAnd,
    /// `||`: boolean or.
    LOr,
}

impl BinOp {
    /// Binding strength: higher binds tighter.
    pub fn prec(self) -> u8 {
        use BinOp::*;
        match self {
            Mul | Div | Rem => 10,
            Add | Sub => 9,
            Shl | Shr => 8,
            Lt | Le | Gt | Ge => 7,
            Eq | Ne => 6,
            And => 5,
            Xor => 4,
            Or => 3,
            LAnd => 2,
            LOr => 1,
        }
    }
    /// The operator as written in pseudocode (`<<`, `&&`, ...).
    pub fn symbol(self) -> &'static str {
        use BinOp::*;
        match self {
            Mul => "*",
            Div => "/",
            Rem => "%",
            Add => "+",
            Sub => "-",
            Shl => "<<",
            Shr => ">>",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            Eq => "==",
            Ne => "!=",
            And => "&",
            Xor => "^",
            Or => "|",
            LAnd => "&&",
            LOr => "||",
        }
    }
    /// Whether the result is boolean.
    pub fn is_compare(self) -> bool {
        use BinOp::*;
        matches!(self, Lt | Le | Gt | Ge | Eq | Ne)
    }
}

/// Literal suffix as written: none, `U` (u32), `ULL` (u64), `LL` (i64).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LitSuffix {
    /// No suffix: the literal takes the type of the other operand.
    None,
    /// `U`: 32-bit unsigned (`.u32`).
    U,
    /// `ULL`: 64-bit unsigned (`.u64`).
    Ull,
    /// `LL`: 64-bit signed (`.i64`).
    Ll,
}

/// An expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    /// An integer literal; without a suffix it takes the type of the other operand.
    /// `hex` records whether it was written in hex (for printing back the same text).
    Lit {
        /// The value as written (non-negative; `-1` is `Neg` of `1`).
        value: u128,
        /// The suffix, which fixes the type.
        suffix: LitSuffix,
        /// Written as `0x...`.
        hex: bool,
    },
    /// `true` / `false`.
    BoolLit(bool),
    /// A sized literal `32'0x1F` / `16'5` (Verilog-like, as AMD writes sized constants).
    Sized {
        /// Width in bits, 1..=128 (the number before the `'`).
        width: u32,
        /// The value (`.b` type of `width` bits); the parser rejects one that does not fit.
        value: u128,
    },
    /// An operand or local variable.
    Var(String),
    /// `x.u32`: view `x` as the given type (truncate, or extend by the source's signedness).
    Field(Box<Expr>, Ty),
    /// `MEM[addr].ty`: a little-endian read of `ty.width()/8` bytes of LDS/GDS at byte address `addr`.
    Mem(Box<Expr>, Ty),
    /// `x[hi:lo]` (bits hi..=lo) or `x[i]` (hi == lo).
    Slice(Box<Expr>, u32, u32),
    /// `{ hi, ..., lo }`: concatenation, first element most significant.
    Concat(Vec<Expr>),
    /// A unary operator applied to an operand.
    Unary(UnOp, Box<Expr>),
    /// A binary operator: left and right operand.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `c ? a : b`.
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// A built-in function: `CalcDsAddr`, `isNAN`, `isSignalNAN`, `cvtToQuietNAN`, `signbit`.
    Call(String, Vec<Expr>),
}

/// The left side of an assignment.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum LValue {
    /// `x = e` or `x.u32 = e`; optionally a bit range `x[15:0] = e`.
    Var {
        /// The operand or local variable assigned.
        name: String,
        /// The type written after the dot (`x.u32 = e`), if any.
        ty: Option<Ty>,
        /// The bit range `(hi, lo)` written (`x[15:0] = e`), if any; only these bits change.
        slice: Option<(u32, u32)>,
    },
    /// `MEM[addr].ty = e`: a little-endian write of `ty.width()/8` bytes.
    Mem {
        /// The byte address: 32 bits into LDS/GDS, or 64 bits into global memory under a
        /// buffer or global [`crate::eval::Frame`].
        addr: Expr,
        /// The type written; its width, a multiple of 8, gives the bytes.
        ty: Ty,
    },
}

/// A statement.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Stmt {
    /// `lhs = rhs;`.
    Assign(LValue, Expr),
    /// `if c then ... elsif c then ... else ... endif`.
    If(Vec<(Expr, Vec<Stmt>)>, Vec<Stmt>),
    /// `UNDEFINED`: the instruction's behaviour is undefined on this path.
    Undefined,
}

/// One name a [`Def`] covers, with operand aliases: `DS_CMPSTORE_B32 { SRC = DATA0, CMP = DATA1 }`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DefName {
    /// The mnemonic in upper case, as AMD's guides write it (`DS_ADD_RTN_U32`).
    pub name: String,
    /// `(alias, operand)` pairs: in the body, `alias` names the operand (`("SRC", "DATA0")`).
    pub aliases: Vec<(String, String)>,
}

/// One semantics entry: several names (e.g. an op and its RTN form, or the gfx11 renames)
/// sharing one body. Comments attached to the entry (its sources) are kept for printing.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Def {
    /// The names this entry covers, in the order written (`DS_ADD_U32, DS_ADD_RTN_U32:`).
    pub names: Vec<DefName>,
    /// The statements run for every name.
    pub body: Vec<Stmt>,
    /// The unindented `//` lines directly above the entry (its sources), trimmed, without `//`.
    pub comments: Vec<String>,
    /// Where the entry starts in its `.pcode` file.
    pub pos: Pos,
}

impl Def {
    /// The widest write of the variable `name` anywhere in the body, in bits (`RETURN_DATA.b32 =`
    /// is 32, `RETURN_DATA[63:32] =` is 64), or `None` if the body never assigns it or assigns it
    /// untyped.
    pub fn output_width(&self, name: &str) -> Option<u32> {
        fn walk(stmts: &[Stmt], name: &str, best: &mut Option<u32>) {
            for s in stmts {
                match s {
                    Stmt::Assign(LValue::Var { name: n, ty, slice }, _) if n == name => {
                        let w = match (slice, ty) {
                            (Some((hi, _)), _) => Some(hi + 1),
                            (None, Some(t)) => Some(t.width()),
                            (None, None) => None,
                        };
                        if let Some(w) = w {
                            *best = Some(best.map_or(w, |b: u32| b.max(w)));
                        }
                    }
                    Stmt::If(arms, els) => {
                        for (_, b) in arms {
                            walk(b, name, best);
                        }
                        walk(els, name, best);
                    }
                    _ => {}
                }
            }
        }
        let mut best = None;
        walk(&self.body, name, &mut best);
        best
    }

    /// Whether the body assigns the variable `name` on some path, typed or not: `SCC` for the
    /// SALU entries that write the scalar condition code (`semantics/pcode/alu.pcode`).
    pub fn assigns(&self, name: &str) -> bool {
        fn walk(stmts: &[Stmt], name: &str) -> bool {
            stmts.iter().any(|s| match s {
                Stmt::Assign(LValue::Var { name: n, .. }, _) => n == name,
                Stmt::If(arms, els) => arms.iter().any(|(_, b)| walk(b, name)) || walk(els, name),
                _ => false,
            })
        }
        walk(&self.body, name)
    }

    /// The aliases in force for `name` (upper case), if this entry covers it.
    pub fn aliases_for(&self, name: &str) -> Option<&[(String, String)]> {
        self.names
            .iter()
            .find(|n| n.name == name)
            .map(|n| n.aliases.as_slice())
    }
}
