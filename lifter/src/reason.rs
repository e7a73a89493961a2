//! The text of rejected words: `.long 0x..., 0x... ; reason` for DS, MUBUF/VBUFFER and
//! other encodings, written by [`WriteText`] without `core::fmt` (for random input these are
//! nine words in ten of what the decoder prints). The wording is the messages' contract
//! (`lifter/tests/errors.rs`); `Display` and `std::error::Error` follow from it.

use crate::any::InstDecodeError;
use crate::decode::{DecodeError, DecodeErrorKind};
use crate::hex::{push_byte, push_dec, push_dwords, push_hex, push_hex32};
use crate::inst::BadTuple;
use crate::mubuf::{MubufDecodeError, MubufDecodeErrorKind};
use crate::text::{display_via_text, push_all, WriteText};

/// `v[FIRST:LAST]` (or `a[...]`, `s[...]` by `file`).
fn push_tuple(out: &mut String, file: char, first: u16, last: u16) {
    out.push(file);
    out.push('[');
    push_dec(out, first.into());
    out.push(':');
    push_dec(out, last.into());
    out.push(']');
}

/// `MNEMONIC: WHAT N AFTER TARGET`: the shape of the messages about one numbered field.
fn push_numbered(out: &mut String, mnemonic: &str, what: &str, n: u64, after: &str, target: &str) {
    push_all(out, &[mnemonic, ": ", what]);
    push_dec(out, n);
    push_all(out, &[after, target]);
}

/// `FAMILY opcode 0xNN is not defined on TARGET`.
fn push_unknown_opcode(out: &mut String, family: &str, opcode: u8, target: &str) {
    push_all(out, &[family, " opcode "]);
    push_byte(out, opcode);
    push_all(out, &[" is not defined on ", target]);
}

/// `MNEMONIC: FIELD tuple v[N:M] runs past register 255`.
fn push_past_end(out: &mut String, t: &BadTuple) {
    push_all(out, &[t.mnemonic, ": ", t.field, " tuple "]);
    push_tuple(out, t.file, t.first, t.last);
    out.push_str(" runs past register 255");
}

/// `MNEMONIC: FIELD register vN` (DS) or `... tuple v[N:M]` (MUBUF), then ` is not
/// even-aligned, as TARGET requires`.
fn push_odd(out: &mut String, t: &BadTuple) {
    push_all(out, &[t.mnemonic, ": ", t.field]);
    if t.whole {
        out.push_str(" tuple ");
        push_tuple(out, t.file, t.first, t.last);
    } else {
        out.push_str(" register ");
        out.push(t.file);
        push_dec(out, t.first.into());
    }
    push_all(
        out,
        &[" is not even-aligned, as ", t.target.name(), " requires"],
    );
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
                push_unknown_opcode(out, "DS", *opcode, target.name())
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
            K::TupleOutOfRange(t) => push_past_end(out, t),
            K::MisalignedTuple(t) => push_odd(out, t),
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
                push_unknown_opcode(out, "MUBUF", *opcode, target.name())
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
                let (what, after) = (
                    "SRSRC field names SGPR ",
                    ", which is no resource tuple on ",
                );
                push_numbered(out, mnemonic, what, (*sgpr).into(), after, target.name())
            }
            K::BadSoffset {
                mnemonic,
                value,
                target,
            } => {
                let (what, after) = ("SOFFSET value ", " is not a valid scalar operand on ");
                push_numbered(out, mnemonic, what, (*value).into(), after, target.name())
            }
            K::TupleOutOfRange(t) => push_past_end(out, t),
            K::MisalignedTuple(t) => push_odd(out, t),
            K::FlagBit {
                mnemonic,
                bit,
                target,
            } => push_numbered(
                out,
                mnemonic,
                "bit ",
                (*bit).into(),
                " must be clear on ",
                target.name(),
            ),
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
    DecodeErrorKind,
    DecodeError,
    MubufDecodeErrorKind,
    MubufDecodeError,
    InstDecodeError,
);

impl std::error::Error for DecodeErrorKind {}
impl std::error::Error for DecodeError {}
impl std::error::Error for MubufDecodeErrorKind {}
impl std::error::Error for MubufDecodeError {}
impl std::error::Error for InstDecodeError {}
