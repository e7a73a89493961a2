//! Canonical LLVM 22 assembly for a [`DsInst`], exactly as `llvm-mc` prints it:
//! `mnemonic op, op, ... [offset:N | offset0:N offset1:N] [gds]`, with zero
//! offsets omitted and `ds_swizzle_b32` offsets as `swizzle(...)`
//! (LLVM `AMDGPUInstPrinter`: `printOffset`, `printOffset0/1`, `printSwizzle`).
//! Written by [`WriteText`] (no `core::fmt` per word); `Display` is the same text.

use gcnsmt_semantics::target::Gen;

use crate::hex::push_dec;
use crate::inst::{DsInst, RegFile, RegTuple};
use crate::table::OffsetKind;
use crate::text::{display_via_text, WriteText};

impl WriteText for RegTuple {
    fn write_text(&self, out: &mut String) {
        out.push(match self.file {
            RegFile::V => 'v',
            RegFile::A => 'a',
        });
        if self.count == 1 {
            push_dec(out, self.first.into());
        } else {
            out.push('[');
            push_dec(out, self.first.into());
            out.push(':');
            push_dec(out, self.last().into());
            out.push(']');
        }
    }
}

impl WriteText for DsInst {
    fn write_text(&self, out: &mut String) {
        out.push_str(self.mnemonic);
        for (i, r) in self.operands().enumerate() {
            out.push_str(if i == 0 { " " } else { ", " });
            r.write_text(out);
        }
        match self.shape.offset {
            OffsetKind::None => {}
            OffsetKind::Single => {
                let off = self.offset16();
                if off != 0 {
                    out.push_str(" offset:");
                    if self.mnemonic == "ds_swizzle_b32" {
                        let gfx9_plus = self.target.gen() >= Gen::Gfx9;
                        out.push_str(&crate::swizzle::format(off, gfx9_plus));
                    } else {
                        push_dec(out, off.into());
                    }
                }
            }
            OffsetKind::Pair => {
                if self.offset0 != 0 {
                    out.push_str(" offset0:");
                    push_dec(out, self.offset0.into());
                }
                if self.offset1 != 0 {
                    out.push_str(" offset1:");
                    push_dec(out, self.offset1.into());
                }
            }
        }
        if self.gds {
            out.push_str(" gds");
        }
    }
}

display_via_text!(RegTuple, DsInst);
