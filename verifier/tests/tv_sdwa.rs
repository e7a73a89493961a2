//! SDWA forms, the `_e32` vcc forms and definitions copied from dominating blocks
//! (`tests/data/tv/sdwa/`, written by hand). Every expected verdict is worked out by hand in
//! the header of `sdwa.after.mir` (AMD Vega ISA guide, SDWA), not taken from tv's output;
//! where one input bit decides a refutation, the counterexample must have it.

use serde_json::Value;
use std::path::Path;

fn run() -> Vec<Value> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/sdwa");
    let args = ["--target", "gfx900", "sdwa.before.mir", "sdwa.after.mir"];
    gcnsmt_testkit::tv_blocks(env!("CARGO_BIN_EXE_gcnsmt"), &dir, &args).0
}

fn block<'a>(v: &'a [Value], f: &str, b: &str) -> &'a Value {
    v.iter()
        .find(|x| x["function"] == f && x["block"] == b)
        .unwrap_or_else(|| panic!("no {f} {b} in {v:?}"))
}

/// The value of a register among the counterexample's live-ins.
fn live_in(b: &Value, reg: &str) -> u64 {
    let e = b["counterexample_data"]["live_in"]
        .as_array()
        .and_then(|a| a.iter().find(|e| e["reg"] == reg))
        .unwrap_or_else(|| panic!("no live-in {reg} in {b}"));
    let s = e["value"].as_str().unwrap();
    u64::from_str_radix(s.trim_start_matches("0x"), 16).unwrap()
}

#[test]
fn sdwa_selects_modifiers_and_destination_fields() {
    let v = run();
    let verdict = |f: &str| {
        block(&v, f, "bb.0")["verdict"]
            .as_str()
            .unwrap()
            .to_string()
    };
    // src0_sel BYTE_1 -> BYTE_0: v0 = 0x0000ff00 gives 0xff before, 0 after.
    assert_eq!(verdict("sel_byte1_to_byte0"), "refuted");
    // The SEXT modifier dropped: v0 = 0x8000 gives 0xffffff80 before, 0x80 after; any
    // counterexample needs bit 15 of v0 set (the sign of byte 1), else the two agree.
    let b = block(&v, "sext_dropped", "bb.0");
    assert_eq!(b["verdict"], "refuted", "{b}");
    assert_eq!(live_in(b, "v0") & 0x8000, 0x8000, "{b}");
    // The correct folds: (v0 >> 16) + v1 as a WORD_1 select; ((v0 << 16) >>s 24) & v1 as a
    // sign-extended BYTE_1 select.
    assert_eq!(verdict("fold_lshr_into_sel"), "proved");
    assert_eq!(verdict("fold_ashr_byte_sext"), "proved");
    // UNUSED_PRESERVE -> UNUSED_PAD: v0 = 0, v1 = 1 gives 0x00010001 before, 0x00010000 after.
    assert_eq!(verdict("preserve_vs_pad"), "refuted");
    // UNUSED_SEXT -> UNUSED_PAD on dst BYTE_1: v0 = 0x80 gives 0xffff8000, 0x00008000.
    assert_eq!(verdict("dst_sext_vs_pad"), "refuted");
    // clamp is not modelled: never proved, never refuted.
    let b = block(&v, "clamp_unsupported", "bb.0");
    assert_eq!(b["verdict"], "unsupported", "{b}");
    assert!(b["reason"].as_str().unwrap().contains("clamp"), "{b}");
    // NEG on an f32 source is a flip of bit 31: v_add_f32(v0 ^ 0x80000000, v1) for all inputs.
    assert_eq!(verdict("float_neg_fold"), "proved");
    // NEG on an integer op's source: not modelled (llc-22's encoder drops it).
    assert_eq!(verdict("int_neg_unsupported"), "unsupported");
}

#[test]
fn e32_forms_read_and_write_vcc() {
    let v = run();
    // v_cndmask_b32_e32's sources swapped: v0 = 0 sets the vcc bit, so before picks v2 = 2 and
    // after v1 = 1.
    let b = block(&v, "cndmask_e32_swapped", "bb.0");
    assert_eq!(b["verdict"], "refuted", "{b}");
    // The `_e64` compare and select through an SGPR pair become the `_e32` forms through vcc.
    let b = block(&v, "shrink_to_e32", "bb.0");
    assert_eq!(b["verdict"], "proved", "{b}");
}

#[test]
fn definitions_are_copied_from_dominating_blocks() {
    let v = run();
    // bb.2 defines %2 = %0 >> 16 and is bb.1's only predecessor: 255 & %2 = bfe(%0, 16, 8).
    let b = block(&v, "import_acyclic", "bb.1");
    assert_eq!(b["verdict"], "proved", "{b}");
    // The same with a back edge bb.1 -> bb.2: %0 is defined outside the cycle, so every run of
    // bb.2 writes the same %2 (sdwa.after.mir's notes).
    let b = block(&v, "loop_no_import", "bb.1");
    assert_eq!(b["verdict"], "proved", "{b}");
    // EXEC narrowed around the definition, which only the before-side reads: a lane off there
    // reads an unspecified %2 in the before-program, which the after-program refines.
    let b = block(&v, "import_exec_written", "bb.1");
    assert_eq!(b["verdict"], "proved", "{b}");
}
