//! The fifteenth breaker's wrong proofs of target facts the model missed
//! (`tests/data/tv/break15/README.md` says why each pair is wrong): D16 loads on SRAM-ECC
//! targets, gfx101x's FLAT-offset and LDS-misalignment bugs, gfx9's f16 ops that keep bits
//! 31:16, gfx950's 18-bit LDS-DMA M0 and `v_lshl_add_u64` shifts above 4. Each pair is never
//! proved; a correct variant (another target, or an aligned address, a shift of 4) still is.

use std::path::PathBuf;

fn dir() -> PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/break15")
}

fn pair(n: &str) -> (String, String) {
    (format!("{n}.before.mir"), format!("{n}.after.mir"))
}

#[test]
fn the_fifteenth_breakers_pairs_are_never_proved() {
    for (n, targets) in [
        (
            "02-d16-preserve-sramecc",
            &["gfx908", "gfx90a", "gfx942", "gfx950", "gfx1250"][..],
        ),
        (
            "03-flat-offset-gfx1010",
            &["gfx1010", "gfx1011", "gfx1013"][..],
        ),
        ("06-lds-misaligned-gfx1010", &["gfx1010", "gfx1012"][..]),
        ("07-gfx9-f16-madak-high-half", &["gfx900", "gfx90a"][..]),
        ("07-madmk", &["gfx900"][..]),
        ("13-lds-dma-m0-gfx950", &["gfx950"][..]),
        ("19-lshl-add-u64-shift-gt4", &["gfx942", "gfx950"][..]),
    ] {
        let (b, a) = pair(n);
        for t in targets {
            let label = format!("{n} on {t}");
            gcnsmt_testkit::assert_never_proved(
                env!("CARGO_BIN_EXE_gcnsmt"),
                &dir(),
                &label,
                [&b, &a],
                &["--target", t],
            );
        }
    }
}

/// The correct variants, each worked out by hand in the README: the D16 pair where D16 loads
/// keep the other half (gfx900: no SRAM ECC); the FLAT offset fold where the offset is applied
/// (gfx1030: no flat-segment-offset bug); the 64-bit LDS read at an 8-aligned address on gfx1010;
/// the f16 MADAK pair on gfx8 (LLVM zeroesHigh16BitsOfDest: bits 31:16 zeroed there, so the
/// earlier value is dead); the lshl_add fold with a shift of 4.
#[test]
fn the_correct_variants_are_still_proved() {
    for (n, t) in [
        ("02-d16-preserve-sramecc", "gfx900"),
        ("03-flat-offset-gfx1010", "gfx1030"),
        ("06-aligned", "gfx1010"),
        ("06-lds-misaligned-gfx1010", "gfx1030"),
        ("07-gfx9-f16-madak-high-half", "gfx802"),
        ("19-shift4", "gfx942"),
    ] {
        let (b, a) = pair(n);
        let (v, why) = gcnsmt_testkit::tv_changed(
            env!("CARGO_BIN_EXE_gcnsmt"),
            &dir(),
            &[&b, &a, "--target", t],
        );
        assert_eq!(v, "proved", "{n} on {t}: {why}");
    }
}

/// gfx906 has SRAM ECC (LLVM `FeatureSRAMECC` in `FeatureISAVersion9_0_6`), gfx900 does not:
/// gfx906 is no longer checked as gfx900, whose D16 loads keep the other half.
#[test]
fn gfx906_is_not_gfx900() {
    let (b, a) = pair("02-d16-preserve-sramecc");
    let r = gcnsmt_testkit::run_at(
        Some(&dir()),
        env!("CARGO_BIN_EXE_gcnsmt"),
        &["tv", &b, &a, "--target", "gfx906"],
        None,
        &[],
    );
    assert!(!r.stdout.contains(": proved"), "{}", r.stdout);
    assert_ne!(r.code, 0, "{}{}", r.stdout, r.stderr);
}
