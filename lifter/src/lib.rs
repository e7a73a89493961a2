//! Decode, encode, parse and print AMDGPU DS (LDS/GDS) and MUBUF/VBUFFER instructions for the
//! fourteen targets in [`gcnsmt_semantics::target::Target`], byte-exact with
//! LLVM 22's `llvm-mc` (the references are `tests/data/roundtrip/{ds,mubuf}_<cpu>.s`).
//!
//! Module map: [`table`] (opcodes and operand shapes), [`inst`] (the decoded
//! instruction), [`mod@decode`]/[`mod@encode`] (64-bit words), [`mod@print`] (canonical
//! LLVM syntax), [`asm`] (LLVM syntax parser), [`lift`] (lifting to gcnsmt IR);
//! MUBUF/VBUFFER: [`mubuf_table`], [`mod@mubuf`] (instruction, decode, encode, print),
//! [`mubuf_asm`]; both: [`any`] ([`Inst`], [`decode_any`], [`parse_any`]).

#![warn(missing_docs)]

pub mod any;
pub mod asm;
pub mod decode;
pub mod encode;
pub mod family;
pub mod flat;
pub mod global;
pub mod holes;
pub mod inst;
pub mod lex;
pub mod lift;
pub mod mubuf;
pub mod mubuf_asm;
pub mod mubuf_table;
pub mod print;
pub mod swizzle;
pub mod table;

pub use any::{decode_any, encode_any, inst_len, parse_any, Inst, InstDecodeError};
pub use asm::{parse_asm, parse_asm_with, parse_syntax, AsmError, AsmSyntax};
pub use decode::{decode, decode_bytes, DecodeError, DecodeErrorKind};
pub use encode::{encode, encode_bytes};
pub use family::{family_of, Family, FamilyDef, FAMILIES};
pub use flat::{flat_lookup, flat_spelling, parse_flat_with};
pub use global::{
    global_lookup, global_spelling, parse_global_with, GlobalInst, GlobalKind, GlobalOp, Sgprs,
};
pub use holes::{HoleClass, Holes, NoHoles, Role};
pub use inst::{DsInst, RegFile, RegTuple};
pub use mubuf::{
    decode_mubuf, encode_mubuf, encode_mubuf_bytes, CachePolicy, MubufDecodeError,
    MubufDecodeErrorKind, MubufInst,
};
pub use mubuf_asm::{parse_mubuf, parse_mubuf_syntax, parse_mubuf_with};
pub use mubuf_table::{
    mubuf_by_opcode, mubuf_lookup, mubuf_mnemonics, MubufClass, MubufLayout, MubufShape,
};
pub use table::{ds_by_opcode, ds_lookup, ds_mnemonics, DsShape, GdsRule, OffsetKind};
