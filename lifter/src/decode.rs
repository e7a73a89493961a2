//! 64-bit DS word -> [`DsInst`]. Total: every word gives `Ok` or a [`DecodeError`].
//!
//! Validity mirrors llvm-mc-22's disassembler (probed locally): bits that
//! belong to no operand of the opcode must be zero, GWS ops need the GDS bit,
//! and tuples must fit in 256 registers and be even-aligned where the target
//! requires it. Two LLVM behaviours are reproduced on purpose: gfx90a/gfx942/
//! gfx950 ignore the GDS bit of ordinary LDS ops, and bit 16 is ignored on the
//! SI/gfx10/gfx11/VDS layouts. Where LLVM prints a word with an
//! `/*Invalid register*/` comment (AGPRs on targets without AGPR DS operands,
//! misaligned tuples) we return an error instead; so we do where LLVM prints a
//! word its own assembler rejects (tuples past v255 such as `v[255:256]`,
//! misaligned AGPR tuples or GWS registers on gfx90a+, an AGPR GWS operand
//! on gfx8/gfx9). Hence every `Ok` prints text that [`crate::parse_asm`] accepts.

use gcnsmt_semantics::target::{DsLayout, Gen, Target};

use crate::inst::{DsInst, RegFile, RegTuple, TupleFault, TuplePastEnd};
use crate::table::{self, data0_in_addr_field, GdsRule, OffsetKind};

/// Why a word is not a valid DS instruction for the target.
/// Its text: [`crate::text::WriteText`] (`lifter/src/reason.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeErrorKind {
    /// Bits 31:26 are not the DS encoding 0x36.
    NotDs(u8),
    /// The OP field names no DS instruction on this target.
    UnknownOpcode {
        /// The OP field (8 bits).
        opcode: u8,
        /// The target.
        target: Target,
    },
    /// GDS bit set on gfx12/gfx1250 (VDS encoding has no GDS).
    GdsBitOnVds {
        /// The op's LLVM mnemonic.
        mnemonic: &'static str,
        /// A gfx12/gfx1250 target.
        target: Target,
    },
    /// GDS bit set on an op that has no GDS form.
    GdsNotAllowed {
        /// The op's LLVM mnemonic.
        mnemonic: &'static str,
        /// The target on which the op has no GDS form.
        target: Target,
    },
    /// GDS bit clear on a GDS-only op.
    GdsMissing {
        /// The op's LLVM mnemonic (a GWS or other GDS-only op).
        mnemonic: &'static str,
    },
    /// ACC bit set where AGPRs are not allowed.
    AccNotAllowed {
        /// The op's LLVM mnemonic.
        mnemonic: &'static str,
        /// Why not: the target has no AGPR DS operands, or the op has no data or vdst operand.
        why: &'static str,
    },
    /// A field the op does not use is nonzero.
    UnusedFieldSet {
        /// The op's LLVM mnemonic.
        mnemonic: &'static str,
        /// The field and its bits, e.g. `"data1 (bits 55:48)"`.
        field: &'static str,
        /// The field's value (its bits shifted down to bit 0).
        value: u64,
    },
    /// A tuple runs past register 255.
    TupleOutOfRange(TuplePastEnd),
    /// A register operand starts at an odd register where the target needs even alignment
    /// (see [`crate::table::must_be_even`]).
    MisalignedTuple {
        /// The op's LLVM mnemonic.
        mnemonic: &'static str,
        /// The operand: `"vdst"`, `"data0"`, `"data1"` or `"addr"`.
        field: &'static str,
        /// `'v'` for VGPRs, `'a'` for AGPRs.
        file: char,
        /// First register number, odd.
        first: u16,
        /// The target that requires the even alignment.
        target: Target,
    },
}

/// A word that does not decode; displays as `.long 0xLO, 0xHI ; reason`,
/// which re-assembles to the same bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// The 64-bit little-endian word.
    pub word: u64,
    /// The reason.
    pub kind: DecodeErrorKind,
}

fn bits(word: u64, hi: u32, lo: u32) -> u64 {
    (word >> lo) & ((1u64 << (hi - lo + 1)) - 1)
}

/// Decode one 64-bit DS word (bytes in little-endian order) for `target`.
#[inline]
pub fn decode(target: Target, word: u64) -> Result<DsInst, DecodeError> {
    decode_inner(target, word).map_err(|kind| DecodeError { word, kind })
}

/// Decode 8 little-endian bytes; shorter input is zero-padded, longer input is truncated to 8 bytes.
#[inline]
pub fn decode_bytes(target: Target, bytes: &[u8]) -> Result<DsInst, DecodeError> {
    let mut b = [0u8; 8];
    let n = bytes.len().min(8);
    b[..n].copy_from_slice(&bytes[..n]);
    decode(target, u64::from_le_bytes(b))
}

#[inline]
fn decode_inner(target: Target, w: u64) -> Result<DsInst, DecodeErrorKind> {
    let enc = bits(w, 31, 26) as u8;
    if enc != 0x36 {
        return Err(DecodeErrorKind::NotDs(enc));
    }
    let layout = target.ds_layout();
    let (opcode, gds_bit, acc) = match layout {
        DsLayout::Vi => (
            bits(w, 24, 17) as u8,
            bits(w, 16, 16) != 0,
            bits(w, 25, 25) != 0,
        ),
        DsLayout::Si | DsLayout::Vds => (bits(w, 25, 18) as u8, bits(w, 17, 17) != 0, false),
    };
    let (mnemonic, shape) = table::ds_by_opcode(target, opcode)
        .ok_or(DecodeErrorKind::UnknownOpcode { opcode, target })?;

    let gds = match (shape.gds, gds_bit) {
        (_, true) if layout == DsLayout::Vds => {
            return Err(DecodeErrorKind::GdsBitOnVds { mnemonic, target })
        }
        (GdsRule::Required, false) => return Err(DecodeErrorKind::GdsMissing { mnemonic }),
        (GdsRule::Never, true) => {
            // LLVM's gfx90a decoder keeps decoding ordinary LDS ops and drops the bit.
            let base = table::base_shape(mnemonic).map(|s| s.gds);
            if target.gen() == Gen::Gfx90a && base == Some(GdsRule::Optional) {
                false
            } else {
                return Err(DecodeErrorKind::GdsNotAllowed { mnemonic, target });
            }
        }
        (_, b) => b,
    };

    let has_data_or_dst = shape.vdst > 0 || shape.data0 > 0 || shape.data1 > 0;
    if acc && !target.has_agpr_ds() {
        return Err(DecodeErrorKind::AccNotAllowed {
            mnemonic,
            why: "this target has no AGPR DS operands",
        });
    }
    if acc && !has_data_or_dst {
        return Err(DecodeErrorKind::AccNotAllowed {
            mnemonic,
            why: "the op has no data or vdst",
        });
    }
    let data_file = if acc { RegFile::A } else { RegFile::V };

    let unused = |field: &'static str, value: u64| -> Result<(), DecodeErrorKind> {
        if value != 0 {
            Err(DecodeErrorKind::UnusedFieldSet {
                mnemonic,
                field,
                value,
            })
        } else {
            Ok(())
        }
    };
    if shape.offset == OffsetKind::None {
        unused("offset (bits 15:0)", bits(w, 15, 0))?;
    }

    let addr_byte = bits(w, 39, 32) as u16;
    let data0_byte = bits(w, 47, 40) as u16;
    let data1_byte = bits(w, 55, 48) as u16;
    let vdst_byte = bits(w, 63, 56) as u16;

    let tuple = |field: &'static str, file: RegFile, first: u16, count: u8| {
        let t = RegTuple { file, first, count };
        match t.fault(table::must_be_even(target, mnemonic, count)) {
            None => Ok(t),
            Some(TupleFault::PastV255) => Err(DecodeErrorKind::TupleOutOfRange(
                t.past_end(mnemonic, field),
            )),
            Some(TupleFault::Odd) => Err(DecodeErrorKind::MisalignedTuple {
                mnemonic,
                field,
                file: t.letter(),
                first,
                target,
            }),
        }
    };

    let gws = data0_in_addr_field(mnemonic);
    let (data0_src, addr_src) = if gws {
        (addr_byte, None)
    } else {
        (data0_byte, Some(addr_byte))
    };

    let vdst = if shape.vdst > 0 {
        Some(tuple("vdst", data_file, vdst_byte, shape.vdst)?)
    } else {
        unused("vdst (bits 63:56)", vdst_byte.into())?;
        None
    };
    let addr = if shape.addr {
        Some(tuple("addr", RegFile::V, addr_byte, 1)?)
    } else {
        if let Some(a) = addr_src {
            unused("addr (bits 39:32)", a.into())?;
        }
        None
    };
    let data0 = if shape.data0 > 0 {
        Some(tuple("data0", data_file, data0_src, shape.data0)?)
    } else {
        if gws {
            unused("addr (bits 39:32)", addr_byte.into())?;
        }
        None
    };
    if gws || shape.data0 == 0 {
        unused("data0 (bits 47:40)", data0_byte.into())?;
    }
    let data1 = if shape.data1 > 0 {
        Some(tuple("data1", data_file, data1_byte, shape.data1)?)
    } else {
        unused("data1 (bits 55:48)", data1_byte.into())?;
        None
    };

    Ok(DsInst {
        target,
        opcode,
        mnemonic,
        shape,
        vdst,
        addr,
        data0,
        data1,
        offset0: bits(w, 7, 0) as u8,
        offset1: bits(w, 15, 8) as u8,
        gds,
    })
}
