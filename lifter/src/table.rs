//! DS opcode table and operand shapes per target, and the operands memory instructions
//! write back besides their destination ([`writes_addr`], [`image_writes_vaddr`]).
//!
//! Opcodes come from `data/ds_opcodes_by_target.csv` (every opcode value
//! disassembled or assembled with llvm-mc-22; LLVM `DSInstructions.td` is the
//! source behind it). Operand shapes come from `data/ds_shapes.tsv`, generated
//! by `data/gen_ds_shapes.py` from the llvm-mc-22 round-trip files. GDS rules
//! were probed with llvm-mc-22 (see `data/README.md`).

use std::collections::HashMap;
use std::sync::OnceLock;

use gcnsmt_semantics::target::{DsLayout, Gen, Target};

/// How an instruction's 16-bit OFFSET field (word bits 15:0) is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OffsetKind {
    /// No offset (`ds_nop`); bits 15:0 must be zero.
    None,
    /// One unsigned 16-bit byte offset, printed `offset:N` (0..=65535).
    Single,
    /// Two unsigned 8-bit offsets in element units, printed `offset0:N offset1:N`
    /// (read2/write2/wrxchg2 and the gfx11+ `*_2addr` names).
    Pair,
}

/// Whether the `gds` modifier (GDS bit: 17 on SI/gfx10/gfx11, 16 on VI/gfx9/CDNA) applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GdsRule {
    /// `gds` is rejected: ops without a GDS form (`ds_nop`, permutes, BVH stack),
    /// every op on gfx12/gfx1250, and all non-GWS ops on gfx90a/gfx942/gfx950.
    Never,
    /// LDS by default, GDS with `gds`.
    Optional,
    /// GDS-only ops (`ds_gws_*`, `ds_ordered_count`, `ds_*_gs_reg_rtn`): `gds` must be written.
    Required,
}

/// What one DS instruction acts on, and whether once per lane or once per wave.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DsScope {
    /// Each active lane accesses LDS (GDS with `gds`) at its own address: every ordinary op.
    Lane,
    /// One update of a counter in LDS/GDS for the whole wave, every lane getting the old value
    /// (`ds_append`, `ds_consume`: "scalar operation" in CLRX GcnInstrsDs.md, "return to all
    /// valid threads" in the RDNA3.5/RDNA4 guides); `ds_ordered_count`, the GDS ordered append
    /// (`ds_wave.pcode`).
    WaveMemory,
    /// One update of a GWS resource for the whole wave (`ds_gws_*`: the AMD Vega/CDNA guides
    /// describe a resource state machine, not a memory access).
    WaveGws,
    /// One update of a GS register for the whole wave (`ds_add_gs_reg_rtn`,
    /// `ds_sub_gs_reg_rtn`: the RDNA3.5 guide's `GS_REGS(addr)`).
    WaveGsReg,
}

/// Operand shape of one DS mnemonic. Register counts are in dwords (32-bit registers);
/// operands are written in the order vdst, addr, data0, data1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DsShape {
    /// Destination tuple size in dwords (0 = no vdst); word bits 63:56.
    pub vdst: u8,
    /// Whether there is a 1-dword address VGPR; word bits 39:32.
    pub addr: bool,
    /// First data tuple size in dwords (0 = none); word bits 47:40, except for
    /// `ds_gws_*` whose data0 sits in the ADDR byte (see [`data0_in_addr_field`]).
    pub data0: u8,
    /// Second data tuple size in dwords (0 = none); word bits 55:48.
    pub data1: u8,
    /// How the offset field is used.
    pub offset: OffsetKind,
    /// Whether `gds` is allowed on this target.
    pub gds: GdsRule,
    /// What it acts on, per lane or per wave ([`scope_of`]).
    pub scope: DsScope,
}

impl DsShape {
    /// Number of register operands written in assembly.
    pub fn operand_count(&self) -> usize {
        usize::from(self.vdst > 0)
            + usize::from(self.addr)
            + usize::from(self.data0 > 0)
            + usize::from(self.data1 > 0)
    }
}

/// Whether this mnemonic's data0 register is encoded in the ADDR byte (39:32)
/// instead of DATA0 (47:40): true for `ds_gws_*` (LLVM `has_gws_data0`).
pub fn data0_in_addr_field(mnemonic: &str) -> bool {
    mnemonic.starts_with("ds_gws_")
}

/// Whether this mnemonic writes its ADDR VGPR back: the BVH stack ops return the new stack
/// pointer in it (LLVM DSInstructions.td `DS_BVH_STACK`: `$vaddr = $vaddr_in`; the pseudocode's
/// `ADDR = ENCODE_ADDR(...)`, semantics/pcode/ds_bvh.pcode).
pub fn writes_addr(mnemonic: &str) -> bool {
    mnemonic.starts_with("ds_bvh_stack_")
}

/// The elements of an image instruction's bracketed VADDR list it also writes back, by
/// position: gfx12's `image_bvh8_intersect_ray` and `image_bvh_dual_intersect_ray` return the
/// instance-transformed ray origin (element 2) and direction (element 3) there (LLVM
/// MIMGInstructions.td ties `$ray_origin`/`$ray_dir` outputs to those inputs; the intrinsics
/// return `{<10 x i32>, <3 x float>, <3 x float>}`). Every other image op writes only VDATA.
pub fn image_writes_vaddr(mnemonic: &str) -> &'static [usize] {
    match mnemonic {
        "image_bvh8_intersect_ray" | "image_bvh_dual_intersect_ray" => &[2, 3],
        _ => &[],
    }
}

/// Whether a `count`-dword register operand of `mnemonic` must start at an even
/// register on `target`: multi-dword tuples on gfx90a+/gfx1250 (LLVM `*_Align2`
/// register classes), and the single GWS data0 register on gfx90a/gfx942/gfx950
/// (llvm-mc-22: "vgpr must be even aligned", `validateGWS`).
pub fn must_be_even(target: Target, mnemonic: &str, count: u8) -> bool {
    (count > 1 && target.needs_aligned_vgpr_tuples())
        || (target.gen() == Gen::Gfx90a && data0_in_addr_field(mnemonic))
}

/// The scope of a mnemonic: the few wave-level ops by name (the generated shape table has
/// operand roles only), every other op [`DsScope::Lane`].
fn scope_of(mnemonic: &str) -> DsScope {
    match mnemonic {
        "ds_append" | "ds_consume" | "ds_ordered_count" => DsScope::WaveMemory,
        "ds_add_gs_reg_rtn" | "ds_sub_gs_reg_rtn" => DsScope::WaveGsReg,
        m if data0_in_addr_field(m) => DsScope::WaveGws,
        _ => DsScope::Lane,
    }
}

const OPCODES_CSV: &str = include_str!("../data/ds_opcodes_by_target.csv");
const SHAPES_TSV: &str = include_str!("../data/ds_shapes.tsv");

struct Tables {
    /// Per target index: opcode -> mnemonic.
    by_opcode: Vec<[Option<&'static str>; 256]>,
    /// Per target index: mnemonic -> opcode.
    by_name: Vec<HashMap<&'static str, u8>>,
    /// Mnemonic -> target-independent shape (GDS rule before target restrictions).
    shapes: HashMap<&'static str, DsShape>,
    /// Per target index: opcode -> mnemonic and target shape, what the decoder looks up for
    /// every word (no hashing on that path).
    decoded: Vec<[Option<(&'static str, DsShape)>; 256]>,
}

/// The position of `t` in [`Target::ALL`], the index of the per-target tables.
pub(crate) fn target_index(t: Target) -> usize {
    // `Target::ALL` lists the variants in declaration order (the test
    // `target_index_is_the_position_in_all`), so the discriminant is the index; a search of
    // `ALL` here was a tenth of the decoder's time per word.
    t as usize
}

/// The filled cells of an opcode CSV (header `opcode_dec,<target names>...`, one row per
/// opcode value): (opcode, index of the target in [`Target::ALL`], mnemonic).
pub(crate) fn opcode_cells(csv: &'static str) -> Vec<(u8, usize, &'static str)> {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().expect("csv header").split(',').collect();
    let cols: Vec<usize> = Target::ALL
        .iter()
        .map(|t| {
            header
                .iter()
                .position(|h| *h == t.name())
                .expect("target column")
        })
        .collect();
    let mut out = Vec::new();
    for line in lines.filter(|l| !l.trim().is_empty()) {
        let cells: Vec<&'static str> = line.split(',').collect();
        let op: u8 = cells[0].parse().expect("opcode_dec");
        for (ti, &c) in cols.iter().enumerate() {
            let name = cells.get(c).copied().unwrap_or("").trim();
            if !name.is_empty() {
                out.push((op, ti, name));
            }
        }
    }
    out
}

/// The rows of a tab-separated table, split into fields; `#` lines and blank lines skipped.
pub(crate) fn tsv_rows(tsv: &'static str) -> impl Iterator<Item = Vec<&'static str>> {
    tsv.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').collect())
}

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| {
        let mut by_opcode = vec![[None; 256]; Target::ALL.len()];
        let mut by_name = vec![HashMap::new(); Target::ALL.len()];
        for (op, ti, name) in opcode_cells(OPCODES_CSV) {
            by_opcode[ti][op as usize] = Some(name);
            by_name[ti].insert(name, op);
        }
        let mut shapes = HashMap::new();
        for f in tsv_rows(SHAPES_TSV) {
            let n = |i: usize| -> u8 { f[i].parse().expect("shape count") };
            let shape = DsShape {
                vdst: n(1),
                addr: n(2) != 0,
                data0: n(3),
                data1: n(4),
                offset: match f[5] {
                    "none" => OffsetKind::None,
                    "pair" => OffsetKind::Pair,
                    _ => OffsetKind::Single,
                },
                gds: match f[6] {
                    "never" => GdsRule::Never,
                    "required" => GdsRule::Required,
                    _ => GdsRule::Optional,
                },
                scope: scope_of(f[0]),
            };
            shapes.insert(f[0], shape);
        }
        let decoded = by_opcode
            .iter()
            .zip(Target::ALL)
            .map(|(ops, t)| {
                ops.map(|n| n.and_then(|n| shapes.get(n).map(|s| (n, for_target(t, *s)))))
            })
            .collect();
        Tables {
            by_opcode,
            by_name,
            shapes,
            decoded,
        }
    })
}

/// The target-independent shape of a mnemonic (GDS rule before target restrictions).
pub(crate) fn base_shape(mnemonic: &str) -> Option<DsShape> {
    tables().shapes.get(mnemonic).copied()
}

/// Apply the target's GDS restrictions: gfx12/gfx1250 have no GDS at all (VDS
/// encoding), and gfx90a/gfx942/gfx950 keep GDS only for GWS-style ops.
pub(crate) fn for_target(target: Target, mut s: DsShape) -> DsShape {
    if target.ds_layout() == DsLayout::Vds
        || (target.gen() == Gen::Gfx90a && s.gds == GdsRule::Optional)
    {
        s.gds = GdsRule::Never;
    }
    s
}

/// Opcode (the 8-bit OP field) and shape of `mnemonic` on `target`, or `None`
/// if LLVM 22 does not define it there. Mnemonics are LLVM's canonical ones for
/// the target (gfx11+ renames such as `ds_load_b32` are distinct names).
pub fn ds_lookup(target: Target, mnemonic: &str) -> Option<(u8, DsShape)> {
    let op = *tables().by_name[target_index(target)].get(mnemonic)?;
    Some((op, for_target(target, base_shape(mnemonic)?)))
}

/// Mnemonic and shape of the 8-bit `opcode` on `target`, or `None` if undefined.
pub fn ds_by_opcode(target: Target, opcode: u8) -> Option<(&'static str, DsShape)> {
    tables().decoded[target_index(target)][opcode as usize]
}

/// All DS mnemonics defined on `target`, in opcode order.
pub fn ds_mnemonics(target: Target) -> impl Iterator<Item = &'static str> {
    tables().by_opcode[target_index(target)]
        .iter()
        .filter_map(|n| *n)
}

/// Targets on which `mnemonic` exists (for "not available on this target" hints).
pub(crate) fn targets_with(mnemonic: &str) -> Vec<Target> {
    Target::ALL
        .into_iter()
        .filter(|t| tables().by_name[target_index(*t)].contains_key(mnemonic))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn target_index_is_the_position_in_all() {
        for (i, t) in Target::ALL.into_iter().enumerate() {
            assert_eq!(target_index(t), i, "{t}");
        }
    }

    #[test]
    fn every_opcode_has_a_shape() {
        for t in Target::ALL {
            let mut n = 0;
            for op in 0..=255u8 {
                if let Some(name) = tables().by_opcode[target_index(t)][op as usize] {
                    assert!(ds_by_opcode(t, op).is_some(), "{t} {name} has no shape");
                    assert_eq!(ds_lookup(t, name).map(|x| x.0), Some(op));
                    n += 1;
                }
            }
            assert_eq!(n, ds_mnemonics(t).count());
        }
    }

    #[test]
    fn wave_level_ops_are_the_gws_and_append_ones() {
        let t = Target::Gfx1100;
        let scope = |m| ds_lookup(t, m).unwrap().1.scope;
        assert_eq!(scope("ds_gws_sema_p"), DsScope::WaveGws);
        assert_eq!(scope("ds_append"), DsScope::WaveMemory);
        assert_eq!(scope("ds_add_u32"), DsScope::Lane);
        let wave = ds_mnemonics(t).filter(|m| ds_lookup(t, m).unwrap().1.scope != DsScope::Lane);
        assert_eq!(wave.count(), 11);
        assert_eq!(scope("ds_ordered_count"), DsScope::WaveMemory);
        assert_eq!(scope("ds_add_gs_reg_rtn"), DsScope::WaveGsReg);
    }

    #[test]
    fn counts_match_isa_facts() {
        let want = [
            131, 139, 144, 154, 154, 124, 128, 132, 154, 123, 126, 126, 123, 128,
        ];
        for (t, w) in Target::ALL.into_iter().zip(want) {
            assert_eq!(ds_mnemonics(t).count(), w, "{t}");
        }
    }
}
