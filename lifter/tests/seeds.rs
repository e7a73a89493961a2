//! The instruction words shown on the seed pages the project was specified from decode to the
//! instructions those pages name, on the generations they name. The identifiers are copied
//! here (the pages live in ../shared/seeds/, which tests must not read):
//! - seed 002 (ds_cmpst_rtn_f32): ENC_DS, AMD CDNA 4, identifier 0x00000000D8620000, opcode 49,
//!   "the same in AMD CDNA 3, AMD CDNA 2";
//! - seed 003 (ds_load_2addr_stride64_b64, also written ds_read2st64_b64): ENC_VDS, AMD CDNA 5,
//!   identifier 0x00000000D9E00000, opcode 120, "the same in AMD RDNA 4";
//! - seed 004 (buffer_atomic_sub_x2, also written buffer_atomic_sub_u64): ENC_MUBUF, AMD CDNA 4,
//!   identifier 0x00000000E18C0000, opcode 99, "the same in AMD CDNA 3".

use gcnsmt_lifter::any::decode_any;
use gcnsmt_semantics::target::Target;

fn decodes_to(target: Target, word: u64, mnemonic: &str) {
    let bytes = word.to_le_bytes();
    match decode_any(target, &bytes) {
        Ok(i) => assert_eq!(
            i.mnemonic(),
            mnemonic,
            "{target}: 0x{word:016x} decodes to {i}"
        ),
        Err(e) => panic!("{target}: 0x{word:016x} does not decode: {e}"),
    }
}

#[test]
fn seed_002_ds_cmpst_rtn_f32_on_cdna() {
    for t in [Target::Gfx950, Target::Gfx942, Target::Gfx90a] {
        decodes_to(t, 0x0000_0000_D862_0000, "ds_cmpst_rtn_f32");
    }
}

#[test]
fn seed_003_ds_load_2addr_stride64_b64_on_cdna5_and_rdna4() {
    for t in [Target::Gfx1250, Target::Gfx1200] {
        decodes_to(t, 0x0000_0000_D9E0_0000, "ds_load_2addr_stride64_b64");
    }
}

#[test]
fn seed_004_buffer_atomic_sub_x2_on_cdna() {
    for t in [Target::Gfx950, Target::Gfx942] {
        decodes_to(t, 0x0000_0000_E18C_0000, "buffer_atomic_sub_x2");
    }
}
