//! Decode, encode, parse and print AMDGPU DS (LDS/GDS), MUBUF/VBUFFER and GLOBAL/SMEM
//! instructions for the fourteen targets in [`gcnsmt_semantics::target::Target`], byte-exact with
//! LLVM 22's `llvm-mc` (the references are `tests/data/roundtrip/{ds,mubuf}_<cpu>.s`).
//!
//! The public surface: the opcode tables ([`table`] for DS, [`mubuf_table`] for MUBUF/VBUFFER),
//! the LLVM-syntax parser with operand holes ([`asm`], [`holes`]), the lifting of a decoded
//! instruction to gcnsmt IR ([`lift`]), the instruction of every family ([`any`]: [`Inst`],
//! [`decode_any`], [`encode_any`], [`parse_any`]) and the family registry ([`FAMILIES`],
//! [`family_of`]). Decoding, encoding and printing of each family are re-exported at the root
//! ([`decode`], [`encode`], [`DsInst`], [`MubufInst`], [`GlobalInst`]).
//!
//! ```
//! use gcnsmt_lifter::{encode_any, parse_any};
//! use gcnsmt_semantics::target::Target;
//! // `llvm-mc-22 -triple=amdgcn -mcpu=gfx900 -show-encoding` prints
//! // `ds_write_b32 v1, v2 offset:4 ; encoding: [0x04,0x00,0x1a,0xd8,0x01,0x02,0x00,0x00]`.
//! let inst = parse_any(Target::Gfx900, "ds_write_b32 v1, v2 offset:4").unwrap();
//! assert_eq!(encode_any(&inst), vec![0x04, 0x00, 0x1a, 0xd8, 0x01, 0x02, 0x00, 0x00]);
//! ```

#![warn(missing_docs)]

mod alu_def;
pub mod any;
pub mod asm;
pub mod counters;
mod decode;
mod encode;
mod family;
mod flat;
mod global;
mod hex;
pub mod holes;
pub mod inline_const;
mod inst;
mod lex;
pub mod lift;
mod lift_int;
pub mod mnemonics;
pub mod mtbuf_table;
mod mubuf;
mod mubuf_asm;
pub mod mubuf_table;
mod operand;
mod print;
mod reason;
mod smem;
pub mod speed;
mod swizzle;
mod syntax;
pub mod table;
pub mod text;

pub use any::{decode_any, encode_any, inst_len, parse_any, Inst, InstDecodeError};
pub use asm::{parse_asm, parse_asm_with, parse_syntax, AsmError, AsmSyntax};
pub use decode::{decode, decode_bytes, DecodeError, DecodeErrorKind};
pub use encode::{encode, encode_bytes};
pub use family::{family_of, family_of_file, Family, FamilyDef, FAMILIES};
pub use flat::{flat_lookup, flat_spelling, parse_flat_with};
pub use global::{
    global_lookup, global_spelling, parse_global_with, GlobalInst, GlobalKind, GlobalOp, Sgprs,
};
pub use holes::{HoleAnswer, HoleClass, Holes, NoHoles, Role};
pub use inst::{BadTuple, DsInst, RegFile, RegTuple};
pub use mtbuf_table::{buffer_lookup, mtbuf_by_opcode, mtbuf_lookup, mtbuf_mnemonics};
pub use mubuf::{
    decode_mubuf, encode_mubuf, encode_mubuf_bytes, CachePolicy, MubufDecodeError,
    MubufDecodeErrorKind, MubufInst,
};
pub use mubuf_asm::{parse_mubuf, parse_mubuf_syntax, parse_mubuf_with};
pub use mubuf_table::{
    mubuf_by_opcode, mubuf_lookup, mubuf_mnemonics, MubufClass, MubufLayout, MubufShape,
};
pub use smem::{
    parse_smem_with, smem_buffer_offset_range, smem_lookup, smem_spelling, SOffset, SmemInst,
};
pub use table::{ds_by_opcode, ds_lookup, ds_mnemonics, DsShape, GdsRule, OffsetKind};
