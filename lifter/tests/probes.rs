//! llvm-mc-22 encoding probes (`tests/data/roundtrip/ds_encoding_probes_llvm22.txt`):
//! GDS bits, AGPR (ACC bit 25) operands on gfx90a/gfx942/gfx950, offsets.

use gcnsmt_lifter::{decode_bytes, encode_bytes, parse_asm, RegFile};
use gcnsmt_semantics::target::Target;

#[test]
fn encoding_probes() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/roundtrip/ds_encoding_probes_llvm22.txt");
    let text = std::fs::read_to_string(path).expect("probe file");
    let mut target = None;
    let (mut n, mut agpr) = (0, 0);
    for line in text.lines() {
        if let Some(t) = line.strip_prefix("== ") {
            target = Some(Target::parse(t).expect("target"));
            continue;
        }
        let Some((asm, enc)) = line.split_once(';') else {
            continue;
        };
        let t = target.expect("section");
        let asm = asm.trim();
        let bytes = gcnsmt_testkit::hex_bytes(enc);
        let dec = decode_bytes(t, &bytes).unwrap_or_else(|e| panic!("{t} `{asm}`: {e}"));
        assert_eq!(dec.to_string(), asm, "{t} decode");
        let parsed = parse_asm(t, asm).unwrap_or_else(|e| panic!("{t} `{asm}`: {e}"));
        if asm.contains("swizzle(") {
            // These bytes came from `offset:65535`; the macro re-assembles to the canonical 0xe01f.
            assert_eq!(parsed.to_string(), asm);
        } else {
            assert_eq!(
                encode_bytes(&parsed).as_slice(),
                bytes.as_slice(),
                "{t} `{asm}`"
            );
        }
        agpr += usize::from(dec.uses_agpr());
        n += 1;
    }
    println!("{n} probe lines, {agpr} with AGPRs");
    assert!(n > 150 && agpr >= 6);
}

#[test]
fn agpr_tuples_roundtrip() {
    // Checked with llvm-mc-22 -mcpu=gfx90a -show-encoding.
    let cases: &[(&str, [u8; 8])] = &[
        (
            "ds_add_rtn_u32 a1, v2, a3",
            [0x00, 0x00, 0x40, 0xda, 0x02, 0x03, 0x00, 0x01],
        ),
        (
            "ds_min_rtn_u64 a[92:93], v116, a[78:79]",
            [0x00, 0x00, 0xce, 0xda, 0x74, 0x4e, 0x00, 0x5c],
        ),
        (
            "ds_gws_init a2 gds",
            [0x00, 0x00, 0x33, 0xdb, 0x02, 0x00, 0x00, 0x00],
        ),
    ];
    for t in [Target::Gfx90a, Target::Gfx942, Target::Gfx950] {
        for (asm, bytes) in cases {
            let inst = parse_asm(t, asm).unwrap_or_else(|e| panic!("{t} {asm}: {e}"));
            assert_eq!(&encode_bytes(&inst), bytes, "{t} {asm}");
            let dec = decode_bytes(t, bytes).unwrap();
            assert_eq!(dec.to_string(), *asm);
            assert!(dec.operands().any(|r| r.file == RegFile::A));
        }
    }
}

#[test]
fn gfx90a_drops_gds_bit_of_lds_ops() {
    // llvm-mc-22 --disassemble -mcpu=gfx90a: [0x00,0x00,0x01,0xd8,...] prints `ds_add_u32 v2, v20`.
    let inst = decode_bytes(
        Target::Gfx90a,
        &[0x00, 0x00, 0x01, 0xd8, 0x02, 0x14, 0x00, 0x00],
    )
    .unwrap();
    assert_eq!(inst.to_string(), "ds_add_u32 v2, v20");
    assert!(!inst.gds);
    // ...but an op without any GDS form is invalid with the bit set.
    assert!(decode_bytes(
        Target::Gfx90a,
        &[0x00, 0x00, 0x7f, 0xd8, 0x14, 0x28, 0x00, 0x02]
    )
    .is_err());
}
