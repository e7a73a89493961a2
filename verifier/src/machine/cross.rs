//! The one dispatch from a cross-lane DS instruction to its whole-wave semantics
//! (`gcnsmt_semantics::wave`): `verify --lanes N` runs it on solver terms (machine::step) and
//! `gcnsmt lift` on the text domain (`gcnsmt_semantics::text`), so what `lift` prints is the
//! function the checks evaluate.

use super::op::CrossKind;
use gcnsmt_lifter::lift::wave_size;
use gcnsmt_lifter::DsInst;
use gcnsmt_semantics::domain::Domain;
use gcnsmt_semantics::target::{Gen, Target};
use gcnsmt_semantics::text::{TBv, Text};
use gcnsmt_semantics::transpose::{transpose_lanes, Transpose};
use gcnsmt_semantics::wave::{
    bpermute_fi_lanes, bpermute_lanes, permute_lanes, swizzle_lanes, LaneIndex, Lanes, PermuteWrap,
};

/// One cross-lane instruction's inputs: the present lanes of one wave (ids increasing), their
/// EXEC bits and register values (32 bits each).
pub struct CrossArgs<'a, D: Domain> {
    /// Which op.
    pub kind: CrossKind,
    /// The target (swizzle modes from gfx9, the permute wrap per generation).
    pub target: Target,
    /// The present lanes' ids.
    pub ids: &'a [D::Bv],
    /// Their EXEC bits.
    pub active: &'a [D::Bool],
    /// The destination VGPR before the instruction, per lane.
    pub old: &'a [D::Bv],
    /// The ADDR VGPR per lane (a swizzle's data: LLVM `ds_swizzle_b32 vdst, addr`).
    pub addr: &'a [D::Bv],
    /// The DATA0 VGPR per lane (the permutes' data); for a transpose, each lane's own LDS read
    /// ([`super::transpose::lane_read`]).
    pub data0: &'a [D::Bv],
    /// `ds_bpermute_fi_b32`: what each present lane fetches from an absent source lane
    /// (free inputs, see [`bpermute_fi_lanes`]); a transpose: each lane's fill for missing
    /// sources ([`transpose_lanes`]); empty for the other ops.
    pub absent: &'a [D::Bv],
    /// The instruction's 16-bit offset.
    pub offset: u16,
}

/// The destination value of every present lane after the instruction.
pub fn run_cross<D: Domain>(d: &mut D, a: &CrossArgs<D>) -> Vec<D::Bv> {
    let data = match a.kind {
        CrossKind::Swizzle => a.addr,
        _ => a.data0,
    };
    let l = Lanes {
        wave: wave_size(a.target),
        ids: a.ids,
        data,
        old: a.old,
        active: a.active,
    };
    let at = LaneIndex {
        addr: a.addr,
        offset: a.offset,
        wrap: PermuteWrap::of(a.target),
    };
    match a.kind {
        CrossKind::Swizzle => swizzle_lanes(d, &l, a.offset, a.target.gen() >= Gen::Gfx9),
        CrossKind::Permute => permute_lanes(d, &l, &at),
        CrossKind::Bpermute => bpermute_lanes(d, &l, &at),
        CrossKind::BpermuteFi => bpermute_fi_lanes(d, &l, &at, a.absent),
        CrossKind::Transpose(t) => transpose_lanes(d, &l, t, a.absent),
    }
}

/// `gcnsmt lift`'s text for a cross-lane instruction, or `None` for any other.
///
/// A swizzle's source lanes are constants, so it prints for every lane of the wave (lane ids
/// 0..wave); a permute's depend on the address VGPRs, so it prints for two present lanes
/// `L0 < L1` of the wave, every other lane inactive, as `verify --lanes 2` checks it.
pub fn lift_text(target: Target, inst: &DsInst) -> Option<String> {
    let kind = CrossKind::of(inst.mnemonic)?;
    let wave = wave_size(target);
    if let CrossKind::Transpose(t) = kind {
        return Some(transpose_text(t, wave, inst.offset16()));
    }
    let names: Vec<String> = if kind == CrossKind::Swizzle {
        (0..wave).map(|i| i.to_string()).collect()
    } else {
        vec!["L0".into(), "L1".into()]
    };
    let mut d = Text;
    let ids: Vec<TBv> = if kind == CrossKind::Swizzle {
        (0..wave).map(|i| d.bv(i as u128, 32)).collect()
    } else {
        names.iter().map(|n| Text::var(n.clone(), 32)).collect()
    };
    let per = |reg: &str| -> Vec<TBv> {
        names
            .iter()
            .map(|n| Text::var(format!("{reg}[{n}]"), 32))
            .collect()
    };
    let active: Vec<_> = names
        .iter()
        .map(|n| Text::flag(format!("EXEC[{n}]")))
        .collect();
    let absent = if kind == CrossKind::BpermuteFi {
        per("DATA0_OF_ABSENT_SOURCE")
    } else {
        Vec::new()
    };
    let (old, addr, data0) = (per("RETURN_DATA"), per("ADDR"), per("DATA0"));
    let args = CrossArgs {
        kind,
        target,
        ids: &ids,
        active: &active,
        old: &old,
        addr: &addr,
        data0: &data0,
        absent: &absent,
        offset: inst.offset16(),
    };
    let out = run_cross(&mut d, &args);
    let mut s = format!(
        "// whole-wave semantics (semantics/src/wave.rs, {}), wave{wave}; {}\n",
        kind.function(),
        if kind == CrossKind::Swizzle {
            "every lane".to_string()
        } else {
            "present lanes L0 < L1, every other lane inactive (as `verify --lanes 2`)".into()
        }
    );
    if kind == CrossKind::BpermuteFi {
        s.push_str(
            "// DATA0_OF_ABSENT_SOURCE[L]: DATA0 of the lane outside L0, L1 that lane L reads\n",
        );
    }
    for (n, v) in names.iter().zip(&out) {
        s.push_str(&format!("RETURN_DATA[{n}] = {};\n", Text::show(v)));
    }
    Some(s)
}

/// `lift`'s text for a transpose load: every lane of the wave, each element named by the lane
/// and element it comes from.
fn transpose_text(t: Transpose, wave: u32, offset: u16) -> String {
    let mut d = Text;
    let names: Vec<String> = (0..wave).map(|i| i.to_string()).collect();
    let ids: Vec<TBv> = (0..wave).map(|i| d.bv(i as u128, 32)).collect();
    let per = |reg: &str, width: u32| -> Vec<TBv> {
        names
            .iter()
            .map(|n| Text::var(format!("{reg}[{n}]"), width))
            .collect()
    };
    let active: Vec<_> = names
        .iter()
        .map(|n| Text::flag(format!("EXEC[{n}]")))
        .collect();
    let w = t.read_bits();
    let (old, reads, fill) = (per("RETURN_DATA", w), per("READ", w), per("FILL", w));
    let l = Lanes {
        wave,
        ids: &ids,
        data: &reads,
        old: &old,
        active: &active,
    };
    let out = transpose_lanes(&mut d, &l, t, &fill);
    let mut s = format!(
        "// whole-wave semantics (semantics/src/transpose.rs, transpose_lanes), wave{wave}; every lane\n\
         // READ[L]: lane L's own access, {} (semantics/pcode/ds_load.pcode) at ADDR[L] + {offset}; \
         undefined when active and not a multiple of {} bytes\n\
         // FILL[L]: unconstrained, for elements whose source lane is inactive; {} elements of {} bits\n",
        t.lane_read(),
        t.align(),
        t.elems(),
        t.elem_bits()
    );
    for (n, v) in names.iter().zip(&out) {
        s.push_str(&format!("RETURN_DATA[{n}] = {};\n", Text::show(v)));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lift(t: Target, asm: &str) -> String {
        let gcnsmt_lifter::Inst::Ds(i) = gcnsmt_lifter::parse_any(t, asm).unwrap() else {
            panic!("not DS")
        };
        lift_text(t, &i).unwrap()
    }

    // `swizzle(SWAP,1)` (LLVM AMDGPUAsmParser): lanes exchange with their neighbour, so lane 4
    // reads lane 5 and lane 5 lane 4; a source lane outside EXEC gives 0 (AMD guides).
    #[test]
    fn swizzle_swap_prints_the_neighbour_of_each_lane() {
        let s = lift(
            Target::Gfx900,
            "ds_swizzle_b32 v1, v2 offset:swizzle(SWAP,1)",
        );
        assert!(s.contains("RETURN_DATA[4] = EXEC[4] ? (EXEC[5] ? ADDR[5] : 0) : RETURN_DATA[4];"));
        assert!(
            s.contains("RETURN_DATA[63] = EXEC[63] ? (EXEC[62] ? ADDR[62] : 0) : RETURN_DATA[63];")
        );
        assert_eq!(
            s.lines().filter(|l| l.starts_with("RETURN_DATA")).count(),
            64
        );
    }

    // gfx1200 `ds_bpermute_fi_b32`: the source lane (ADDR + 8) / 4 % 32 is read whatever its
    // EXEC bit (RDNA4 guide), so no EXEC of a source appears, only the reader's own.
    #[test]
    fn bpermute_fi_reads_sources_regardless_of_exec() {
        let s = lift(Target::Gfx1200, "ds_bpermute_fi_b32 v1, v2, v3 offset:8");
        let l0 = s
            .lines()
            .find(|l| l.starts_with("RETURN_DATA[L0]"))
            .unwrap();
        assert!(l0.starts_with("RETURN_DATA[L0] = EXEC[L0] ? "), "{l0}");
        assert!(!l0.contains("EXEC[L1]"), "{l0}");
        assert!(l0.contains("(((ADDR[L0] + 8) >> 2) & 0x1f)"), "{l0}");
        let b = lift(Target::Gfx1200, "ds_bpermute_b32 v1, v2, v3 offset:8");
        assert!(b.contains("EXEC[L1]"), "{b}");
    }

    // gfx950 ds_read_b64_tr_b16 (rocRoller's hardware test): lane 1's first element is element
    // 1 of lane 0 (bits 31:16 of its read), its last element 1 of lane 12; 64 lanes printed.
    #[test]
    fn transpose_prints_each_lanes_sources() {
        let s = lift(Target::Gfx950, "ds_read_b64_tr_b16 v[2:3], v20 offset:8");
        let l1 = s
            .lines()
            .find(|l| l.starts_with("RETURN_DATA[1] "))
            .unwrap();
        assert!(
            l1.contains("(EXEC[0] ? READ[0][31:16] : FILL[1][15:0])"),
            "{l1}"
        );
        assert!(
            l1.contains("(EXEC[12] ? READ[12][31:16] : FILL[1][63:48])"),
            "{l1}"
        );
        assert!(s.contains("DS_READ_B64 (semantics/pcode/ds_load.pcode) at ADDR[L] + 8"));
        assert_eq!(
            s.lines().filter(|l| l.starts_with("RETURN_DATA")).count(),
            64
        );
        // gfx1250 ds_load_tr8_b64 (MI450 blog): byte 4 of lane 0 is byte 0 of lane 8.
        let s = lift(Target::Gfx1250, "ds_load_tr8_b64 v[2:3], v20");
        assert!(
            s.contains("(EXEC[8] ? READ[8][7:0] : FILL[0][39:32])"),
            "{s}"
        );
    }
}
