//! The smallest pieces of assembly text every family's parser shares: the error type and
//! integer literals.

use thiserror::Error;

/// A parse or validation error at a 1-based character column of the input line.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("column {col}: {msg}")]
pub struct AsmError {
    /// 1-based column (in characters) where the problem starts.
    pub col: usize,
    /// What is wrong.
    pub msg: String,
}

/// What a parser returns: its value, or the first error.
pub type AsmResult<T> = Result<T, AsmError>;

/// Parse an integer as llvm-mc writes them: decimal, `0x` hex or `0b` binary, optional `-`.
pub fn parse_int(s: &str) -> Option<i64> {
    let s = s.trim();
    let (neg, s) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let v = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        i64::from_str_radix(h, 16).ok()?
    } else if let Some(b) = s.strip_prefix("0b").or_else(|| s.strip_prefix("0B")) {
        i64::from_str_radix(b, 2).ok()?
    } else if !s.is_empty() && s.chars().all(|c| c.is_ascii_digit()) {
        s.parse().ok()?
    } else {
        return None;
    };
    Some(if neg { -v } else { v })
}

/// `Err(AsmError { col, msg })`: how every family's parser reports a problem.
pub(crate) fn err<T>(col: usize, msg: impl Into<String>) -> Result<T, AsmError> {
    Err(AsmError {
        col,
        msg: msg.into(),
    })
}
