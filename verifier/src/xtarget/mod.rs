//! Across targets: what a cross-target rule assumes about buffer descriptors ([`vsharp`]),
//! which opcode of one target is the counterpart of another's ([`pairing`]), and the
//! equivalence table of every DS and buffer opcode between two targets ([`equiv`]).

mod equiv;
mod memo;
mod pairing;

pub use equiv::{row, table, Proof, Row, Status, FORM};
pub use memo::{Memo, Memoed};
pub use pairing::{counterpart, opcodes, rule_text, By, Fam};
// The V# field mapping lives with the checker, whose cross-target verdicts state it.
pub use crate::check::vsharp_assumptions;
