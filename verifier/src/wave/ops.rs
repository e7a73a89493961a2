//! Which atomics exist on which target, and how LLVM's AMDGPUAtomicOptimizer rewrites each.
//!
//! The list is derived, not written out, from the lifter's opcode tables (from llvm-mc 22):
//! - DS: every returning DS mnemonic whose semantics entry is an atomic of
//!   `ds_atomic32.pcode`, `ds_atomic64.pcode` or `ds_float.pcode` ([`ds_atomics`]);
//! - buffer (MUBUF/VBUFFER): every `buffer_atomic_*` mnemonic whose returning form (`glc`,
//!   `sc0` on gfx942/gfx950, `th:TH_ATOMIC_RETURN` on gfx12+) exists, with its entry of
//!   `buffer_atomic.pcode` ([`buffer_atomics`]).
//!
//! The non-returning form of each has the same memory function, so its memory verdicts are
//! those of the returning form. Mnemonics keep LLVM's spelling per target (`buffer_atomic_smin`
//! up to gfx10, `buffer_atomic_min_i32` from gfx11), one row per spelling with its targets.

use super::lanes::{LaneFn, Space};
use gcnsmt_lifter::lift::ds_semantics;
use gcnsmt_lifter::mubuf_table::{mubuf_lookup, mubuf_mnemonics, MubufClass};
use gcnsmt_lifter::table::{ds_lookup, ds_mnemonics};
use gcnsmt_semantics::defs::Library;
use gcnsmt_semantics::ir::Def;
use gcnsmt_semantics::target::Target;
use gcnsmt_semantics::ty::FpFmt;

/// DS semantics files whose returning entries are single-address read-modify-write atomics.
pub const ATOMIC_FILES: &[&str] = &["ds_atomic32.pcode", "ds_atomic64.pcode", "ds_float.pcode"];

/// One returning atomic mnemonic and the targets that have it.
#[derive(Clone, Debug)]
pub struct AtomicOp {
    /// LLVM mnemonic (`ds_add_rtn_u32`, `buffer_atomic_add`).
    pub mnemonic: &'static str,
    /// Its semantics entry name (`DS_ADD_RTN_U32`, `BUFFER_ATOMIC_ADD`).
    pub entry: String,
    /// Its semantics entry.
    pub def: &'static Def,
    /// Memory value width in bits (32 or 64) = the returned tuple width.
    pub width: u32,
    /// DATA0 / DATA1 widths in bits (0 = no such operand). Buffer atomics have one VDATA
    /// tuple: DATA0 is all of it, or for compare-swap its low half (the new value) with DATA1
    /// the high half (the compare value).
    pub data0: u32,
    /// DATA1 width in bits (0 = none; for buffer compare-swap the compare value's width).
    pub data1: u32,
    /// Of the targets asked for, those whose DS or MUBUF table (the lifter's) has the mnemonic.
    pub targets: Vec<Target>,
    /// Where the lane step runs: LDS, or global memory through the V# layout of the first
    /// target (the access is in range on every layout, so the choice does not matter).
    pub space: Space,
    /// The floating-point format of the memory value, for IEEE comparisons (NaN = NaN).
    pub fp: Option<FpFmt>,
    /// How the AtomicOptimizer rewrites it; `None` when it leaves the op alone.
    pub opt: Option<OptSpec>,
}

/// The closed form of a uniform operand applied k times (LLVM `buildMul` and friends).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Power {
    /// `d * k` (add, sub: multiply by the popcount of EXEC).
    Mul,
    /// `d * (k & 1)` (xor).
    Parity,
    /// `k == 0 ? identity : d` (and, or, min, max: idempotent).
    Idempotent,
    /// `d * (float)k` (fadd): the floating-point multiply form.
    FMul,
}

/// AMDGPUAtomicOptimizer's treatment of one op (LLVM `AMDGPUAtomicOptimizer.cpp`:
/// `getIdentityValueForAtomicOp`, `buildNonAtomicBinOp`, `buildMul`).
#[derive(Clone, Debug)]
pub struct OptSpec {
    /// The entry whose memory update `m (+) d` is the reduction/scan operator: empty for the op
    /// itself, `DS_ADD_RTN_*` / `BUFFER_ATOMIC_ADD_*` for sub (sub is reduced and scanned with
    /// add, in the op's own family so the combine runs in the same [`Space`]), the IEEE
    /// minimumNumber/maximumNumber entries for float min/max (LLVM's VALU `minnum`/`maxnum`).
    pub combine: &'static str,
    /// The identity the optimizer puts in inactive lanes and the first scan slot (bit pattern).
    pub identity: u128,
    /// The closed form of the op applied with uniform data on k lanes (the `power` lemma).
    pub power: Power,
}

/// The optimizer's treatment of the op whose gfx11-style name is `base` (`add_u32`, `min_i64`),
/// for DS (`atomicrmw` on LDS: the integer ops and fadd/fmin/fmax) or buffer atomics (the
/// `llvm.amdgcn.{raw,struct}[.ptr].buffer.atomic.*` intrinsics, which
/// `AMDGPUAtomicOptimizerImpl::visitIntrinsicInst` handles for add, sub, and, or, xor and
/// signed/unsigned min/max only: no float op).
fn spec(base: &str, width: u32, space: Space) -> Option<OptSpec> {
    let buffer = matches!(space, Space::Buffer { .. });
    if buffer && fp_of(base).is_some() {
        return None;
    }
    let ones = if width == 64 {
        u64::MAX as u128
    } else {
        u32::MAX as u128
    };
    let sign = 1u128 << (width - 1);
    let (nan32, nan64) = (FpFmt::F32.canonical_nan(), FpFmt::F64.canonical_nan());
    let (combine, identity, power): (&'static str, u128, Power) = match (base, width) {
        ("add_u32", _) | ("add_u64", _) => ("", 0, Power::Mul),
        ("sub_u32", _) if buffer => ("BUFFER_ATOMIC_ADD_U32", 0, Power::Mul),
        ("sub_u64", _) if buffer => ("BUFFER_ATOMIC_ADD_U64", 0, Power::Mul),
        ("sub_u32", _) => ("DS_ADD_RTN_U32", 0, Power::Mul),
        ("sub_u64", _) => ("DS_ADD_RTN_U64", 0, Power::Mul),
        ("and_b32", _) | ("and_b64", _) => ("", ones, Power::Idempotent),
        ("or_b32", _) | ("or_b64", _) => ("", 0, Power::Idempotent),
        ("xor_b32", _) | ("xor_b64", _) => ("", 0, Power::Parity),
        ("min_u32", _) | ("min_u64", _) => ("", ones, Power::Idempotent),
        ("max_u32", _) | ("max_u64", _) => ("", 0, Power::Idempotent),
        ("min_i32", _) | ("min_i64", _) => ("", sign - 1, Power::Idempotent),
        ("max_i32", _) | ("max_i64", _) => ("", sign, Power::Idempotent),
        // fadd: -0.0 (x + -0.0 = x for every x, +0.0 is not an identity for -0.0).
        ("add_f32", 32) | ("add_f64", 64) => ("", sign, Power::FMul),
        // fmin/fmax: LLVM reduces with llvm.minnum/maxnum on the VALU (modelled by the
        // IEEE minimumNumber/maximumNumber entries) and uses a quiet NaN as the identity ("the
        // closest thing they have to an identity").
        ("min_f32", 32) | ("min_num_f32", 32) => ("DS_MIN_NUM_RTN_F32", nan32, Power::Idempotent),
        ("max_f32", 32) | ("max_num_f32", 32) => ("DS_MAX_NUM_RTN_F32", nan32, Power::Idempotent),
        ("min_f64", 64) | ("min_num_f64", 64) => ("DS_MIN_NUM_RTN_F64", nan64, Power::Idempotent),
        ("max_f64", 64) | ("max_num_f64", 64) => ("DS_MAX_NUM_RTN_F64", nan64, Power::Idempotent),
        _ => return None,
    };
    Some(OptSpec {
        combine,
        identity,
        power,
    })
}

/// `ds_add_rtn_u32` -> `add_u32`.
pub fn base_name(mnemonic: &str) -> String {
    mnemonic.trim_start_matches("ds_").replacen("_rtn", "", 1)
}

/// The gfx11-style name of a buffer atomic's operation, typed like the DS names:
/// `buffer_atomic_smin_x2` -> `min_i64`, `buffer_atomic_add` -> `add_u32`, `buffer_atomic_fmin`
/// -> `min_f32`; names that carry a type already (gfx11+, and `add_f32`, `pk_add_f16`, ...)
/// only lose the prefix. The renames are LLVM's gfx11 ones (`BUFInstructions.td`), which
/// `buffer_atomic.pcode` lists as names of one entry (`BUFFER_ATOMIC_SMIN,
/// BUFFER_ATOMIC_MIN_I32`).
pub fn buffer_base_name(mnemonic: &str) -> String {
    let op = mnemonic.trim_start_matches("buffer_atomic_");
    let (stem, w) = match op.strip_suffix("_x2") {
        Some(s) => (s, 64),
        None => (op, 32),
    };
    match stem {
        "add" | "sub" | "inc" | "dec" | "csub" => format!("{stem}_u{w}"),
        "and" | "or" | "xor" | "swap" | "cmpswap" => format!("{stem}_b{w}"),
        "smin" | "smax" => format!("{}_i{w}", &stem[1..]),
        "umin" | "umax" => format!("{}_u{w}", &stem[1..]),
        "fmin" | "fmax" => format!("{}_f{w}", &stem[1..]),
        "fcmpswap" => format!("cmpswap_f{w}"),
        _ => op.to_string(),
    }
}

/// The IEEE format of a memory value named `base` (`min_f32`), for NaN-aware comparisons;
/// packed halves (`pk_add_f16`) compare as bits.
fn fp_of(base: &str) -> Option<FpFmt> {
    if base.ends_with("_f32") && !base.starts_with("pk_") {
        Some(FpFmt::F32)
    } else if base.ends_with("_f64") {
        Some(FpFmt::F64)
    } else {
        None
    }
}

impl AtomicOp {
    /// One lane's step: the op's own entry in its space.
    pub fn lane(&self) -> LaneFn<'_> {
        LaneFn {
            entry: &self.entry,
            def: self.def,
            width: self.width,
            space: self.space,
        }
    }

    /// The optimizer's operator `x (+) y` as a lane step (`y` is DATA0): the combine entry of
    /// [`OptSpec`], or the op itself, in the op's space with one data operand.
    ///
    /// Errors: the op has no optimizer spec, or the combine entry is missing (internal).
    pub fn combine_lane(&self) -> Result<LaneFn<'_>, String> {
        let spec = self.opt.as_ref().ok_or("no optimizer spec")?;
        let entry: &str = if spec.combine.is_empty() {
            &self.entry
        } else {
            spec.combine
        };
        let def = Library::builtin()
            .get(entry)
            .ok_or_else(|| format!("no semantics entry {entry}"))?;
        let space = match self.space {
            Space::Buffer { target, .. } => Space::Buffer {
                target,
                pair: false,
            },
            s => s,
        };
        Ok(LaneFn {
            entry,
            def,
            width: self.width,
            space,
        })
    }
}

/// Every returning atomic of the given targets: the DS ones, then the buffer ones.
pub fn all_atomics(targets: &[Target]) -> Vec<AtomicOp> {
    let mut v = ds_atomics(targets);
    v.extend(buffer_atomics(targets));
    v
}

/// Every returning DS atomic of the given targets, in first-seen order (targets in the order
/// given, opcodes in opcode order).
pub fn ds_atomics(targets: &[Target]) -> Vec<AtomicOp> {
    let lib = Library::builtin();
    per_mnemonic(targets, ds_mnemonics, |t, m| {
        let (_, shape) = ds_lookup(t, m)?;
        if shape.vdst == 0 || !shape.addr {
            return None;
        }
        let (entry, def) = ds_semantics(m)?;
        if !lib
            .file_of(&entry)
            .is_some_and(|f| ATOMIC_FILES.contains(&f))
        {
            return None;
        }
        let width = 32 * shape.vdst as u32;
        let base = base_name(m);
        Some(AtomicOp {
            mnemonic: m,
            entry,
            def,
            width,
            data0: 32 * shape.data0 as u32,
            data1: 32 * shape.data1 as u32,
            targets: vec![t],
            space: Space::Lds,
            fp: fp_of(&base),
            opt: spec(&base, width, Space::Lds),
        })
    })
}

/// The atomics `make` finds among the `mnemonics` of each target (in the order given): one
/// per mnemonic in first-seen order, with every target it was found on.
fn per_mnemonic<I: Iterator<Item = &'static str>>(
    targets: &[Target],
    mnemonics: impl Fn(Target) -> I,
    mut make: impl FnMut(Target, &'static str) -> Option<AtomicOp>,
) -> Vec<AtomicOp> {
    let mut out: Vec<AtomicOp> = Vec::new();
    for &t in targets {
        for m in mnemonics(t) {
            let Some(op) = make(t, m) else {
                continue;
            };
            match out.iter_mut().find(|o| o.mnemonic == m) {
                Some(seen) => seen.targets.push(t),
                None => out.push(op),
            }
        }
    }
    out
}

/// The semantics file of buffer atomics.
pub const BUFFER_ATOMIC_FILE: &str = "buffer_atomic.pcode";

/// Every buffer atomic of the given targets whose returning form exists (MUBUF shape `rtn`:
/// gfx908's `buffer_atomic_add_f32` and `buffer_atomic_pk_add_f16` exist without return only
/// and are left out there), in first-seen order (targets in the order given, opcodes in opcode
/// order). The entry is the mnemonic in upper case, as `gcnsmt verify` binds it.
///
/// VDATA is `vdata` dwords: the returned value is all of it, or half for compare-swap (VDATA =
/// {compare value, new value}).
pub fn buffer_atomics(targets: &[Target]) -> Vec<AtomicOp> {
    let lib = Library::builtin();
    per_mnemonic(targets, mubuf_mnemonics, |t, m| {
        let (_, shape) = mubuf_lookup(t, m)?;
        if shape.class != MubufClass::Atomic || !shape.rtn {
            return None;
        }
        let entry = m.to_ascii_uppercase();
        if lib.file_of(&entry) != Some(BUFFER_ATOMIC_FILE) {
            return None;
        }
        let def = lib.get(&entry)?;
        let pair = m.contains("cmpswap");
        let vdata = 32 * shape.vdata as u32;
        let width = if pair { vdata / 2 } else { vdata };
        let base = buffer_base_name(m);
        let space = Space::Buffer { target: t, pair };
        Some(AtomicOp {
            mnemonic: m,
            entry,
            def,
            width,
            data0: width,
            data1: if pair { width } else { 0 },
            targets: vec![t],
            space,
            fp: fp_of(&base),
            opt: spec(&base, width, space),
        })
    })
}
