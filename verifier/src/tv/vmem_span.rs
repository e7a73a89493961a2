//! The bytes a DS, MUBUF, GLOBAL or FLAT access reads or writes, from its operands: the
//! address registers it is based on and the byte ranges from there. A memory operand names an
//! IR value, which says nothing of the address the instruction reads (breaker 16's 02), so a
//! claim (`invariant`, `dereferenceable`, `!noalias` ...) on an after-access is backed only by
//! before-accesses of the same base registers whose ranges cover its bytes (`memop.rs`).
//!
//! Offsets are relative to the base: two accesses with the same base registers and the same
//! offset read the same bytes, whatever those registers hold. That is all the tie needs, and it
//! holds for swizzled buffers too (each dword's address is a function of the base and its
//! offset). si-load-store-opt's merges keep their base (a `DS_READ2_B32` of the two offsets of
//! two `DS_READ_B32`s; a `BUFFER_LOAD_DWORDX2` at the lower offset); a merge that makes a new
//! base register (a `V_ADD` of the old one) is not tied here and falls to the operand pairing
//! of `memop::claim_pairs`, else `unsupported`.

use super::mir::{Inst, OpKind};
use super::opcodes::{lookup, AddrKind, MirOp};
use gcnsmt_lifter::mubuf_table::MubufClass;
use gcnsmt_lifter::table::OffsetKind;
use gcnsmt_lifter::GlobalKind;
use gcnsmt_semantics::target::Target;

/// The base of an access: its family and the operands its address is computed from apart
/// from the immediate offset.
pub(super) type Base = (&'static str, Vec<OpKind>);

/// The base and the byte ranges `[lo, hi)` from it that `i` accesses; `None` for an access
/// whose bytes are not a plain function of base and offset here (atomics, format and typed
/// buffer ops, LDS-DMA, `addtid`, scratch, scalar loads: `ssa_load::smem_bytes` has those).
pub(super) fn vmem_bytes(i: &Inst, t: Target) -> Option<(Base, Vec<(i64, i64)>)> {
    let uses: Vec<&OpKind> = i
        .ops
        .iter()
        .filter(|o| !o.flags.implicit && !o.flags.implicit_def && !o.flags.def)
        .map(|o| &o.kind)
        .collect();
    let imm = |k: usize| match uses.get(k) {
        Some(OpKind::Imm(v)) => Some(*v),
        _ => None,
    };
    let reg = |k: usize| {
        let o = uses.get(k)?;
        matches!(o, OpKind::VReg { .. } | OpKind::Phys(_)).then(|| (*o).clone())
    };
    match lookup(t, &i.opcode)? {
        MirOp::Ds { mnemonic, shape } => {
            let plain = ["ds_read", "ds_write", "ds_load", "ds_store"];
            if !plain.iter().any(|p| mnemonic.starts_with(p)) || mnemonic.contains("addtid") {
                return None;
            }
            if !shape.addr {
                return None;
            }
            let size = elem_bytes(mnemonic)?;
            let nreg = 1 + usize::from(shape.data0 > 0) + usize::from(shape.data1 > 0);
            let (spans, gds_at) = match shape.offset {
                OffsetKind::Single => (vec![(imm(nreg)?, imm(nreg)? + size)], nreg + 1),
                OffsetKind::Pair => {
                    let st64 = mnemonic.contains("st64") || mnemonic.contains("stride64");
                    let stride = if st64 { size * 64 } else { size };
                    let (a, b) = (imm(nreg)? * stride, imm(nreg + 1)? * stride);
                    (vec![(a, a + size), (b, b + size)], nreg + 2)
                }
                OffsetKind::None => return None,
            };
            Some((("DS", vec![reg(0)?, OpKind::Imm(imm(gds_at)?)]), spans))
        }
        MirOp::Mubuf {
            mnemonic,
            shape,
            addr,
            lds,
            ..
        } => {
            let loads = shape.class == MubufClass::Load;
            if lds || shape.typed || !(loads || shape.class == MubufClass::Store) {
                return None;
            }
            if mnemonic.contains("format") || addr == AddrKind::Addr64 {
                return None;
            }
            let size = elem_bytes(mnemonic)?;
            let mut k = usize::from(!loads);
            let mut base = Vec::new();
            if addr != AddrKind::Offset {
                base.push(reg(k)?);
                k += 1;
            }
            base.push(reg(k)?);
            base.push(uses.get(k + 1).map(|o| (*o).clone())?);
            // Not `swz`: the V#'s SWIZZLE_EN decides how offsets map to bytes, and the V# is
            // part of the base (`emit_mubuf::swz`: the operand encodes nothing).
            base.push(OpKind::Imm(addr as i64));
            let off = imm(k + 2)?;
            Some((("MUBUF", base), vec![(off, off + size)]))
        }
        MirOp::Global { op, saddr, .. } => {
            let bytes = i64::from(op.bytes);
            let (base, off) = match (op.kind, saddr) {
                (GlobalKind::Load, false) => (vec![reg(0)?], imm(1)?),
                (GlobalKind::Load, true) => (vec![reg(0)?, reg(1)?], imm(2)?),
                (GlobalKind::Store, false) => (vec![reg(0)?], imm(2)?),
                (GlobalKind::Store, true) => (vec![reg(2)?, reg(0)?], imm(3)?),
                (GlobalKind::ScalarLoad, _) => return None,
            };
            Some((("GLOBAL", base), vec![(off, off + bytes)]))
        }
        MirOp::Flat { op, .. } => {
            let bytes = i64::from(op.bytes);
            let off = match op.kind {
                GlobalKind::Load => imm(1)?,
                GlobalKind::Store => imm(2)?,
                GlobalKind::ScalarLoad => return None,
            };
            Some((("FLAT", vec![reg(0)?]), vec![(off, off + bytes)]))
        }
        _ => None,
    }
}

/// The bytes of one element of a plain DS or MUBUF load/store, from its mnemonic in either
/// spelling (`ds_read_u8`, `ds_load_b128`, `buffer_load_dwordx2`, `buffer_store_short_d16_hi`).
fn elem_bytes(mnemonic: &str) -> Option<i64> {
    let words: Vec<&str> = mnemonic.split('_').collect();
    words.iter().find_map(|w| match *w {
        "b8" | "u8" | "i8" | "byte" | "ubyte" | "sbyte" => Some(1),
        "b16" | "u16" | "i16" | "short" | "ushort" | "sshort" => Some(2),
        "b32" | "dword" => Some(4),
        "b64" | "dwordx2" => Some(8),
        "b96" | "dwordx3" => Some(12),
        "b128" | "dwordx4" => Some(16),
        _ => None,
    })
}

/// Whether the union of `spans` covers `[lo, hi)`.
pub(super) fn covers(spans: &[(i64, i64)], (lo, hi): (i64, i64)) -> bool {
    let mut have = spans.to_vec();
    have.sort_unstable();
    let mut next = lo;
    for (a, b) in have {
        if a > next {
            break;
        }
        next = next.max(b);
    }
    next >= hi
}
