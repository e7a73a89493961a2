//! The settings table's own tests (split from settings.rs for its length).

use super::*;

#[test]
fn every_listed_value_is_accepted() {
    for (name, values) in SETTINGS {
        for v in *values {
            let mut s = Settings::default_for(Target::Gfx900);
            assert_eq!(s.set(Target::Gfx900, name, &v.to_ascii_lowercase()), Ok(()));
            // The printed settings name the value just set.
            let all: Vec<&str> = SETTINGS.iter().map(|(n, _)| *n).collect();
            let text = s.text(&all);
            assert!(text.contains(&format!("{name}={v}")), "{name}={v}: {text}");
        }
    }
}

#[test]
fn every_setting_is_printed_by_one_group() {
    for (name, _) in SETTINGS {
        let n = groups::ALL.iter().filter(|g| g.contains(name)).count();
        assert_eq!(n, 1, "{name} is in {n} groups");
    }
    let grouped: usize = groups::ALL.iter().map(|g| g.len()).sum();
    assert_eq!(
        grouped,
        SETTINGS.len(),
        "a group names a setting that does not exist"
    );
}

#[test]
fn errors_name_the_choices() {
    let mut s = Settings::default_for(Target::Gfx900);
    assert_eq!(
        s.set(Target::Gfx900, "lds_limit", "x"),
        Err("unknown lds_limit `x` (M0, ALLOC or NONE)".into())
    );
    assert_eq!(
        s.set(Target::Gfx900, "colour", "RED"),
        Err(
            "unknown setting `colour` (alignment, lds_limit, buffer_soffset, buffer_oob, \
             buffer_offset, sbuffer_size, sbuffer_offset, flat_aperture, fp32_denorm, \
             ieee_mode, lds_dma_m0, lds_dma_offset, addtid_m0, append_addr, gfx6_negative_base, buffer_struct, buffer_swizzle, bvh_pop, \
             bvh_invalid, d16_unused, lds_misaligned, flat_offset, sici_soffset_clamp)"
                .into()
        )
    );
    assert!(s.set(Target::Gfx802, "alignment", "UNALIGNED").is_err());
    assert!(settings_help().starts_with("alignment=DWORD|UNALIGNED|STRICT, lds_limit="));
    assert!(settings_help().ends_with(
        "bvh_invalid=ALL_ONES|TOP29, d16_unused=PRESERVED|UNDEFINED, \
         lds_misaligned=DEFINED|UNDEFINED, flat_offset=APPLIED|IGNORED, \
         sici_soffset_clamp=UNDEFINED|DEFINED"
    ));
    // LLVM splitMUBUFOffset: SI and CI (`<= SEA_ISLANDS`) clamp wrongly with SOFFSET.
    assert_eq!(
        (
            Settings::default_for(Target::Gfx700).sici_soffset_clamp,
            Settings::default_for(Target::Gfx802).sici_soffset_clamp
        ),
        (SiciSoffsetClamp::Undefined, SiciSoffsetClamp::Defined)
    );
    let d = Settings::default_for;
    // ROCm comgr comgr-hotswap-patch-trampoline.cpp: gfx1250 B0 reads M0[19:0] for ADDTID.
    assert_eq!(
        (d(Target::Gfx1250).addtid_m0, d(Target::Gfx950).addtid_m0),
        (AddtidM0::Bits20, AddtidM0::Bits16)
    );
    // Target facts (LLVM d16PreservesUnusedBits, FeatureLdsMisalignedBug,
    // FeatureFlatSegmentOffsetBug, gfx950's 160 KiB LDS).
    assert_eq!(
        (d(Target::Gfx900).d16_unused, d(Target::Gfx90a).d16_unused),
        (D16Unused::Preserved, D16Unused::Undefined)
    );
    assert_eq!(
        (
            d(Target::Gfx1010).flat_offset,
            d(Target::Gfx1030).flat_offset
        ),
        (FlatOffset::Ignored, FlatOffset::Applied)
    );
    assert_eq!(
        (
            d(Target::Gfx1010).lds_misaligned,
            d(Target::Gfx1030).lds_misaligned
        ),
        (LdsMisaligned::Undefined, LdsMisaligned::Defined)
    );
    assert_eq!(
        (d(Target::Gfx942).lds_dma_m0, d(Target::Gfx950).lds_dma_m0),
        (LdsDmaM0::Bits16, LdsDmaM0::Bits18)
    );
    let d = Settings::default_for;
    assert_eq!(
        (
            d(Target::Gfx1100).append_addr,
            d(Target::Gfx1200).append_addr
        ),
        (AppendAddr::M0Base, AppendAddr::Offset)
    );
    assert_eq!(
        (d(Target::Gfx802).fp32_denorm, d(Target::Gfx900).fp32_denorm),
        (Fp32Denorm::Flush, Fp32Denorm::Preserve)
    );
    // LLVM isDSOffsetLegal: only Southern Islands (gfx6) mistreats a negative base.
    assert_eq!(
        (
            d(Target::Gfx600).gfx6_negative_base,
            d(Target::Gfx700).gfx6_negative_base
        ),
        (Gfx6NegativeBase::Undefined, Gfx6NegativeBase::Defined)
    );
}
