//! Canonical LLVM 22 assembly for a [`DsInst`], exactly as `llvm-mc` prints it:
//! `mnemonic op, op, ... [offset:N | offset0:N offset1:N] [gds]`, with zero
//! offsets omitted and `ds_swizzle_b32` offsets as `swizzle(...)`
//! (LLVM `AMDGPUInstPrinter`: `printOffset`, `printOffset0/1`, `printSwizzle`).

use std::fmt;

use gcnsmt_semantics::target::Gen;

use crate::inst::{DsInst, RegFile, RegTuple};
use crate::table::OffsetKind;

impl fmt::Display for RegTuple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = match self.file {
            RegFile::V => 'v',
            RegFile::A => 'a',
        };
        if self.count == 1 {
            write!(f, "{p}{}", self.first)
        } else {
            write!(f, "{p}[{}:{}]", self.first, self.last())
        }
    }
}

impl fmt::Display for DsInst {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.mnemonic)?;
        for (i, r) in self.operands().enumerate() {
            write!(f, "{}{r}", if i == 0 { " " } else { ", " })?;
        }
        match self.shape.offset {
            OffsetKind::None => {}
            OffsetKind::Single => {
                let off = self.offset16();
                if off != 0 {
                    if self.mnemonic == "ds_swizzle_b32" {
                        let gfx9_plus = self.target.gen() >= Gen::Gfx9;
                        write!(f, " offset:{}", crate::swizzle::format(off, gfx9_plus))?;
                    } else {
                        write!(f, " offset:{off}")?;
                    }
                }
            }
            OffsetKind::Pair => {
                if self.offset0 != 0 {
                    write!(f, " offset0:{}", self.offset0)?;
                }
                if self.offset1 != 0 {
                    write!(f, " offset1:{}", self.offset1)?;
                }
            }
        }
        if self.gds {
            f.write_str(" gds")?;
        }
        Ok(())
    }
}
