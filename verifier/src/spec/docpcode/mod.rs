//! AMD's pseudocode as the guides and their collections print it (the document dialect),
//! read by a parser of its own and then written in the notation of `semantics/pcode/` for
//! the one semantics parser and IR.
//!
//! Why a reader here and not in `semantics/src/parse.rs`: the dialect has loops over lanes,
//! lambdas, `function ... endfunction`, prose statements (`Increment stack_index`), C blocks
//! and lookup tables, none of which any of our own instructions needs and none of which the
//! evaluators or the z3 encoding could give a per-lane meaning; keeping them out of the
//! semantics IR leaves our pcode's language, and every consumer of the IR, unchanged. What
//! has a meaning in the IR is lowered into it ([`lower`]), so a document's text and our
//! semantics are still compared by the same evaluator.
//!
//! [`parse`] reads every DS, MUBUF and VBUFFER entry of AMD's CDNA4, RDNA3.5 and RDNA4
//! collections (tested on the copies in `tests/data/spec/`).

pub mod ast;
pub mod lex;
pub mod lower;
pub mod parse;

pub use lower::{lower, Lowered, Outside};
pub use parse::{parse, DocBody, DocError};
