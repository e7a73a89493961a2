//! One entry point over all supported encodings: [`Inst`] (DS or MUBUF/VBUFFER),
//! [`decode_any`] (dispatch on word bits 31:26: 0x36 DS, 0x38 MUBUF and 0x3a MTBUF before gfx12,
//! 0x31 VBUFFER on gfx12/gfx1250), [`parse_any`] (dispatch on the mnemonic prefix) and
//! [`encode_any`].

use gcnsmt_semantics::target::Target;

use crate::asm::{parse_asm, AsmError};
use crate::decode::{decode_bytes, DecodeError};
use crate::encode::encode_bytes;
use crate::family::Family;
use crate::inst::DsInst;
use crate::mubuf::{decode_mubuf, encode_mubuf_bytes, MubufDecodeError, MubufInst};
use crate::mubuf_asm::parse_mubuf;
use crate::mubuf_table::MubufLayout;
use crate::text::{display_via_text, WriteText};

/// A decoded instruction of any supported encoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inst {
    /// A DS (LDS/GDS) instruction, 8 bytes.
    Ds(DsInst),
    /// A MUBUF (8 bytes) or VBUFFER (12 bytes) instruction.
    Mubuf(MubufInst),
}

impl Inst {
    /// Length of the encoding in bytes (8, or 12 for VBUFFER).
    pub fn len(&self) -> usize {
        match self {
            Inst::Ds(_) => 8,
            Inst::Mubuf(m) => MubufLayout::of(m.target).bytes(),
        }
    }

    /// Always false (an instruction has at least 8 bytes); for clippy's `len_without_is_empty`.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The LLVM mnemonic.
    pub fn mnemonic(&self) -> &'static str {
        match self {
            Inst::Ds(d) => d.mnemonic,
            Inst::Mubuf(m) => m.mnemonic,
        }
    }

    /// The target.
    pub fn target(&self) -> Target {
        match self {
            Inst::Ds(d) => d.target,
            Inst::Mubuf(m) => m.target,
        }
    }
}

impl WriteText for Inst {
    fn write_text(&self, out: &mut String) {
        match self {
            Inst::Ds(d) => d.write_text(out),
            Inst::Mubuf(m) => m.write_text(out),
        }
    }
}

display_via_text!(Inst);

/// Why [`decode_any`] rejected its input; displays as `.long 0x... ; reason`.
/// Its text: [`crate::text::WriteText`] (`lifter/src/reason.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InstDecodeError {
    /// A DS word that does not decode.
    Ds(DecodeError),
    /// A MUBUF/VBUFFER word that does not decode.
    Mubuf(MubufDecodeError),
    /// Neither DS nor MUBUF/VBUFFER encoding bits.
    Unsupported {
        /// The first dword.
        word: u32,
        /// Bits 31:26.
        enc: u8,
        /// `MUBUF` or `VBUFFER`.
        buf: &'static str,
    },
}

/// Number of bytes the instruction starting with the dword `first` occupies on `target`
/// (8 for DS, MUBUF and MTBUF, 12 for VBUFFER), or `None` for other encodings.
pub fn inst_len(target: Target, first: u32) -> Option<usize> {
    let enc = (first >> 26) as u8;
    let layout = MubufLayout::of(target);
    match enc {
        0x36 => Some(8),
        0x31 if layout == MubufLayout::Vbuffer => Some(12),
        0x38 | 0x3a if layout != MubufLayout::Vbuffer => Some(8),
        _ => None,
    }
}

/// Decode one instruction from little-endian `bytes` (short input is zero-padded; bytes past
/// the instruction are ignored). Total: never panics.
#[inline]
pub fn decode_any(target: Target, bytes: &[u8]) -> Result<Inst, InstDecodeError> {
    let mut b = [0u8; 4];
    let n = bytes.len().min(4);
    b[..n].copy_from_slice(&bytes[..n]);
    let first = u32::from_le_bytes(b);
    let enc = (first >> 26) as u8;
    match inst_len(target, first) {
        Some(_) if enc == 0x36 => Ok(Inst::Ds(decode_bytes(target, bytes)?)),
        Some(_) => Ok(Inst::Mubuf(decode_mubuf(target, bytes)?)),
        None => Err(InstDecodeError::Unsupported {
            word: first,
            enc,
            buf: if MubufLayout::of(target) == MubufLayout::Vbuffer {
                "VBUFFER"
            } else {
                "MUBUF"
            },
        }),
    }
}

impl From<DecodeError> for InstDecodeError {
    fn from(e: DecodeError) -> Self {
        InstDecodeError::Ds(e)
    }
}

impl From<MubufDecodeError> for InstDecodeError {
    fn from(e: MubufDecodeError) -> Self {
        InstDecodeError::Mubuf(e)
    }
}

/// Parse one line of DS (`ds_*`) or MUBUF/VBUFFER (`buffer_*`, `tbuffer_*`) assembly.
///
/// Errors: a line of a family without an encoder (GLOBAL/SMEM, FLAT, VALU/SALU) says so; anything
/// else is the DS or MUBUF parser's error.
pub fn parse_any(target: Target, line: &str) -> Result<Inst, AsmError> {
    let t = line.trim_start();
    let mnemonic = t.split(|c: char| c.is_whitespace()).next().unwrap_or("");
    match crate::family::family_of(&mnemonic.to_ascii_lowercase()).map(|f| (f.family, f.name)) {
        Some((Family::Mubuf, _)) => parse_mubuf(target, line).map(Inst::Mubuf),
        Some((Family::Global | Family::Smem | Family::Flat | Family::Alu, name)) => Err(AsmError {
            col: line.len() - t.len() + 1,
            msg: format!(
                "`{mnemonic}` is a {name} instruction: gcnsmt models its semantics (rules, tv) \
                 but has no encoder or decoder for it yet"
            ),
        }),
        _ => parse_asm(target, line).map(Inst::Ds),
    }
}

/// Encode to little-endian bytes (8 or 12).
pub fn encode_any(inst: &Inst) -> Vec<u8> {
    match inst {
        Inst::Ds(d) => encode_bytes(d).to_vec(),
        Inst::Mubuf(m) => encode_mubuf_bytes(m),
    }
}
