//! Each assembler and decoder error kind, with its column and message.

use gcnsmt_lifter::{decode, parse_asm, parse_syntax, DecodeErrorKind};
use gcnsmt_semantics::target::Target;

fn asm_err(t: Target, line: &str) -> (usize, String) {
    let e = parse_asm(t, line).expect_err(line);
    println!("{t} `{line}` -> {e}");
    (e.col, e.msg)
}

#[track_caller]
fn check(t: Target, line: &str, col: usize, needle: &str) {
    let (c, msg) = asm_err(t, line);
    assert_eq!(c, col, "`{line}`: {msg}");
    assert!(msg.contains(needle), "`{line}`: `{msg}` lacks `{needle}`");
}

#[test]
fn asm_errors() {
    use Target::*;
    check(
        Gfx900,
        "ds_frob_b32 v1, v2",
        1,
        "unknown DS mnemonic `ds_frob_b32`",
    );
    check(
        Gfx1100,
        "  ds_read_b32 v1, v2",
        3,
        "not available on gfx1100",
    );
    check(Gfx900, "ds_load_b32 v1, v2", 1, "it exists on gfx1100");
    check(
        Gfx900,
        "ds_add_u32 v1, v2, v3",
        20,
        "takes 2 operand(s) (addr, data0), got 3",
    );
    check(Gfx900, "ds_add_u32 v1", 14, "takes 2 operand(s)");
    check(
        Gfx900,
        "ds_read2_b32 v2, v1",
        14,
        "ds_read2_b32 needs a 2-register tuple for vdst, got v2",
    );
    check(
        Gfx900,
        "ds_write_b64 v1, v[2:4]",
        18,
        "needs a 2-register tuple for data0",
    );
    check(
        Gfx90a,
        "ds_read_b64 v[3:4], v1",
        13,
        "needs an even-aligned register for vdst",
    );
    check(Gfx1250, "ds_load_b64 v[3:4], v1", 13, "even-aligned");
    check(Gfx90a, "ds_gws_init v3 gds", 13, "even-aligned");
    assert!(parse_asm(Gfx900, "ds_read_b64 v[3:4], v1").is_ok());
    check(
        Gfx900,
        "ds_read_b32 a1, v2",
        13,
        "AGPRs are not allowed as DS operands on gfx900",
    );
    check(
        Gfx90a,
        "ds_read_b32 a1, a2",
        17,
        "address of ds_read_b32 must be a VGPR",
    );
    check(
        Gfx90a,
        "ds_add_rtn_u32 v1, v2, a3",
        24,
        "all VGPRs or all AGPRs",
    );
    check(Gfx900, "ds_read_b64 v[255:256], v1", 13, "out of range");
    check(
        Gfx900,
        "ds_add_u32 v1, s2",
        16,
        "expected a register for data0, got `s2`",
    );
    check(
        Gfx900,
        "ds_add_u32 v1, v2 offset:65536",
        26,
        "offset must be in [0, 65535], got 65536",
    );
    check(
        Gfx900,
        "ds_add_u32 v1, v2 offset:-1",
        26,
        "offset must be in [0, 65535]",
    );
    check(
        Gfx900,
        "ds_read2_b32 v[2:3], v1 offset0:1 offset1:256",
        43,
        "offset1 must be in [0, 255], got 256",
    );
    check(
        Gfx900,
        "ds_read2_b32 v[2:3], v1 offset:4",
        25,
        "use offset0:N offset1:N",
    );
    check(Gfx900, "ds_add_u32 v1, v2 offset0:4", 19, "use offset:");
    check(Gfx900, "ds_nop offset:4", 8, "ds_nop takes no offset:");
    check(
        Gfx900,
        "ds_add_u32 v1, v2 offset:zz",
        26,
        "expected an integer offset",
    );
    check(
        Gfx900,
        "ds_add_u32 v1, v2 offset:4 offset:8",
        28,
        "duplicate modifier",
    );
    check(
        Gfx900,
        "ds_add_u32 v1, v2 glc",
        19,
        "expected `,` or a modifier",
    );
    check(
        Gfx900,
        "ds_add_u32 v1, v2 lds:1",
        19,
        "unknown modifier `lds`",
    );
    check(
        Gfx90a,
        "ds_add_u32 v1, v2 gds",
        19,
        "gds is not allowed for ds_add_u32 on gfx90a",
    );
    check(Gfx1200, "ds_add_u32 v1, v2 gds", 19, "gds is not allowed");
    check(
        Gfx900,
        "ds_permute_b32 v1, v2, v3 gds",
        27,
        "gds is not allowed",
    );
    check(Gfx900, "ds_gws_init v2", 15, "ds_gws_init requires gds");
    check(
        Gfx900,
        "ds_ordered_count v2, v20 offset:4",
        34,
        "requires gds",
    );
    check(
        Gfx802,
        "ds_swizzle_b32 v2, v20 offset:swizzle(FFT,1)",
        31,
        "requires gfx9+",
    );
    check(
        Gfx900,
        "ds_swizzle_b32 v2, v20 offset:swizzle(SWAP,3)",
        31,
        "power of two",
    );
    check(
        Gfx900,
        "ds_add_u32 v1, v2 offset:swizzle(FFT,1)",
        26,
        "only valid for ds_swizzle_b32",
    );
    check(
        Gfx900,
        "ds_add_u32 v1,",
        15,
        "expected an operand after `,`",
    );
    check(Gfx900, "ds_add_u32 v[1:2", 12, "missing `]`");
    check(Gfx900, "", 1, "expected a mnemonic");
}

#[test]
fn asm_accepts_llvm_spellings() {
    let t = Target::Gfx900;
    let a = parse_asm(t, "ds_add_u32 v[1], v2 offset:0x10 gds ; comment").unwrap();
    assert_eq!(a.to_string(), "ds_add_u32 v1, v2 offset:16 gds");
    let b = parse_asm(t, "ds_read2_b32 v[2:3], v1 offset1:0b11").unwrap();
    assert_eq!(b.to_string(), "ds_read2_b32 v[2:3], v1 offset1:3");
    let c = parse_asm(
        t,
        "ds_swizzle_b32 v2, v20 offset:swizzle(QUAD_PERM, 0, 1, 2, 3)",
    )
    .unwrap();
    assert_eq!(
        c.to_string(),
        "ds_swizzle_b32 v2, v20 offset:swizzle(QUAD_PERM,0,1,2,3)"
    );
    assert_eq!(c.offset16(), 0x80e4);
    let d = parse_asm(t, "ds_add_u32 v1, v2 offset:0").unwrap();
    assert_eq!(d.to_string(), "ds_add_u32 v1, v2");
}

#[test]
fn syntax_layer_keeps_raw_text() {
    let s = parse_syntax("  ds_write2_b32 %a, {%x, %y}, v[4:5] offset0:%o+4 offset1:0x10 gds // c")
        .unwrap();
    assert_eq!(s.mnemonic, "ds_write2_b32");
    assert_eq!(s.mnemonic_col, 3);
    assert_eq!(
        s.operands,
        vec![
            ("%a".to_string(), 17),
            ("{%x, %y}".to_string(), 21),
            ("v[4:5]".to_string(), 31)
        ]
    );
    assert_eq!(
        s.modifiers,
        vec![
            ("offset0".to_string(), Some("%o+4".to_string()), 38),
            ("offset1".to_string(), Some("0x10".to_string()), 51),
            ("gds".to_string(), None, 64),
        ]
    );
    let g = parse_syntax("ds_gws_sema_v offset:4 gds").unwrap();
    assert!(g.operands.is_empty());
    assert_eq!(g.modifiers.len(), 2);
}

type DecodeCase = (Target, u64, fn(&DecodeErrorKind) -> bool);

#[test]
fn decode_errors() {
    use DecodeErrorKind::*;
    let cases: &[DecodeCase] = &[
        (Target::Gfx900, 0x0000_0000_0000_0000, |k| {
            matches!(k, NotDs(0))
        }),
        (Target::Gfx1200, 0x0000_0000_d800_0000 | (0xe3 << 18), |k| {
            matches!(k, UnknownOpcode { .. })
        }),
        (Target::Gfx1200, 0x0000_1402_d802_0000, |k| {
            matches!(k, GdsBitOnVds { .. })
        }),
        (Target::Gfx900, 0x0000_1428_d87e_0002 | (1 << 16), |k| {
            matches!(k, GdsNotAllowed { .. })
        }),
        (Target::Gfx900, 0x0000_0002_d932_0000, |k| {
            matches!(k, GdsMissing { .. })
        }),
        (Target::Gfx900, 0x0000_1402_da00_0000, |k| {
            matches!(k, AccNotAllowed { .. })
        }),
        (Target::Gfx90a, 0x0000_0000_da28_0000, |k| {
            matches!(k, AccNotAllowed { .. })
        }),
        (Target::Gfx900, 0x0028_1402_d800_0000, |k| {
            matches!(
                k,
                UnusedFieldSet {
                    field: "data1 (bits 55:48)",
                    ..
                }
            )
        }),
        (Target::Gfx900, 0xff00_0014_d8ec_0000, |k| {
            matches!(k, TupleOutOfRange { .. })
        }),
        (Target::Gfx90a, 0x0300_0014_d8ec_0000, |k| {
            matches!(k, MisalignedTuple(..))
        }),
    ];
    for (t, w, pred) in cases {
        let e = decode(*t, *w).expect_err(&format!("{t} {w:#x}"));
        println!("{t} {w:#018x}: {e}");
        assert!(pred(&e.kind), "{t} {w:#x}: {e}");
        assert!(e.to_string().starts_with(&format!(
            ".long {:#010x}, {:#010x} ; ",
            *w as u32,
            (*w >> 32) as u32
        )));
    }
}
