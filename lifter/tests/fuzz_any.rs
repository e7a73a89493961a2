//! No-panic fuzzing of [`decode_any`] over arbitrary bytes and [`parse_any`] over arbitrary
//! strings (seeded `rand`, so failures reproduce), plus the decode -> print -> parse ->
//! encode -> decode cycle for every MUBUF/VBUFFER word that decodes.

use gcnsmt_lifter::{decode_any, encode_any, parse_any, Inst};
use gcnsmt_semantics::target::Target;
use rand::{Rng, SeedableRng};

#[test]
fn decode_any_arbitrary_bytes_never_panics() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x6675_7a7a);
    for t in Target::ALL {
        let (mut ok, mut mubuf_ok) = (0, 0);
        for i in 0..60_000 {
            let len = rng.gen_range(0..=16);
            let mut b: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
            if len >= 4 && i % 2 == 0 {
                // Encoding bits: DS, MUBUF (0x38) or VBUFFER (0x31) in bits 31:26.
                let enc = [0x36u8, 0x38, 0x31][rng.gen_range(0..3)];
                b[3] = (b[3] & 0x03) | (enc << 2);
                if i % 4 == 0 && len >= 8 {
                    b[5] &= 0x3f; // small vdata
                    b[4] &= 0x3f;
                }
            }
            match decode_any(t, &b) {
                Ok(inst) => {
                    ok += 1;
                    let bytes = encode_any(&inst);
                    assert_eq!(bytes.len(), inst.len());
                    assert_eq!(decode_any(t, &bytes).as_ref(), Ok(&inst), "{t} {b:02x?}");
                    if let Inst::Mubuf(_) = inst {
                        mubuf_ok += 1;
                        let text = inst.to_string();
                        let p = parse_any(t, &text).unwrap_or_else(|e| panic!("{t} `{text}`: {e}"));
                        assert_eq!(p.to_string(), text, "{t}");
                        // gfx12 atomics print TH 4/5 (6/7) with scope DEV/SYS alike as
                        // TH_ATOMIC_CASCADE_RT (_NT); llvm-mc assembles that to 4 (6), as we do.
                        let ambiguous = matches!(&inst, Inst::Mubuf(m)
                            if m.cpol.th >= 4 && m.cpol.scope >= 2);
                        if !ambiguous {
                            assert_eq!(p, inst, "{t} `{text}`");
                        }
                    }
                }
                Err(e) => assert!(e.to_string().starts_with(".long 0x"), "{e}"),
            }
        }
        println!("{t}: {ok} of 60000 decoded ({mubuf_ok} MUBUF/VBUFFER)");
        assert!(mubuf_ok > 100, "{t}");
    }
}

#[test]
fn parse_any_arbitrary_strings_never_panics() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x7061_7273);
    let pieces = [
        "buffer_load_dword",
        "buffer_store_b32",
        "tbuffer_load_format_x",
        "buffer_wbinvl1",
        "buffer_atomic_add",
        "ds_add_u32",
        "buffer_store_lds_dword",
        " ",
        ",",
        "v",
        "a",
        "s",
        "[",
        "]",
        ":",
        "v[2:3]",
        "s[8:11]",
        "ttmp[4:7]",
        "off",
        "null",
        "m0",
        "-1",
        "0.5",
        "offen",
        "idxen",
        "addr64",
        "glc",
        "slc",
        "dlc",
        "scc",
        "sc0",
        "sc1",
        "nt",
        "nv",
        "tfe",
        "lds",
        "offset:",
        "4095",
        "99999999999999999999",
        "th:",
        "TH_LOAD_NT",
        "scope:",
        "SCOPE_SYS",
        "format:",
        "[BUF_FMT_32_FLOAT]",
        "0x",
        "ff",
        ";",
        "//",
        "(",
        ")",
        "{",
        "}",
        "é",
        "\u{0}",
        "\t",
        "-",
        "%x",
    ];
    for t in Target::ALL {
        for _ in 0..20_000 {
            let n = rng.gen_range(0..12);
            let s: String = (0..n)
                .map(|_| pieces[rng.gen_range(0..pieces.len())])
                .collect();
            if let Ok(inst) = parse_any(t, &s) {
                // Whatever parses prints canonically and round-trips through the encoder.
                let again = decode_any(t, &encode_any(&inst)).expect("parsed inst encodes validly");
                if !matches!(&inst, Inst::Ds(d) if d.mnemonic == "ds_swizzle_b32") {
                    assert_eq!(again, inst, "{t} `{s}`");
                }
            }
        }
    }
}
