//! AMDGPU targets by LLVM `-mcpu` name and the generation facts that follow from them.
//!
//! Source: LLVM 22 `AMDGPU.td` processor list and `AMDGPUUsage.rst` (processor aliases);
//! encodings per generation from `../shared/notes/isa-facts.md` section 2 (llvm-mc-22 probes).

use std::fmt;
use std::str::FromStr;

/// One of the fourteen targets gcnsmt models, named as LLVM's `-mcpu` names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Target {
    /// GCN 1.0 (Southern Islands, Tahiti); [`Gen::Gfx6`].
    Gfx600,
    /// GCN 1.1 (Sea Islands, Kaveri); [`Gen::Gfx7`].
    Gfx700,
    /// GCN 1.2 (Volcanic Islands, Tonga); [`Gen::Gfx8`].
    Gfx802,
    /// GCN 1.4 (Vega 10); [`Gen::Gfx9`].
    Gfx900,
    /// CDNA 1 (MI100); [`Gen::Gfx9`].
    Gfx908,
    /// CDNA 2 (MI200); [`Gen::Gfx90a`].
    Gfx90a,
    /// CDNA 3 (MI300); [`Gen::Gfx90a`].
    Gfx942,
    /// CDNA 4 (MI350); [`Gen::Gfx90a`].
    Gfx950,
    /// RDNA 1 (Navi 10); [`Gen::Gfx10`].
    Gfx1010,
    /// RDNA 2 (Navi 21); [`Gen::Gfx10`].
    Gfx1030,
    /// RDNA 3 (Navi 31); [`Gen::Gfx11`].
    Gfx1100,
    /// RDNA 3.5; [`Gen::Gfx11`].
    Gfx1150,
    /// RDNA 4; [`Gen::Gfx12`].
    Gfx1200,
    /// gfx1250; [`Gen::Gfx1250`].
    Gfx1250,
}

/// Instruction-set generation: what decides encodings, names and defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Gen {
    /// GCN 1.0 (Southern Islands).
    Gfx6,
    /// GCN 1.1 (Sea Islands).
    Gfx7,
    /// GCN 1.2 (Volcanic Islands).
    Gfx8,
    /// GCN 1.4 (Vega) and CDNA 1 (gfx908).
    Gfx9,
    /// CDNA 2-4 (gfx90a, gfx942, gfx950).
    Gfx90a,
    /// RDNA 1 and 2.
    Gfx10,
    /// RDNA 3 and 3.5.
    Gfx11,
    /// RDNA 4.
    Gfx12,
    /// CDNA 5 (gfx1250).
    Gfx1250,
}

/// DS instruction word layout (LLVM `DSInstructions.td`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DsLayout {
    /// gfx6/gfx7/gfx10/gfx11: OP 25:18, GDS 17.
    Si,
    /// gfx8/gfx9/CDNA: OP 24:17, GDS 16, ACC 25.
    Vi,
    /// gfx12/gfx1250 VDS: OP 25:18, no GDS (bit 17 must be 0).
    Vds,
}

impl Target {
    /// All targets, oldest first.
    pub const ALL: [Target; 14] = [
        Target::Gfx600,
        Target::Gfx700,
        Target::Gfx802,
        Target::Gfx900,
        Target::Gfx908,
        Target::Gfx90a,
        Target::Gfx942,
        Target::Gfx950,
        Target::Gfx1010,
        Target::Gfx1030,
        Target::Gfx1100,
        Target::Gfx1150,
        Target::Gfx1200,
        Target::Gfx1250,
    ];

    /// The LLVM `-mcpu` name.
    pub fn name(self) -> &'static str {
        match self {
            Target::Gfx600 => "gfx600",
            Target::Gfx700 => "gfx700",
            Target::Gfx802 => "gfx802",
            Target::Gfx900 => "gfx900",
            Target::Gfx908 => "gfx908",
            Target::Gfx90a => "gfx90a",
            Target::Gfx942 => "gfx942",
            Target::Gfx950 => "gfx950",
            Target::Gfx1010 => "gfx1010",
            Target::Gfx1030 => "gfx1030",
            Target::Gfx1100 => "gfx1100",
            Target::Gfx1150 => "gfx1150",
            Target::Gfx1200 => "gfx1200",
            Target::Gfx1250 => "gfx1250",
        }
    }

    /// The generation this target belongs to.
    pub fn gen(self) -> Gen {
        match self {
            Target::Gfx600 => Gen::Gfx6,
            Target::Gfx700 => Gen::Gfx7,
            Target::Gfx802 => Gen::Gfx8,
            Target::Gfx900 | Target::Gfx908 => Gen::Gfx9,
            Target::Gfx90a | Target::Gfx942 | Target::Gfx950 => Gen::Gfx90a,
            Target::Gfx1010 | Target::Gfx1030 => Gen::Gfx10,
            Target::Gfx1100 | Target::Gfx1150 => Gen::Gfx11,
            Target::Gfx1200 => Gen::Gfx12,
            Target::Gfx1250 => Gen::Gfx1250,
        }
    }

    /// The DS word layout of this target.
    pub fn ds_layout(self) -> DsLayout {
        match self.gen() {
            Gen::Gfx8 | Gen::Gfx9 | Gen::Gfx90a => DsLayout::Vi,
            Gen::Gfx12 | Gen::Gfx1250 => DsLayout::Vds,
            _ => DsLayout::Si,
        }
    }

    /// Whether ordinary LDS instructions read M0 as the LDS size limit
    /// (gfx6-gfx8; LLVM `ldsRequiresM0Init()`, reviews.llvm.org/D40059).
    pub fn lds_uses_m0(self) -> bool {
        self.gen() <= Gen::Gfx8
    }

    /// Whether `SH_MEM_CONFIG.ALIGNMENT_MODE = UNALIGNED` exists for LDS
    /// (gfx9+; LLVM feature `unaligned-ds-access`).
    pub fn has_unaligned_ds(self) -> bool {
        self.gen() >= Gen::Gfx9
    }

    /// Whether VGPR tuples must start at an even register (gfx90a+, gfx1250;
    /// LLVM `FeatureGFX90AInsts` / `needsAlignedVGPRs`).
    pub fn needs_aligned_vgpr_tuples(self) -> bool {
        matches!(self.gen(), Gen::Gfx90a | Gen::Gfx1250)
    }

    /// Whether AGPRs may be DS data/vdst operands (gfx90a, gfx942, gfx950).
    pub fn has_agpr_ds(self) -> bool {
        self.gen() == Gen::Gfx90a
    }

    /// The LDS size per work-group in bytes (AMD ISA guides; gfx950 has 160 KiB,
    /// gfx1250 320 KiB; 64 KiB elsewhere).
    pub fn max_lds_bytes(self) -> u64 {
        match self {
            Target::Gfx950 => 160 * 1024,
            Target::Gfx1250 => 320 * 1024,
            _ => 64 * 1024,
        }
    }

    /// Whether the target's SRAM ECC is on or "any" by default (LLVM `FeatureSRAMECC` in the
    /// processor's feature list: gfx906, gfx908, gfx90a, gfx942, gfx950, gfx1250), so that LLVM's
    /// `GCNSubtarget::d16PreservesUnusedBits()` (`hasD16LoadStore() &&
    /// !TargetID.isSramEccOnOrAny()`) is false: a D16 load does not keep the other half of its
    /// destination (ROCm/rocMLIR PR #422: on gfx90a `*_load_short_d16_hi` clobbers the low
    /// half; llvm/llvm-project PR #161256: "When sram-ecc is enabled 16-bit loads clobber full
    /// 32-bit VGPR"). gfx906 is therefore not an alias of gfx900 (see [`Target::parse`]).
    pub fn sramecc_default(self) -> bool {
        matches!(
            self,
            Target::Gfx908 | Target::Gfx90a | Target::Gfx942 | Target::Gfx950 | Target::Gfx1250
        )
    }

    /// Whether the target has LLVM's `FeatureLdsMisalignedBug` and `FeatureFlatSegmentOffsetBug`
    /// (gfx1010-gfx1013, LLVM `FeatureISAVersion10_1_Common`): in WGP mode (the default;
    /// `hasLDSMisalignedBug() { return LDSMisalignedBug && !EnableCuMode; }`) a multi-dword LDS
    /// or FLAT access that is not naturally aligned is wrong, and a FLAT instruction's
    /// immediate offset is ignored when it accesses global memory.
    pub fn gfx101x_bugs(self) -> bool {
        self == Target::Gfx1010
    }

    /// Whether the memory-side f32 add of `buffer_atomic_add_f32` honours f32 denormals: LLVM's
    /// `FeatureMemoryAtomicFAddF32DenormalSupport` ("global/flat/buffer atomic fadd for float
    /// supports denormal handling") is in `FeatureISAVersion9_4_Common`, the GFX11 and GFX12
    /// lists and `FeatureISAVersion12_50`, not in gfx908's or gfx90a's. Those two flush f32
    /// denormals whatever MODE says (LLVM review D87864: "Global FP atomic instructions have a
    /// hardcoded FP mode and do not support FP32 denormals"; SIISelLowering selects them there
    /// only for preserve-sign f32 or unsafe FP atomics).
    pub fn mem_fadd_f32_denormals(self) -> bool {
        !matches!(self, Target::Gfx908 | Target::Gfx90a)
    }

    /// What a buffer format store writes into the components of the format it does not supply
    /// (`buffer_store_format_x` into a 32_32_32_32 element): a copy of X on GFX12 (LLVM
    /// `FeatureDefaultComponentBroadcast`, "BUFFER/IMAGE store instructions set unspecified
    /// components to x component (GFX12)", in the GFX12 generation's list, which gfx1250's
    /// `FeatureISAVersion12_50` includes), zero before (`FeatureDefaultComponentZero`, in the
    /// SOUTHERN_ISLANDS .. GFX11 generation lists): true for the copy of X.
    pub fn default_component_broadcast(self) -> bool {
        matches!(self.gen(), Gen::Gfx12 | Gen::Gfx1250)
    }

    /// Parse an `-mcpu` name, one of LLVM's aliases, or a folded triple's architecture.
    pub fn parse(name: &str) -> Option<Target> {
        let n = name.trim().to_ascii_lowercase();
        if let Some(gfx) = unfold_triple_arch(&n) {
            return Target::parse(&gfx);
        }
        let t =
            match n.as_str() {
                // LLVM's processors (`llc-22 -mtriple=amdgcn -mcpu=help`), each checked as the
                // target of its generation: AMDGPUUsage's processor table gives them the same
                // DS/MUBUF/FLAT instructions and encodings; they differ in XNACK, LDS bank count,
                // dot/DL VALU instructions and hardware bugs, not in memory semantics.
                "gfx600" | "tahiti" | "gfx6" | "gfx601" | "pitcairn" | "verde" | "gfx602"
                | "hainan" | "oland" => Target::Gfx600,
                "gfx700" | "kaveri" | "gfx7" | "gfx701" | "hawaii" | "gfx702" | "gfx703"
                | "kabini" | "mullins" | "gfx704" | "bonaire" | "gfx705" => Target::Gfx700,
                // gfx803 (fiji, polaris10/11) and gfx810 (stoney) share gfx802's GCN 1.2 memory
                // instructions and encodings (LLVM's VI subtarget; they differ in XNACK and
                // hardware bugs, not in DS/MUBUF semantics), so they check as gfx802.
                "gfx802" | "iceland" | "tonga" | "tongapro" | "gfx8" | "gfx801" | "carrizo"
                | "gfx803" | "fiji" | "polaris10" | "polaris11" | "gfx805" | "gfx810"
                | "stoney" => Target::Gfx802,
                // gfx906 (Vega 20) is not gfx900: it has SRAM ECC (LLVM `FeatureSRAMECC` in
                // `FeatureISAVersion9_0_6`), so its D16 loads do not keep the other half
                // ([`Target::sramecc_default`]).
                "gfx900" | "gfx9" | "gfx902" | "gfx904" | "gfx909" | "gfx90c" => Target::Gfx900,
                "gfx908" => Target::Gfx908,
                "gfx90a" => Target::Gfx90a,
                "gfx942" | "gfx940" | "gfx941" => Target::Gfx942,
                "gfx950" => Target::Gfx950,
                "gfx1010" | "gfx10" | "gfx1011" | "gfx1012" | "gfx1013" => Target::Gfx1010,
                "gfx1030" | "gfx1031" | "gfx1032" | "gfx1033" | "gfx1034" | "gfx1035"
                | "gfx1036" => Target::Gfx1030,
                "gfx1100" | "gfx11" | "gfx1101" | "gfx1102" | "gfx1103" => Target::Gfx1100,
                "gfx1150" | "gfx1151" | "gfx1152" | "gfx1153" => Target::Gfx1150,
                "gfx1200" | "gfx12" | "gfx1201" => Target::Gfx1200,
                // gfx1251 and the `-generic` processors are not aliases: their instruction sets
                // are not gfx1250's or one generation's, and nothing here says how they differ.
                "gfx1250" => Target::Gfx1250,
                _ => return None,
            };
        Some(t)
    }

    /// Parse a comma-separated list of targets and inclusive ranges
    /// (`gfx6..gfx1250`, `gfx900,gfx1100`, `gfx11..`, `..gfx10`).
    ///
    /// Errors: the offending item.
    pub fn parse_list(s: &str) -> Result<Vec<Target>, String> {
        let mut out = Vec::new();
        for item in s.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            if item == "all" || item == "*" {
                out.extend(Target::ALL);
            } else if let Some((a, b)) = item.split_once("..") {
                let lo = if a.trim().is_empty() {
                    Target::Gfx600
                } else {
                    Target::parse(a).ok_or_else(|| format!("unknown target `{a}`"))?
                };
                let hi = if b.trim().is_empty() {
                    Target::Gfx1250
                } else {
                    Target::parse(b).ok_or_else(|| format!("unknown target `{b}`"))?
                };
                if lo > hi {
                    return Err(format!("empty target range `{item}`"));
                }
                out.extend(Target::ALL.into_iter().filter(|t| *t >= lo && *t <= hi));
            } else {
                out.push(Target::parse(item).ok_or_else(|| format!("unknown target `{item}`"))?);
            }
        }
        out.sort();
        out.dedup();
        Ok(out)
    }
}

/// The `gfx` name of a folded-triple architecture (`amdgpu9.00` -> `gfx900`, `amdgpu9.0a` ->
/// `gfx90a`, `amdgpu12.50` -> `gfx1250`), with or without the triple's vendor and OS
/// (`amdgpu9.00-amd-amdhsa`): LLVM main's RUN lines spell the processor as the triple's
/// architecture, major version, a dot, then the minor version and stepping digits that follow
/// the major version in the `gfx` name (llvm/test/CodeGen/AMDGPU RUN lines, 2026).
fn unfold_triple_arch(n: &str) -> Option<String> {
    let arch = n.strip_prefix("amdgpu")?.split('-').next()?;
    let (major, rest) = arch.split_once('.')?;
    let digits = |s: &str, hex: bool| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_digit() || (hex && c.is_ascii_hexdigit()))
    };
    (digits(major, false) && rest.len() == 2 && digits(rest, true))
        .then(|| format!("gfx{major}{rest}"))
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Target {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Target::parse(s).ok_or_else(|| format!("unknown target `{s}`"))
    }
}

#[cfg(test)]
mod tests {
    /// Every processor `llc-22 -mtriple=amdgcn -mcpu=help` lists (LLVM 22.1.8, 2026-12-04),
    /// with the generation AMDGPUUsage's processor table puts it in; the generic processors
    /// and gfx1251 are not accepted.
    #[test]
    fn llvm_processor_names() {
        let families: &[(&str, &[&str])] = &[
            (
                "gfx600",
                &[
                    "tahiti", "gfx601", "pitcairn", "verde", "gfx602", "hainan", "oland",
                ],
            ),
            (
                "gfx700",
                &[
                    "kaveri", "gfx701", "hawaii", "gfx702", "gfx703", "kabini", "mullins",
                    "gfx704", "bonaire", "gfx705",
                ],
            ),
            (
                "gfx802",
                &[
                    "iceland",
                    "tonga",
                    "tongapro",
                    "gfx801",
                    "carrizo",
                    "gfx803",
                    "fiji",
                    "polaris10",
                    "polaris11",
                    "gfx805",
                    "gfx810",
                    "stoney",
                ],
            ),
            ("gfx900", &["gfx902", "gfx904", "gfx909", "gfx90c"]),
            ("gfx1010", &["gfx1011", "gfx1012", "gfx1013"]),
            (
                "gfx1030",
                &[
                    "gfx1031", "gfx1032", "gfx1033", "gfx1034", "gfx1035", "gfx1036",
                ],
            ),
            ("gfx1100", &["gfx1101", "gfx1102", "gfx1103"]),
            ("gfx1150", &["gfx1151", "gfx1152", "gfx1153"]),
            ("gfx1200", &["gfx1201"]),
        ];
        for (target, names) in families {
            for n in *names {
                assert_eq!(Target::parse(n).map(|t| t.name()), Some(*target), "{n}");
            }
        }
        for n in [
            "gfx9-generic",
            "gfx10-3-generic",
            "gfx12-generic",
            "gfx1251",
            // SRAM ECC (D16 loads clobber the other half), which gfx900 does not have.
            "gfx906",
            "generic",
            "gfx1300",
        ] {
            assert_eq!(Target::parse(n), None, "{n}");
        }
    }

    use super::*;

    /// Folded triples as LLVM main's AMDGPU RUN lines write them (`-mtriple=amdgpu9.00-amd-amdhsa`,
    /// `amdgpu9.0a`, `amdgpu9.42`, `amdgpu12.50`, `amdgpu8.03`), each the processor whose
    /// `gfx` name is the major version followed by the two digits after the dot.
    #[test]
    fn folded_triples() {
        for (triple, target) in [
            ("amdgpu9.00-amd-amdhsa", Target::Gfx900),
            ("amdgpu9.02-amd-amdhsa", Target::Gfx900),
            ("amdgpu9.0a-amd-amdhsa", Target::Gfx90a),
            ("amdgpu9.0a", Target::Gfx90a),
            ("amdgpu9.42", Target::Gfx942),
            ("amdgpu9.50-amd-amdhsa", Target::Gfx950),
            ("amdgpu8.03", Target::Gfx802),
            ("amdgpu7.00-amd-amdhsa", Target::Gfx700),
            ("amdgpu6.01", Target::Gfx600),
            ("amdgpu10.30-amd-amdpal", Target::Gfx1030),
            ("amdgpu11.00", Target::Gfx1100),
            ("amdgpu12.00", Target::Gfx1200),
            ("amdgpu12.50-amd-amdhsa", Target::Gfx1250),
        ] {
            assert_eq!(Target::parse(triple), Some(target), "{triple}");
        }
        for bad in [
            "amdgpu",
            "amdgpu9",
            "amdgpu9.0",
            "amdgpu9.000",
            "amdgpux.00",
            "amdgpu12.51",
        ] {
            assert_eq!(Target::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn ranges_and_aliases() {
        assert_eq!(Target::parse("tonga"), Some(Target::Gfx802));
        let all = Target::parse_list("gfx6..gfx1250").unwrap();
        assert_eq!(all.len(), 14);
        let rdna = Target::parse_list("gfx1010..gfx1100").unwrap();
        assert_eq!(
            rdna,
            vec![Target::Gfx1010, Target::Gfx1030, Target::Gfx1100]
        );
        assert!(Target::parse_list("gfx1100..gfx900").is_err());
    }
}
