//! Decode, encode, parse and print AMDGPU DS (LDS/GDS) instructions for the
//! fourteen targets in [`gcnsmt_semantics::target::Target`], byte-exact with
//! LLVM 22's `llvm-mc` (the reference is `tests/data/roundtrip/ds_<cpu>.s`).
//!
//! Module map: [`table`] (opcodes and operand shapes), [`inst`] (the decoded
//! instruction), [`mod@decode`]/[`mod@encode`] (64-bit words), [`mod@print`] (canonical
//! LLVM syntax), [`asm`] (LLVM syntax parser), [`lift`] (lifting to gcnsmt IR).

pub mod asm;
pub mod decode;
pub mod encode;
pub mod inst;
pub mod lift;
pub mod print;
mod swizzle;
pub mod table;

pub use asm::{parse_asm, parse_syntax, AsmError, AsmSyntax};
pub use decode::{decode, decode_bytes, DecodeError, DecodeErrorKind};
pub use encode::{encode, encode_bytes};
pub use inst::{DsInst, RegFile, RegTuple};
pub use table::{ds_by_opcode, ds_lookup, ds_mnemonics, DsShape, GdsRule, OffsetKind};
