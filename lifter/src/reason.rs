//! The text of rejected words: `.long 0x..., 0x... ; reason` for DS, MUBUF/VBUFFER and
//! other encodings, written by [`WriteText`] without `core::fmt` (for random input these are
//! nine words in ten of what the decoder prints). The wording is the messages' contract
//! (`lifter/tests/errors.rs`); `Display` and `std::error::Error` follow from it.

use crate::any::InstDecodeError;
use crate::decode::{DecodeError, DecodeErrorKind};
use crate::hex::{push_byte, push_dec, push_dwords, push_hex, push_hex32};
use crate::inst::TuplePastEnd;
use crate::mubuf::{MubufDecodeError, MubufDecodeErrorKind};
use crate::text::{display_via_text, push_all, WriteText};

fn push_char(out: &mut String, c: char) {
    out.push(c);
}

impl WriteText for TuplePastEnd {
    fn write_text(&self, out: &mut String) {
        push_all(out, &[self.mnemonic, ": ", self.field, " tuple "]);
        push_char(out, self.file);
        out.push('[');
        push_dec(out, self.first.into());
        out.push(':');
        push_dec(out, self.last.into());
        out.push_str("] runs past register 255");
    }
}

impl WriteText for DecodeErrorKind {
    fn write_text(&self, out: &mut String) {
        use DecodeErrorKind as K;
        match self {
            K::NotDs(enc) => {
                out.push_str("not a DS instruction (bits 31:26 = ");
                push_hex(out, u64::from(*enc));
                out.push_str(", want 0x36)");
            }
            K::UnknownOpcode { opcode, target } => {
                out.push_str("DS opcode ");
                push_byte(out, *opcode);
                push_all(out, &[" is not defined on ", target.name()]);
            }
            K::GdsBitOnVds { mnemonic, target } => push_all(
                out,
                &[mnemonic, ": bit 17 (GDS) is invalid on ", target.name()],
            ),
            K::GdsNotAllowed { mnemonic, target } => {
                push_all(out, &[mnemonic, " has no GDS form on ", target.name()])
            }
            K::GdsMissing { mnemonic } => push_all(out, &[mnemonic, " requires the GDS bit"]),
            K::AccNotAllowed { mnemonic, why } => {
                push_all(out, &[mnemonic, ": ACC bit 25 set but ", why])
            }
            K::UnusedFieldSet {
                mnemonic,
                field,
                value,
            } => {
                push_all(out, &[mnemonic, " does not use ", field, ", but it is "]);
                push_hex(out, *value);
            }
            K::TupleOutOfRange(t) => t.write_text(out),
            K::MisalignedTuple {
                mnemonic,
                field,
                file,
                first,
                target,
            } => {
                push_all(out, &[mnemonic, ": ", field, " register "]);
                push_char(out, *file);
                push_dec(out, (*first).into());
                push_all(
                    out,
                    &[" is not even-aligned, as ", target.name(), " requires"],
                );
            }
        }
    }
}

impl WriteText for DecodeError {
    fn write_text(&self, out: &mut String) {
        out.push_str(".long ");
        push_dwords(out, &[self.word as u32, (self.word >> 32) as u32]);
        out.push_str(" ; ");
        self.kind.write_text(out);
    }
}

impl WriteText for MubufDecodeErrorKind {
    fn write_text(&self, out: &mut String) {
        use MubufDecodeErrorKind as K;
        match self {
            K::NotMubuf { got, want } => {
                push_all(out, &["not a ", want, " instruction (bits 31:26 = "]);
                push_hex(out, u64::from(*got));
                out.push(')');
            }
            K::UnknownOpcode { opcode, target } => {
                out.push_str("MUBUF opcode ");
                push_byte(out, *opcode);
                push_all(out, &[" is not defined on ", target.name()]);
            }
            K::FlagNotAllowed {
                mnemonic,
                what,
                target,
            } => push_all(
                out,
                &[mnemonic, ": ", what, " is invalid on ", target.name()],
            ),
            K::BadSrsrc {
                mnemonic,
                sgpr,
                target,
            } => {
                push_all(out, &[mnemonic, ": SRSRC field names SGPR "]);
                push_dec(out, (*sgpr).into());
                push_all(out, &[", which is no resource tuple on ", target.name()]);
            }
            K::BadSoffset {
                mnemonic,
                value,
                target,
            } => {
                push_all(out, &[mnemonic, ": SOFFSET value "]);
                push_dec(out, (*value).into());
                push_all(out, &[" is not a valid scalar operand on ", target.name()]);
            }
            K::TupleOutOfRange(t) => t.write_text(out),
            K::MisalignedTuple {
                mnemonic,
                field,
                file,
                first,
                last,
                target,
            } => {
                push_all(out, &[mnemonic, ": ", field, " tuple "]);
                push_char(out, *file);
                out.push('[');
                push_dec(out, (*first).into());
                out.push(':');
                push_dec(out, (*last).into());
                push_all(
                    out,
                    &["] is not even-aligned, as ", target.name(), " requires"],
                );
            }
            K::FlagBit {
                mnemonic,
                bit,
                target,
            } => {
                push_all(out, &[mnemonic, ": bit "]);
                push_dec(out, (*bit).into());
                push_all(out, &[" must be clear on ", target.name()]);
            }
            K::OffsetSign { mnemonic } => push_all(
                out,
                &[
                    mnemonic,
                    ": offset bit 95 is set (VBUFFER offsets are 23-bit)",
                ],
            ),
        }
    }
}

impl WriteText for MubufDecodeError {
    fn write_text(&self, out: &mut String) {
        out.push_str(".long ");
        push_dwords(out, self.words());
        out.push_str(" ; ");
        self.kind.write_text(out);
    }
}

impl WriteText for InstDecodeError {
    fn write_text(&self, out: &mut String) {
        match self {
            InstDecodeError::Ds(e) => e.write_text(out),
            InstDecodeError::Mubuf(e) => e.write_text(out),
            InstDecodeError::Unsupported { word, enc, buf } => {
                out.push_str(".long ");
                push_hex32(out, *word);
                push_all(
                    out,
                    &[" ; not a DS or ", buf, " instruction (bits 31:26 = "],
                );
                push_hex(out, u64::from(*enc));
                out.push(')');
            }
        }
    }
}

display_via_text!(
    TuplePastEnd,
    DecodeErrorKind,
    DecodeError,
    MubufDecodeErrorKind,
    MubufDecodeError,
    InstDecodeError,
);

impl std::error::Error for TuplePastEnd {}
impl std::error::Error for DecodeErrorKind {}
impl std::error::Error for DecodeError {}
impl std::error::Error for MubufDecodeErrorKind {}
impl std::error::Error for MubufDecodeError {}
impl std::error::Error for InstDecodeError {}
