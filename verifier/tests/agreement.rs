//! The z3 encoding agrees with the concrete interpreter: every semantics entry (each DS
//! mnemonic on a target that has it, and the VALU/SALU entries) is run on 1,000 random
//! inputs under `GCNSMT_SLOW=1` (120 in the default tier) through both domains, under random machine settings, and every output
//! (RETURN_DATA / D0 / SDST, each memory byte touched, the undefined-behaviour flag) must agree.
//! Buffer entries run the same way with random V#s (small NUM_RECORDS and strides, every
//! OOB_SELECT), random offen/idxen/addr64 and 64-bit global memory; FLAT entries with
//! addresses in, beside and outside the shared and private apertures.
//! The encoding is trusted because of this test.

use gcnsmt_lifter::table::{ds_lookup, DsScope, GdsRule, OffsetKind};
use gcnsmt_semantics::buffer::BufferMode;
use gcnsmt_semantics::defs::Library;
use gcnsmt_semantics::domain::Domain;
use gcnsmt_semantics::eval::{run, AddrSpace, Frame, MemState, MemView, PerSpace, Val};
use gcnsmt_semantics::interp::{Bits, CMem, Concrete};
use gcnsmt_semantics::ir::{Def, DefName};
use gcnsmt_semantics::settings::{
    Alignment, BufferOob, BufferSoffset, LdsLimit, SbufferSize, Settings,
};
use gcnsmt_semantics::target::Target;
use gcnsmt_semantics::ty::{Kind, Ty};
use gcnsmt_verifier::smt::Smt;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

/// Random inputs per semantics entry: 1,000 in the slow tier, 120 by default (a broken
/// encoding such as `GCNSMT_BREAK_ENCODING=ult-signed` fails within the first few).
fn runs() -> usize {
    gcnsmt_testkit::tiered(120, 1000)
}

/// Values that make comparisons, wraparound, NaNs and signed zeros likely.
fn interesting(rng: &mut StdRng, width: u32) -> u128 {
    let dwords = width.div_ceil(32);
    let mut v = 0u128;
    for i in 0..dwords {
        let d: u32 = match rng.gen_range(0..10) {
            0 => 0,
            1 => 0xffff_ffff,
            2 => 0x8000_0000,
            3 => 0x7fc0_0000, // f32 quiet NaN
            4 => 0x7f80_0001, // f32 signalling NaN
            5 => rng.gen_range(0..16),
            6 => 0x3f80_0000 ^ rng.gen_range(0..2) << 31, // +-1.0
            7 => 0x7e00_7e00 | rng.gen_range(0..2) << 15, // f16 NaNs
            // f32 denormals of either sign (the fp32_denorm setting), and the smallest normal.
            8 if rng.gen_bool(0.5) => rng.gen_range(1..0x0080_0001) | rng.gen_range(0..2) << 31,
            _ => rng.gen(),
        };
        v |= (d as u128) << (32 * i);
    }
    if width < 128 {
        v & ((1u128 << width) - 1)
    } else {
        v
    }
}

fn byte_at(seed: u64, a: u32) -> u8 {
    byte_at64(seed, a as u64)
}

fn byte_at64(seed: u64, a: u64) -> u8 {
    // A few byte values repeat so that memory often equals DATA (cmpst, min/max ties).
    let h = (a ^ seed).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 56;
    [0x00, 0xff, 0x80, 0x7f, 0x7c, 0x01, 0x3f, h as u8][(h % 8) as usize]
}

/// Outputs, the bytes of each address space, undefined-behaviour flag.
type Observed = (BTreeMap<String, u128>, PerSpace<BTreeMap<u64, u8>>, bool);

struct Input {
    vars: Vec<(String, u128, u32, Kind)>,
    settings: Settings,
    /// The memory MEM names (LDS, GDS, the 64-bit global memory of `global.pcode`, or the
    /// FLAT view).
    mem: MemView,
    buffer: Option<BufferMode>,
    seed: u64,
}

/// The seed of a space's initial bytes: a different pattern per space, so an access that
/// reaches the wrong space reads other bytes.
fn space_seed(seed: u64, s: AddrSpace) -> u64 {
    match s {
        AddrSpace::Lds => seed,
        AddrSpace::Gds => !seed,
        AddrSpace::Global => seed ^ 0x55,
        AddrSpace::Scratch => seed ^ 0xaa,
        AddrSpace::Gws => seed ^ 0x33,
        AddrSpace::GsReg => seed ^ 0xcc,
    }
}

fn concrete(
    def: &gcnsmt_semantics::ir::Def,
    aliases: &[(String, String)],
    inp: &Input,
) -> Observed {
    let mut d = Concrete;
    let vars = inp
        .vars
        .iter()
        .map(|(n, v, w, k)| {
            (
                n.clone(),
                Val::Bits(
                    Bits {
                        value: *v,
                        width: *w,
                    },
                    Ty::Bits(*k, *w),
                ),
            )
        })
        .collect();
    let seed = inp.seed;
    let mem = MemState::new(
        |s| {
            let seed = space_seed(seed, s);
            CMem::new_wide(move |a| byte_at64(seed, a))
        },
        false,
    );
    let frame = Frame {
        settings: inp.settings,
        mem: inp.mem,
        aliases,
        buffer: inp.buffer,
    };
    let (out, mem) = run(&mut d, &frame, &def.body, vars, mem).expect("concrete run");
    let outs = out
        .into_iter()
        .map(|(k, v)| match v {
            Val::Bits(b, _) => (k, b.value),
            Val::Bool(b) => (k, b as u128),
        })
        .collect();
    (outs, mem.spaces.map(|_, m| m.written.clone()), mem.ub)
}

fn symbolic(
    def: &gcnsmt_semantics::ir::Def,
    aliases: &[(String, String)],
    inp: &Input,
    touched: &PerSpace<BTreeSet<u64>>,
) -> Observed {
    let mut d = Smt;
    let vars = inp
        .vars
        .iter()
        .map(|(n, v, w, k)| {
            let b = d.bv(*v, *w);
            (n.clone(), Val::Bits(b, Ty::Bits(*k, *w)))
        })
        .collect();
    let seed = inp.seed;
    let f = d.boolean(false);
    let start = MemState::new(
        |s| {
            let seed = space_seed(seed, s);
            if s.addr_width() == 64 {
                d.table_mem_wide(move |a| byte_at64(seed, a))
            } else {
                d.table_mem(move |a| byte_at(seed, a))
            }
        },
        f,
    );
    let frame = Frame {
        settings: inp.settings,
        mem: inp.mem,
        aliases,
        buffer: inp.buffer,
    };
    let (out, mem) = run(&mut d, &frame, &def.body, vars, start).expect("symbolic run");
    let outs = out
        .into_iter()
        .map(|(k, v)| match v {
            Val::Bits(b, _) => (k, Smt::ground(&b).expect("ground output")),
            Val::Bool(b) => (k, Smt::ground_bool(&b).expect("ground") as u128),
        })
        .collect();
    let bytes = |m: &gcnsmt_verifier::smt::Mem, addrs: &BTreeSet<u64>| -> BTreeMap<u64, u8> {
        // Every address the symbolic side stored to, plus every address the concrete side wrote.
        let mut all = addrs.clone();
        let mut cur = m.stores.clone();
        while let Some(s) = cur {
            if Smt::ground_bool(&s.cond) == Some(true) || Smt::ground_bool(&s.cond).is_none() {
                all.insert(Smt::ground(&s.addr).expect("ground address") as u64);
            }
            cur = s.prev.clone();
        }
        all.iter()
            .map(|a| {
                let k = Smt.bv(*a as u128, m.addr_width);
                (*a, Smt::ground(&m.load(&k)).expect("ground byte") as u8)
            })
            .collect()
    };
    let ub = Smt::ground_bool(&mem.ub).expect("ground ub");
    (outs, mem.spaces.map(|s, m| bytes(m, &touched[s])), ub)
}

fn random_settings(rng: &mut StdRng, t: Target) -> Settings {
    let alignment = match rng.gen_range(0..3) {
        0 => Alignment::Dword,
        1 if t.has_unaligned_ds() => Alignment::Unaligned,
        _ => Alignment::Strict,
    };
    let lds_limit = match rng.gen_range(0..3) {
        0 => LdsLimit::M0,
        1 => LdsLimit::Alloc,
        _ => LdsLimit::None,
    };
    Settings {
        alignment,
        lds_limit,
        buffer_soffset: match rng.gen_range(0..3) {
            0 => BufferSoffset::Subtract,
            1 => BufferSoffset::Ignore,
            _ => BufferSoffset::Wrap,
        },
        buffer_oob: if rng.gen() {
            BufferOob::End
        } else {
            BufferOob::Start
        },
        sbuffer_size: if rng.gen() {
            SbufferSize::Strided
        } else {
            SbufferSize::Records
        },
        // Both readings of the offset sums (breaker 17's 05, 07), interpreter against solver.
        buffer_offset: if rng.gen() {
            gcnsmt_semantics::settings::BufferOffset::Checked
        } else {
            gcnsmt_semantics::settings::BufferOffset::Wrap
        },
        sbuffer_offset: if rng.gen() {
            gcnsmt_semantics::settings::SbufferOffset::Sum64
        } else {
            gcnsmt_semantics::settings::SbufferOffset::Wrap32
        },
        // Both, so the solver's FLAT paths agree with the interpreter's under each.
        flat_aperture: if rng.gen() {
            gcnsmt_semantics::settings::FlatAperture::Any
        } else {
            gcnsmt_semantics::settings::FlatAperture::Global
        },
        fp32_denorm: random_denorm(rng),
        ieee_mode: random_ieee(rng),
        lds_dma_m0: gcnsmt_semantics::settings::LdsDmaM0::Bits16,
        lds_dma_offset: gcnsmt_semantics::settings::LdsDmaOffset::Both,
        // Both M0 widths of the ADDTID ops (breaker19 08), interpreter against solver.
        addtid_m0: if rng.gen() {
            gcnsmt_semantics::settings::AddtidM0::Bits16
        } else {
            gcnsmt_semantics::settings::AddtidM0::Bits20
        },
        // Both, so ds_append/ds_consume agree under each counter address.
        append_addr: if rng.gen() {
            gcnsmt_semantics::settings::AppendAddr::Offset
        } else {
            gcnsmt_semantics::settings::AppendAddr::M0Base
        },
        gfx6_negative_base: gcnsmt_semantics::settings::Gfx6NegativeBase::Defined,
        // bufaudit: both readings of each, so the swizzle formula on gfx9+ and gem5's byte
        // check are compared too.
        buffer_struct: if rng.gen() {
            gcnsmt_semantics::settings::BufferStruct::Index
        } else {
            gcnsmt_semantics::settings::BufferStruct::Bytes
        },
        buffer_swizzle: if rng.gen() {
            gcnsmt_semantics::settings::BufferSwizzle::Formula
        } else {
            gcnsmt_semantics::settings::BufferSwizzle::Undefined
        },
        // Both readings of the BVH stack ops' pop and INVALID_NODE.
        bvh_pop: if rng.gen() {
            gcnsmt_semantics::settings::BvhPop::Pcode
        } else {
            gcnsmt_semantics::settings::BvhPop::Gpurt
        },
        bvh_invalid: if rng.gen() {
            gcnsmt_semantics::settings::BvhInvalid::AllOnes
        } else {
            gcnsmt_semantics::settings::BvhInvalid::Top29
        },
        // The target facts at their permissive values (the interpreter and the solver agree on
        // them; their undefined readings are tested in semantics/tests).
        d16_unused: gcnsmt_semantics::settings::D16Unused::Preserved,
        lds_misaligned: gcnsmt_semantics::settings::LdsMisaligned::Defined,
        flat_offset: gcnsmt_semantics::settings::FlatOffset::Applied,
        sici_soffset_clamp: gcnsmt_semantics::settings::SiciSoffsetClamp::Defined,
    }
}

/// `(ADDR, DATA0, DATA1, DATA1_HI)` for a BVH stack op: a stack pointer whose index is mostly
/// below the stack size (8..64 entries; sometimes past it, the undefined case), and node
/// pointers drawn from the cases the pseudocode tells apart: INVALID_NODE under either
/// `bvh_invalid` reading (0xffffffff, 0xfffffff8 + k), equal to last_node_ptr (DATA0), or any.
fn bvh_inputs(rng: &mut StdRng, name: &str) -> (u128, u128, u128, u128) {
    let shift = if name == "DS_BVH_STACK_RTN_B32" {
        18
    } else {
        15
    };
    let base = rng.gen_range(0..0x4000u128);
    let addr = (base << shift) | rng.gen_range(0..72u128);
    let last = match rng.gen_range(0..3) {
        0 => 0xffff_ffff,
        1 => 0xffff_fff8 + rng.gen_range(0..8u128),
        _ => rng.gen::<u32>() as u128,
    };
    let node = |rng: &mut StdRng| -> u128 {
        match rng.gen_range(0..4) {
            0 => 0xffff_ffff,
            1 => 0xffff_fff8 + rng.gen_range(0..8u128),
            2 => last,
            _ => rng.gen::<u32>() as u128,
        }
    };
    let quad = |rng: &mut StdRng| (0..4).fold(0u128, |acc, i| acc | node(rng) << (32 * i));
    let (lo, hi) = (quad(rng), quad(rng));
    (addr, last, lo, hi)
}

/// Either f32 denormal mode, so the VALU float entries are compared under both.
/// MODE.IEEE either way (`v_max_f32`'s NaN handling).
fn random_ieee(rng: &mut StdRng) -> gcnsmt_semantics::settings::IeeeMode {
    if rng.gen() {
        gcnsmt_semantics::settings::IeeeMode::On
    } else {
        gcnsmt_semantics::settings::IeeeMode::Off
    }
}

fn random_denorm(rng: &mut StdRng) -> gcnsmt_semantics::settings::Fp32Denorm {
    if rng.gen() {
        gcnsmt_semantics::settings::Fp32Denorm::Preserve
    } else {
        gcnsmt_semantics::settings::Fp32Denorm::Flush
    }
}

fn small_or_any(rng: &mut StdRng, bits: u32) -> u128 {
    match rng.gen_range(0..4) {
        0 => rng.gen_range(0..64),
        1 => (1u128 << bits) - 1 - rng.gen_range(0..16),
        _ => rng.gen::<u128>() & ((1u128 << bits) - 1),
    }
}

fn compare(
    name: &str,
    t: Target,
    i: usize,
    inp: &Input,
    def: &gcnsmt_semantics::ir::Def,
    aliases: &[(String, String)],
) {
    let (co, cmem, cub) = concrete(def, aliases, inp);
    let touched = cmem.map(|_, m| m.keys().copied().collect());
    let (so, smem, sub) = symbolic(def, aliases, inp, &touched);
    let seed = inp.seed;
    let full = |w: &BTreeMap<u64, u8>,
                s: &BTreeMap<u64, u8>,
                init: &dyn Fn(u64) -> u8|
     -> BTreeMap<u64, u8> {
        s.keys()
            .chain(w.keys())
            .map(|a| (*a, w.get(a).copied().unwrap_or_else(|| init(*a))))
            .collect()
    };
    let cmem = cmem.map(|s, w| full(w, &smem[s], &|a| byte_at64(space_seed(seed, s), a)));
    let ctx = || {
        format!(
            "{name} on {t}, run {i}: inputs {:x?}, {} {} {}, mem={:?}, buffer={:?}",
            inp.vars,
            inp.settings,
            inp.settings
                .text(gcnsmt_semantics::settings::groups::BUFFER),
            inp.settings
                .text(gcnsmt_semantics::settings::groups::BUFFER_GCN),
            inp.mem,
            inp.buffer
        )
    };
    assert_eq!(cub, sub, "undefined-behaviour flag differs: {}", ctx());
    // ADDR is an output of the BVH stack ops (the new stack pointer).
    // SDATA..SDATA3: the scalar loads' destinations (global.pcode, smem.pcode).
    for k in [
        "RETURN_DATA",
        "D0",
        "SDST",
        "VDATA",
        "ADDR",
        "SDATA",
        "SDATA1",
        "SDATA2",
        "SDATA3",
    ] {
        assert_eq!(co.get(k), so.get(k), "{k} differs: {}", ctx());
    }
    for (space, bytes) in cmem.iter() {
        assert_eq!(bytes, &smem[space], "{} differs: {}", space.label(), ctx());
    }
}

/// A V# with fields that make range checks bite: small NUM_RECORDS and strides, soffset-sized
/// values, every OOB_SELECT, swizzle and ADD_TID sometimes.
fn random_vsharp(rng: &mut StdRng) -> u128 {
    let mut v: u128 = rng.gen();
    // base: small or arbitrary
    if rng.gen_range(0..2) == 0 {
        v &= !((1u128 << 48) - 1);
        v |= rng.gen_range(0..0x100u128);
    }
    // stride 61:48 (gfx1250: 121:108) and num_records 95:64 (gfx1250: 101:57): small often
    if rng.gen_range(0..3) > 0 {
        v &= !(0x3fffu128 << 48);
        v |= [0u128, 4, 8, 16, 12][rng.gen_range(0..5)] << 48;
        v &= !(0x3fffu128 << 108);
        v |= [0u128, 4, 8, 16][rng.gen_range(0..4)] << 108;
    }
    if rng.gen_range(0..3) > 0 {
        v &= !(0xffff_ffffu128 << 64);
        v |= rng.gen_range(0..0x200u128) << 64;
        v &= !(((1u128 << 45) - 1) << 57);
        v |= rng.gen_range(0..0x200u128) << 57;
    }
    // swizzle and add_tid off most of the time
    if rng.gen_range(0..4) > 0 {
        v &= !(3u128 << 62);
        v &= !(1u128 << 119);
    }
    v
}

fn buffer_inputs(rng: &mut StdRng, t: Target, vdata: u32, name: &str) -> Input {
    let si = t <= Target::Gfx700;
    let addr64 = si && rng.gen_range(0..4) == 0;
    let (offen, idxen) = if addr64 {
        (false, false)
    } else {
        (rng.gen(), rng.gen())
    };
    let vaddr_w = if addr64 || (offen && idxen) { 64 } else { 32 };
    let w = vdata.max(1) * 32;
    let data = interesting(rng, w);
    let _ = name;
    Input {
        vars: vec![
            ("VADDR".into(), small_or_any(rng, vaddr_w), vaddr_w, Kind::B),
            ("SRSRC".into(), random_vsharp(rng), 128, Kind::B),
            ("SOFFSET".into(), small_or_any(rng, 32), 32, Kind::B),
            ("OFFSET".into(), rng.gen_range(0..4096), 32, Kind::U),
            ("LANE_ID".into(), rng.gen_range(0..64), 32, Kind::B),
            ("VDATA".into(), data, w, Kind::B),
            ("DATA".into(), data, w, Kind::B),
            ("RETURN_DATA".into(), data, w, Kind::B),
            // tbuffer_*: the instruction's 7-bit format code (valid and invalid ones).
            ("FORMAT".into(), rng.gen_range(0..128), 7, Kind::B),
        ],
        settings: random_settings(rng, t),
        mem: MemView::Space(AddrSpace::Global),
        buffer: Some(BufferMode {
            target: t,
            offen,
            idxen,
            addr64,
        }),
        seed: rng.gen(),
    }
}

fn flat_inputs(rng: &mut StdRng, t: Target) -> Input {
    let shared = rng.gen::<u32>() as u128;
    let private = match rng.gen_range(0..8) {
        0 => shared,
        _ => rng.gen::<u32>() as u128,
    };
    let hi = match rng.gen_range(0..5) {
        0 | 1 => shared,
        2 => private,
        3 => shared.wrapping_add(1) & 0xffff_ffff,
        _ => rng.gen::<u32>() as u128,
    };
    let lo = small_or_any(rng, 32);
    Input {
        vars: vec![
            ("VADDR".into(), hi << 32 | lo, 64, Kind::B),
            (
                "OFFSET".into(),
                (rng.gen_range(-4096i32..4096) as u32) as u128,
                32,
                Kind::I,
            ),
            ("SHARED_BASE".into(), shared, 32, Kind::B),
            ("PRIVATE_BASE".into(), private, 32, Kind::B),
            ("VDATA".into(), interesting(rng, 128), 128, Kind::B),
            ("RETURN_DATA".into(), interesting(rng, 128), 128, Kind::B),
            ("LANE_ID".into(), rng.gen_range(0..64), 32, Kind::B),
        ],
        settings: random_settings(rng, t),
        mem: MemView::Flat,
        buffer: None,
        seed: rng.gen(),
    }
}

/// The inputs of a gfx900 global-memory entry (`global.pcode`, `smem.pcode`): `vars`, then
/// random settings and a memory seed drawn from `rng`.
fn gfx900_global(rng: &mut StdRng, vars: Vec<(String, u128, u32, Kind)>) -> Input {
    Input {
        vars,
        settings: random_settings(rng, Target::Gfx900),
        mem: MemView::Space(AddrSpace::Global),
        buffer: None,
        seed: rng.gen(),
    }
}

/// The runs of one instruction name `n` of `def` (from `file`): the inputs its file's
/// instructions take, drawn from `rng`, each through both domains; returns how many ran.
fn check_name(file: &str, def: &Def, n: &DefName, rng: &mut StdRng) -> usize {
    let mut checked = 0usize;
    let name = &n.name;
    let aliases = n.aliases.as_slice();
    if file == "alu.pcode" || file == "dpp.pcode" {
        // A lane-mask S2 (v_cndmask_b32's select, the carry-in ops) is 64 bits on
        // wave64, so LANE_ID 32..63 reads a bit that may be set.
        let mask = def.names.iter().any(|n| {
            n.name == "V_CNDMASK_B32"
                || n.name.starts_with("V_ADDC")
                || n.name.starts_with("V_SUBB")
        });
        // The 64-bit sources and destinations as the lifter lays them out on a target that has
        // the op (S_BCNT1_I32_B64's S0, the 64-bit compares, shifts and adds).
        let lay = Target::ALL
            .iter()
            .find_map(|t| gcnsmt_lifter::lift::alu_lookup(*t, &name.to_ascii_lowercase()));
        // The op_sel field: v_pk_mov_b32's two bits, the True16 ops' four (bit 3: destination).
        let true16 = lay
            .as_ref()
            .is_some_and(|a| a.mods == gcnsmt_lifter::lift::AluMods::True16);
        let opsel_bits = if true16 { 4 } else { 2 };
        let (wide, wide_dst) = lay.map_or((0, false), |a| (a.wide_srcs, a.wide_dst));
        let w = |i: u32| if wide >> i & 1 == 1 { 64 } else { 32 };
        let (s0w, s1w) = (w(0), w(1));
        let s2w = if mask { 64 } else { w(2) };
        let d0w = if wide_dst { 64 } else { 32 };
        for i in 0..runs() {
            let inp = Input {
                vars: vec![
                    ("S0".into(), interesting(rng, s0w), s0w, Kind::B),
                    ("S1".into(), interesting(rng, s1w), s1w, Kind::B),
                    ("S2".into(), interesting(rng, s2w), s2w, Kind::B),
                    ("D0".into(), interesting(rng, d0w), d0w, Kind::B),
                    ("SDST".into(), interesting(rng, 64), 64, Kind::B),
                    ("LANE_ID".into(), rng.gen_range(0..64), 32, Kind::B),
                    (
                        "OPSEL".into(),
                        rng.gen_range(0..1 << opsel_bits),
                        opsel_bits,
                        Kind::B,
                    ),
                ],
                settings: Settings {
                    fp32_denorm: random_denorm(rng),
                    ieee_mode: random_ieee(rng),
                    ..Settings::default_for(Target::Gfx900)
                },
                mem: MemView::Space(AddrSpace::Lds),
                buffer: None,
                seed: rng.gen(),
            };
            compare(name, Target::Gfx900, i, &inp, def, aliases);
            checked += 1;
        }
        return checked;
    }
    let mn = name.to_ascii_lowercase();
    if file == "global.pcode" {
        // GLOBAL and scalar loads: 64-bit addresses, signed offsets, the 32-bit
        // (SADDR form) or 64-bit VADDR, on the global memory.
        for i in 0..runs() {
            let saddr_form = rng.gen_bool(0.5);
            let base = rng.gen::<u64>() as u128;
            let vars = vec![
                (
                    "VADDR".into(),
                    if saddr_form { base & 0xffff_ffff } else { base },
                    if saddr_form { 32 } else { 64 },
                    Kind::B,
                ),
                (
                    "SADDR".into(),
                    if saddr_form {
                        rng.gen::<u64>() as u128
                    } else {
                        0
                    },
                    64,
                    Kind::U,
                ),
                ("SBASE".into(), base, 64, Kind::B),
                (
                    "OFFSET".into(),
                    (rng.gen_range(-4096i32..4096) as u32) as u128,
                    32,
                    Kind::I,
                ),
                ("VDATA".into(), interesting(rng, 128), 128, Kind::B),
                ("RETURN_DATA".into(), interesting(rng, 128), 128, Kind::B),
                ("SDATA".into(), interesting(rng, 128), 128, Kind::B),
                ("SDATA1".into(), interesting(rng, 128), 128, Kind::B),
                ("LANE_ID".into(), rng.gen_range(0..64), 32, Kind::B),
            ];
            let inp = gfx900_global(rng, vars);
            compare(name, Target::Gfx900, i, &inp, def, aliases);
            checked += 1;
        }
        return checked;
    }
    if file == "smem.pcode" {
        // Scalar buffer loads: BASE and SIZE as the binder decodes them from the V#
        // (sizes near the accessed offsets, so both range-check outcomes occur).
        for i in 0..runs() {
            let off = rng.gen_range(0..256u128);
            let mut vars = vec![
                ("BASE".into(), rng.gen::<u64>() as u128 >> 16, 64, Kind::U),
                ("SIZE".into(), off + rng.gen_range(0..80), 64, Kind::U),
                ("OFFSET".into(), off, 32, Kind::I),
                ("SOFFSET".into(), small_or_any(rng, 32), 32, Kind::B),
                ("LANE_ID".into(), 0, 32, Kind::B),
            ];
            for v in ["SDATA", "SDATA1", "SDATA2", "SDATA3"] {
                vars.push((v.into(), interesting(rng, 128), 128, Kind::B));
            }
            let inp = gfx900_global(rng, vars);
            compare(name, Target::Gfx900, i, &inp, def, aliases);
            checked += 1;
        }
        return checked;
    }
    if file == "flat.pcode" {
        // FLAT: the 64-bit address often in the shared or private aperture, or just
        // outside one, or where the offset carries into the high half.
        for i in 0..runs() {
            let t = [Target::Gfx802, Target::Gfx900][i % 2];
            let inp = flat_inputs(rng, t);
            compare(name, t, i, &inp, def, aliases);
            checked += 1;
        }
        return checked;
    }
    if file.starts_with("buffer_") {
        // gfx8.0's unpacked d16 entries run there only (machine::buffer picks them).
        let (mn, only) = match mn.strip_suffix("_unpacked") {
            Some(m) => (m.to_string(), Some(Target::Gfx802)),
            None => (mn, None),
        };
        let ts: Vec<Target> = Target::ALL
            .into_iter()
            .filter(|t| only.is_none_or(|o| o == *t))
            .filter(|t| gcnsmt_lifter::buffer_lookup(*t, &mn).is_some())
            .collect();
        assert!(!ts.is_empty(), "{name}: no target has this mnemonic");
        // Format entries build large terms (every data x number format): fewer runs.
        let n = if file == "buffer_format.pcode" {
            runs() / 4
        } else {
            runs()
        };
        for i in 0..n {
            // Spread the runs over every target with the name (V# layouts differ).
            let t = ts[i % ts.len()];
            let (_, shape) = gcnsmt_lifter::buffer_lookup(t, &mn).unwrap();
            let inp = buffer_inputs(rng, t, shape.vdata as u32, name);
            compare(name, t, i, &inp, def, aliases);
            checked += 1;
        }
        return checked;
    }
    let Some(t) = Target::ALL
        .into_iter()
        .find(|t| ds_lookup(*t, &mn).is_some())
    else {
        panic!("{name}: no target has this mnemonic");
    };
    let (_, shape) = ds_lookup(t, &mn).unwrap();
    for i in 0..runs() {
        let settings = random_settings(rng, t);
        let off = if shape.offset == OffsetKind::Pair {
            rng.gen_range(0..=0xffffu128)
        } else {
            small_or_any(rng, 16)
        };
        let m0 = match rng.gen_range(0..3) {
            0 => 0xffff_ffff,
            1 => small_or_any(rng, 17),
            _ => rng.gen::<u32>() as u128,
        };
        let w = |n: u8| (n.clamp(1, 4) as u32) * 32;
        let bvh = name.starts_with("DS_BVH_STACK_");
        let (addr, data0, data1, data1_hi) = if bvh {
            bvh_inputs(rng, name)
        } else {
            let a = small_or_any(rng, 32);
            let d0 = interesting(rng, w(shape.data0));
            (a, d0, interesting(rng, w(shape.data1)), 0)
        };
        let mut vars = vec![
            ("ADDR".into(), addr, 32, Kind::B),
            ("DATA0".into(), data0, w(shape.data0), Kind::B),
            ("DATA1".into(), data1, w(shape.data1), Kind::B),
        ];
        // An 8-dword DATA1 is bound as DATA1 and DATA1_HI (machine::step).
        if shape.data1 > 4 {
            vars.push(("DATA1_HI".into(), data1_hi, 128, Kind::B));
        }
        let inp = Input {
            vars: [
                vars,
                vec![
                    ("OFFSET".into(), off, 16, Kind::U),
                    ("OFFSET0".into(), off & 0xff, 8, Kind::U),
                    ("OFFSET1".into(), off >> 8, 8, Kind::U),
                    ("M0".into(), m0, 32, Kind::B),
                    ("LDS_SIZE".into(), small_or_any(rng, 17), 32, Kind::B),
                    ("LANE_ID".into(), rng.gen_range(0..64), 32, Kind::B),
                    // The wave's mask, read by the wave-level entries (ds_wave.pcode).
                    ("EXEC".into(), interesting(rng, 64), 64, Kind::B),
                    (
                        "RETURN_DATA".into(),
                        interesting(rng, if shape.vdst == 0 { 128 } else { w(shape.vdst) }),
                        if shape.vdst == 0 { 128 } else { w(shape.vdst) },
                        Kind::B,
                    ),
                ],
            ]
            .concat(),
            settings,
            mem: MemView::Space(if shape.scope == DsScope::WaveGws {
                AddrSpace::Gws
            } else if shape.scope == DsScope::WaveGsReg {
                AddrSpace::GsReg
            } else if shape.gds != GdsRule::Never && rng.gen_range(0..8) == 0 {
                AddrSpace::Gds
            } else {
                AddrSpace::Lds
            }),
            buffer: None,
            seed: rng.gen(),
        };
        compare(name, t, i, &inp, def, aliases);
        checked += 1;
    }
    checked
}

#[test]
fn z3_encoding_agrees_with_the_interpreter() {
    let lib = Library::builtin();
    let items: Vec<(&str, &Def, &DefName)> = (lib.defs.iter())
        .flat_map(|(file, def)| def.names.iter().map(move |n| (file.as_str(), def, n)))
        .collect();
    // Each name draws from its own generator (seeded by the name), so the names run in
    // parallel and each sees the same inputs from run to run.
    let checked: usize = items
        .par_iter()
        .map(|(file, def, n)| {
            let mut rng = StdRng::seed_from_u64(0x6763_6e73_6d74 ^ gcnsmt_testkit::fnv1a(&n.name));
            check_name(file, def, n, &mut rng)
        })
        .sum();
    let names = items.len();
    println!("interpreter vs z3: {checked} runs over {names} instruction names agree");
    assert!(names > 150, "only {names} names checked");
}
