//! # gcnsmt-semantics
//!
//! The semantics of AMDGPU DS (LDS/GDS) instructions, written once in AMD's pseudocode
//! notation (`semantics/pcode/*.pcode`), parsed into a small typed IR, printed back with the
//! `pretty` crate, and evaluated by one evaluator over two domains: concrete bits (the
//! interpreter, [`interp::Concrete`]) and solver terms (the verifier's SMT encoding).
//!
//! ```
//! use gcnsmt_semantics::{defs, parse};
//! let lib = defs::Library::builtin();
//! let def = lib.get("DS_INC_RTN_U32").unwrap();
//! assert!(def.names.iter().any(|n| n.name == "DS_INC_U32"));
//! let stmts = parse::parse_stmts("tmp = MEM[ADDR].u32; MEM[ADDR].u32 = tmp + 1U").unwrap();
//! assert_eq!(stmts.len(), 2);
//! ```

#![warn(missing_docs)]

pub mod buffer;
pub mod cursor;
pub mod defs;
pub mod domain;
pub mod eval;
pub mod interp;
pub mod ir;
mod lex;
pub mod modifiers;
pub mod parse;
pub mod print;
pub mod settings;
pub mod target;
pub mod text;
pub mod transpose;
pub mod ty;
pub mod wave;

use thiserror::Error;

/// A syntax error in pseudocode text, at 1-based line and column.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("{line}:{col}: {msg}")]
pub struct ParseError {
    /// 1-based line in the parsed text (counted from the first line number the lexer is given).
    pub line: u32,
    /// 1-based column, in bytes from the start of the line.
    pub col: u32,
    /// What is wrong, e.g. ``expected `;` ``.
    pub msg: String,
}

impl ParseError {
    pub(crate) fn at(pos: ir::Pos, msg: impl Into<String>) -> ParseError {
        ParseError {
            line: pos.line,
            col: pos.col,
            msg: msg.into(),
        }
    }
}
