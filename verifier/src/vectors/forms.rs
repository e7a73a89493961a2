//! One assembly line per opcode of a target: the instruction a test vector runs, with fixed
//! registers and offsets, built from the lifter's opcode tables (one definition of each
//! opcode's operands) and printed by its printer.
//!
//! Registers: DS `vdst` from v10, `addr` v1, `data0` from v2, `data1` from v6 (even first
//! registers, as 64-bit tuples need on gfx90a); `offset:4`, or `offset0:1 offset1:2` for the
//! two-address forms (distinct, so an exchanged pair shows); the GS register ops also with
//! `offset:28`, `:32` and `:36` (their register is OFFSET0[5:2]). MUBUF/VBUFFER: `vdata` from v10,
//! V# in s[8:11], `soffset` s3, two forms: `v1 ... offen offset:20` and `v[2:3] ... idxen
//! offen offset:20`; atomics in their returning form.

use gcnsmt_lifter::{ds_lookup, ds_mnemonics, mubuf_lookup, mubuf_mnemonics, MubufClass};
use gcnsmt_lifter::{DsInst, OffsetKind, RegTuple};
use gcnsmt_semantics::target::Target;

/// An instruction family a form belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// DS (LDS/GDS).
    Ds,
    /// MUBUF, MTBUF or VBUFFER.
    Buffer,
}

impl Family {
    /// `ds` or `buffer`.
    pub fn name(self) -> &'static str {
        match self {
            Family::Ds => "ds",
            Family::Buffer => "buffer",
        }
    }
}

/// One opcode's instruction line(s).
#[derive(Clone, Debug)]
pub struct Form {
    /// The LLVM mnemonic on the target.
    pub mnemonic: &'static str,
    /// Its family.
    pub family: Family,
    /// The assembly lines vectors run (one for DS, four for the GS register ops, two addressing
    /// modes for buffers).
    pub lines: Vec<String>,
}

/// Every DS and MUBUF/MTBUF/VBUFFER opcode of `target`, in table order (DS first).
pub fn forms(target: Target) -> Vec<Form> {
    let mut out: Vec<Form> = ds_mnemonics(target)
        .filter_map(|m| {
            let mut lines = vec![ds_line(target, m, None)?];
            // The GS register ops pick their register by OFFSET0[5:2]: 7 (the last 32-bit
            // one), 8 and 9 (64-bit pairs) too, or `offset:4` alone never reaches the pairs.
            if m.contains("_gs_reg_") {
                lines.extend(
                    [28, 32, 36]
                        .iter()
                        .filter_map(|o| ds_line(target, m, Some(*o))),
                );
            }
            Some(Form {
                mnemonic: m,
                family: Family::Ds,
                lines,
            })
        })
        .collect();
    out.extend(mubuf_mnemonics(target).map(|m| Form {
        mnemonic: m,
        family: Family::Buffer,
        lines: buffer_lines(target, m),
    }));
    out
}

fn tuple(first: u16, n: u8) -> Option<RegTuple> {
    (n > 0).then(|| RegTuple::v(first, n))
}

/// The DS line of `mnemonic` (see the module comment), printed by the lifter; `offset`
/// replaces a single offset's 4.
fn ds_line(target: Target, mnemonic: &'static str, offset: Option<u8>) -> Option<String> {
    let (opcode, shape) = ds_lookup(target, mnemonic)?;
    let (offset0, offset1) = match shape.offset {
        OffsetKind::None => (0, 0),
        OffsetKind::Single => (offset.unwrap_or(4), 0),
        OffsetKind::Pair => (1, 2),
    };
    let inst = DsInst {
        target,
        opcode,
        mnemonic,
        shape,
        vdst: tuple(10, shape.vdst),
        addr: shape.addr.then(|| RegTuple::v(1, 1)),
        data0: tuple(2, shape.data0),
        data1: tuple(6, shape.data1),
        offset0,
        offset1,
        // GDS-only ops (GWS, the GS registers) exist only with `gds`.
        gds: shape.gds == gcnsmt_lifter::table::GdsRule::Required,
    };
    Some(inst.to_string())
}

fn regs(first: u16, n: u8) -> String {
    if n == 1 {
        format!("v{first}")
    } else {
        format!("v[{first}:{}]", first + u16::from(n) - 1)
    }
}

/// The buffer lines of `mnemonic`: offen and idxen+offen addressing, atomics returning (the
/// first of `glc`, `sc0`, `th:TH_ATOMIC_RETURN` the target's assembler takes). Cache-control
/// ops have no operands: their line is the mnemonic alone.
fn buffer_lines(target: Target, mnemonic: &'static str) -> Vec<String> {
    let Some((_, shape)) = mubuf_lookup(target, mnemonic) else {
        return Vec::new();
    };
    if shape.class == MubufClass::Cache {
        return vec![mnemonic.to_string()];
    }
    if shape.lds_only {
        let line = format!("{mnemonic} s[8:11], s3 offset:20 lds");
        return match gcnsmt_lifter::parse_any(target, &line) {
            Ok(inst) => vec![inst.to_string()],
            Err(_) => Vec::new(),
        };
    }
    let vdata = format!("{}, ", regs(10, shape.vdata));
    let rets: &[&str] = if shape.class == MubufClass::Atomic && shape.rtn {
        &[" glc", " sc0", " th:TH_ATOMIC_RETURN"]
    } else {
        &[""]
    };
    let mut out = Vec::new();
    for addr in [
        "v1, s[8:11], s3 offen offset:20",
        "v[2:3], s[8:11], s3 idxen offen offset:20",
    ] {
        for ret in rets {
            let line = format!("{mnemonic} {vdata}{addr}{ret}");
            if let Ok(inst) = gcnsmt_lifter::parse_any(target, &line) {
                out.push(inst.to_string());
                break;
            }
        }
    }
    out
}

/// The semantics entry name (upper case) an opcode runs: the DS lookup's (which maps gfx11
/// renames), or a buffer mnemonic in upper case. `None`: a DS opcode without semantics.
pub fn entry_of(family: Family, mnemonic: &str) -> Option<String> {
    match family {
        Family::Ds => gcnsmt_lifter::lift::ds_semantics(mnemonic).map(|x| x.0),
        Family::Buffer => Some(mnemonic.to_ascii_uppercase()),
    }
}
