//! The decoded form of one DS instruction.

use gcnsmt_semantics::target::Target;

use crate::table::DsShape;

/// Register file of a tuple.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegFile {
    /// Vector general-purpose registers `v0..v255`.
    V,
    /// Accumulation registers `a0..a255`; DS data/vdst only on gfx90a/gfx942/gfx950
    /// (word bit 25 = ACC, LLVM `DS_Real_vi`).
    A,
}

/// A run of `count` consecutive 32-bit registers starting at `first`
/// (`v2` is `{V, 2, 1}`, `v[2:3]` is `{V, 2, 2}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RegTuple {
    /// Register file.
    pub file: RegFile,
    /// First register number (0..=255).
    pub first: u16,
    /// Number of dwords (1..=8).
    pub count: u8,
}

impl RegTuple {
    /// A VGPR tuple.
    pub fn v(first: u16, count: u8) -> RegTuple {
        RegTuple {
            file: RegFile::V,
            first,
            count,
        }
    }

    /// Last register number of the tuple.
    pub fn last(&self) -> u16 {
        // `first + count` alone overflows for v65535 (found by tests/tests/fuzz_lifter.rs).
        self.first
            .saturating_add(u16::from(self.count).saturating_sub(1))
    }
}

/// A decoded register tuple that runs past register 255: the same fault for the DS and the
/// MUBUF decoders ([`crate::DecodeErrorKind::TupleOutOfRange`],
/// [`crate::MubufDecodeErrorKind::TupleOutOfRange`]).
/// Its text: [`crate::text::WriteText`] (`lifter/src/reason.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TuplePastEnd {
    /// The op's LLVM mnemonic.
    pub mnemonic: &'static str,
    /// The operand: `"vdst"`, `"data0"`, `"data1"`, `"addr"` (DS), `"vdata"`, `"vaddr"` (MUBUF).
    pub field: &'static str,
    /// `'v'` for VGPRs, `'a'` for AGPRs.
    pub file: char,
    /// First register number (the field's 8-bit value).
    pub first: u16,
    /// Last register number of the tuple, above 255.
    pub last: u16,
}

/// Why a decoded tuple is no operand llvm-mc-22's assembler accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TupleFault {
    /// The tuple runs past register 255.
    PastV255,
    /// The tuple starts at an odd register where the target needs even alignment.
    Odd,
}

impl RegTuple {
    /// The file's letter in LLVM syntax: `'v'` or `'a'`.
    pub(crate) fn letter(&self) -> char {
        match self.file {
            RegFile::V => 'v',
            RegFile::A => 'a',
        }
    }

    /// The [`TuplePastEnd`] fault of this tuple as operand `field` of `mnemonic`.
    pub(crate) fn past_end(&self, mnemonic: &'static str, field: &'static str) -> TuplePastEnd {
        TuplePastEnd {
            mnemonic,
            field,
            file: self.letter(),
            first: self.first,
            last: self.last(),
        }
    }

    /// What is wrong with the tuple as a decoded operand, if anything; `even`: the target and
    /// operand need an even first register.
    pub(crate) fn fault(&self, even: bool) -> Option<TupleFault> {
        if self.last() > 255 {
            Some(TupleFault::PastV255)
        } else if even && self.first % 2 == 1 {
            Some(TupleFault::Odd)
        } else {
            None
        }
    }
}

/// One DS instruction for a given target: opcode, operands and modifiers.
/// Operand fields are `Some` exactly when the shape has them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DsInst {
    /// Target the instruction is encoded for.
    pub target: Target,
    /// The 8-bit OP field.
    pub opcode: u8,
    /// LLVM 22 mnemonic on this target.
    pub mnemonic: &'static str,
    /// Operand shape (see [`DsShape`]).
    pub shape: DsShape,
    /// Destination tuple (word bits 63:56).
    pub vdst: Option<RegTuple>,
    /// Address VGPR (word bits 39:32); byte address of the first access before `offset`.
    pub addr: Option<RegTuple>,
    /// First data tuple (word bits 47:40; ADDR byte for `ds_gws_*`).
    pub data0: Option<RegTuple>,
    /// Second data tuple (word bits 55:48).
    pub data1: Option<RegTuple>,
    /// Word bits 7:0: `offset0` for [`crate::OffsetKind::Pair`], low byte of the offset otherwise.
    pub offset0: u8,
    /// Word bits 15:8: `offset1` for [`crate::OffsetKind::Pair`], high byte of the offset otherwise.
    pub offset1: u8,
    /// GDS instead of LDS (word bit 17 on SI/gfx10/gfx11, 16 on VI/gfx9/CDNA).
    pub gds: bool,
}

impl DsInst {
    /// The 16-bit byte offset `(offset1 << 8) | offset0` of [`crate::OffsetKind::Single`] ops.
    pub fn offset16(&self) -> u16 {
        (u16::from(self.offset1) << 8) | u16::from(self.offset0)
    }

    /// Operands in assembly order (vdst, addr, data0, data1), skipping absent ones.
    pub fn operands(&self) -> impl Iterator<Item = RegTuple> + '_ {
        [self.vdst, self.addr, self.data0, self.data1]
            .into_iter()
            .flatten()
    }

    /// Whether vdst/data use AGPRs (the ACC bit).
    pub fn uses_agpr(&self) -> bool {
        [self.vdst, self.data0, self.data1]
            .iter()
            .flatten()
            .any(|r| r.file == RegFile::A)
    }
}
