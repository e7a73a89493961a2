//! Which DS atomics exist on which target, and how LLVM's AMDGPUAtomicOptimizer rewrites each.
//!
//! The list is derived, not written out: every returning DS mnemonic of a target (lifter opcode
//! tables, from llvm-mc 22) whose semantics entry is an atomic of `ds_atomic32.pcode`,
//! `ds_atomic64.pcode` or `ds_float.pcode`. The non-returning form of each has the same memory
//! function, so its verdicts are those of the RTN form. Buffer atomics join by adding their
//! semantics files to [`ATOMIC_FILES`] once MUBUF semantics land (see README).

use gcnsmt_lifter::lift::ds_semantics;
use gcnsmt_lifter::table::{ds_lookup, ds_mnemonics};
use gcnsmt_semantics::defs::Library;
use gcnsmt_semantics::ir::Def;
use gcnsmt_semantics::target::Target;
use gcnsmt_semantics::ty::FpFmt;

/// Semantics files whose returning entries are single-address read-modify-write atomics.
pub const ATOMIC_FILES: &[&str] = &["ds_atomic32.pcode", "ds_atomic64.pcode", "ds_float.pcode"];

/// One returning atomic mnemonic and the targets that have it.
#[derive(Clone, Debug)]
pub struct AtomicOp {
    /// LLVM mnemonic (`ds_add_rtn_u32`).
    pub mnemonic: &'static str,
    /// Its semantics entry name (`DS_ADD_RTN_U32`).
    pub entry: String,
    pub def: &'static Def,
    /// Memory value width in bits (32 or 64) = the destination tuple width.
    pub width: u32,
    /// DATA0 / DATA1 widths in bits (0 = no such operand).
    pub data0: u32,
    pub data1: u32,
    pub targets: Vec<Target>,
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
    /// itself, `DS_ADD_RTN_*` for sub (sub is reduced and scanned with add), the IEEE
    /// minimumNumber/maximumNumber entries for float min/max (LLVM's VALU `minnum`/`maxnum`).
    pub combine: &'static str,
    /// The identity the optimizer puts in inactive lanes and the first scan slot (bit pattern).
    pub identity: u128,
    pub power: Power,
}

fn spec(base: &str, width: u32) -> Option<OptSpec> {
    let ones = if width == 64 {
        u64::MAX as u128
    } else {
        u32::MAX as u128
    };
    let sign = 1u128 << (width - 1);
    let (combine, identity, power): (&'static str, u128, Power) = match (base, width) {
        ("add_u32", _) | ("add_u64", _) => ("", 0, Power::Mul),
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
        ("min_f32", 32) | ("min_num_f32", 32) => (
            "DS_MIN_NUM_RTN_F32",
            FpFmt::F32.canonical_nan(),
            Power::Idempotent,
        ),
        ("max_f32", 32) | ("max_num_f32", 32) => (
            "DS_MAX_NUM_RTN_F32",
            FpFmt::F32.canonical_nan(),
            Power::Idempotent,
        ),
        ("min_f64", 64) | ("min_num_f64", 64) => (
            "DS_MIN_NUM_RTN_F64",
            FpFmt::F64.canonical_nan(),
            Power::Idempotent,
        ),
        ("max_f64", 64) | ("max_num_f64", 64) => (
            "DS_MAX_NUM_RTN_F64",
            FpFmt::F64.canonical_nan(),
            Power::Idempotent,
        ),
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

/// Every returning DS atomic of the given targets, in first-seen order (targets in the order
/// given, opcodes in opcode order).
pub fn ds_atomics(targets: &[Target]) -> Vec<AtomicOp> {
    let lib = Library::builtin();
    let mut out: Vec<AtomicOp> = Vec::new();
    for &t in targets {
        for m in ds_mnemonics(t) {
            let Some((_, shape)) = ds_lookup(t, m) else {
                continue;
            };
            if shape.vdst == 0 || !shape.addr {
                continue;
            }
            let Some((entry, def)) = ds_semantics(m) else {
                continue;
            };
            if !lib
                .file_of(&entry)
                .is_some_and(|f| ATOMIC_FILES.contains(&f))
            {
                continue;
            }
            if let Some(op) = out.iter_mut().find(|o| o.mnemonic == m) {
                op.targets.push(t);
                continue;
            }
            let width = 32 * shape.vdst as u32;
            let base = base_name(m);
            let fp = if base.ends_with("_f32") && !base.starts_with("pk_") {
                Some(FpFmt::F32)
            } else if base.ends_with("_f64") {
                Some(FpFmt::F64)
            } else {
                None
            };
            out.push(AtomicOp {
                mnemonic: m,
                entry,
                def,
                width,
                data0: 32 * shape.data0 as u32,
                data1: 32 * shape.data1 as u32,
                targets: vec![t],
                fp,
                opt: spec(&base, width),
            });
        }
    }
    out
}
