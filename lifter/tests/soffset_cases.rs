//! SOFFSET operands whose numbering differs by generation, against llvm-mc-22's encodings
//! (`llvm-mc-22 -arch=amdgcn -mcpu=<cpu> -show-encoding`, run 2026-11-29; gfx6/gfx7 checked by
//! assembling, since LLVM 22 cannot disassemble them). Found by a new user's session.

use gcnsmt_lifter::any::{encode_any, parse_any};
use gcnsmt_semantics::target::Target;

fn enc(t: Target, asm: &str) -> Option<Vec<u8>> {
    parse_any(t, asm).ok().map(|i| encode_any(&i))
}

#[test]
fn soffset_numbering_follows_llvm() {
    // gfx7: flat_scratch is 0x68; gfx6/gfx7 have s102/s103 (0x66/0x67).
    assert_eq!(
        enc(
            Target::Gfx700,
            "buffer_load_dword v1, off, s[4:7], flat_scratch_lo"
        )
        .unwrap()[7],
        0x68
    );
    assert_eq!(
        enc(Target::Gfx600, "buffer_load_dword v1, off, s[4:7], s102").unwrap()[7],
        0x66
    );
    assert_eq!(
        enc(Target::Gfx700, "buffer_load_dword v1, off, s[4:7], s103").unwrap()[7],
        0x67
    );
    // gfx9: flat_scratch is 0x66; an inline constant 1 is 0x81.
    assert_eq!(
        enc(
            Target::Gfx900,
            "buffer_load_dword v1, off, s[4:7], flat_scratch_lo"
        )
        .unwrap()[7],
        0x66
    );
    assert_eq!(
        enc(Target::Gfx900, "buffer_load_dword v1, off, s[4:7], 1").unwrap()[7],
        0x81
    );
}

#[test]
fn vbuffer_soffset_has_no_inline_constants() {
    // llvm-mc-22: "operands are not valid for this GPU or mode".
    for t in [Target::Gfx1200, Target::Gfx1250] {
        for c in ["0", "1", "64", "-16"] {
            let asm = format!("buffer_load_b32 v1, off, s[4:7], {c}");
            assert!(enc(t, &asm).is_none(), "{t}: `{asm}` must be rejected");
        }
    }
}
