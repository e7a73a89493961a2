//! Snapshot tests (insta) of the `gcnsmt` binary's main outputs: `verify` in text (proved,
//! refuted with a counterexample, unknown, inapplicable, an input error) and JSON, `encode`,
//! `decode`, `lift`, `tv` (proved, a planted refutation, JSON), `spec-check`, `atomics` and the
//! top-level `--help`.
//!
//! Each snapshot (`snapshots/*.snap` beside this file) is the command line, its exit code and
//! both output streams, with wall times redacted by insta's filters
//! (`gcnsmt_testkit::redact::FILTERS`). The snapshots are the expected outputs, and each was
//! reviewed once by hand against the independent source named in its test (llvm-mc-22 for
//! encodings, a hand computation for counterexample values). After a deliberate change of
//! output: `cargo insta review` (or `INSTA_UPDATE=always`), then review the diff the same way;
//! see docs/testing.md.
//!
//! All commands run in the workspace root, as a user would type them there, on the one binary
//! cargo builds for the integration tests; the whole file takes a few seconds.

use gcnsmt_testkit::{redact::insta_settings, TempDir};

/// `$ gcnsmt ARGS`, then the exit code and both streams of running it in the workspace root.
fn gcnsmt(args: &[&str]) -> String {
    let r = gcnsmt_testkit::run_in_root(env!("CARGO_BIN_EXE_gcnsmt"), args);
    let line: Vec<String> = args
        .iter()
        .map(|a| {
            if a.contains([' ', ',', '[', '{']) {
                format!("'{a}'")
            } else {
                a.to_string()
            }
        })
        .collect();
    format!("$ gcnsmt {}\n{}", line.join(" "), r.context())
}

/// Snapshot `name` of `gcnsmt ARGS`, its description saying what the snapshot was reviewed
/// against.
fn snap(name: &str, reviewed_against: &str, args: &[&str]) {
    let mut s = insta_settings();
    s.set_description(reviewed_against);
    s.bind(|| insta::assert_snapshot!(name, gcnsmt(args)));
}

#[test]
fn help() {
    snap(
        "help",
        "the subcommands of verifier/src/cli/mod.rs; exit 0",
        &["--help"],
    );
}

#[test]
fn equiv_cmpst_gfx1030_to_gfx1100() {
    // LLVM DSInstructions.td: gfx11 renamed ds_cmpst_* to ds_cmpstore_* and swapped DATA0 and
    // DATA1. Hand check of the witness (LDS word 0 is 0): gfx1030 compares with DATA0 = %x =
    // 0x80, unequal, no store; gfx1100 compares with DATA1 = %y = 0, equal, and stores DATA0 =
    // 0x80: LDS[0x0] differs.
    snap(
        "equiv_cmpst",
        "ds_cmpst_rtn_b32 vs ds_cmpstore_rtn_b32 differ at LDS[0x0]; exit 0",
        &[
            "equiv",
            "--from",
            "gfx1030",
            "--to",
            "gfx1100",
            "--op",
            "ds_cmpst_rtn_b32",
        ],
    );
}

#[test]
fn verify_cross_target_refuted() {
    // Hand check: LDS word 0 is 0, v1 = 0x80, v2 = 0. gfx1030 ds_cmpst compares with DATA0 =
    // v1 = 0x80, unequal, stores nothing; gfx1100 ds_cmpstore compares with DATA1 = v2 = 0,
    // equal, stores DATA0 = v1 = 0x80. Both return the old value 0 in v0.
    snap(
        "verify_cross_target",
        "the same word on gfx1030 and gfx1100: source steps on gfx1030, target steps on \
         gfx1100; exit 0 (refuted as expected)",
        &[
            "verify",
            "proofs/cross_target.rules",
            "--filter",
            "xt-ds-cmpst-same-word-gfx1030-gfx1100",
            "--no-matrix",
        ],
    );
}

#[test]
fn verify_proved_and_refuted() {
    // A proof and a counterexample. Hand computation: %o = 190 is not a multiple of 4, so the
    // source reads LDS[190..193] = be bf c0 c1 (x = 0xc1c0bfbe) and LDS[194..197] (y =
    // 0xc5c4c3c2), while ds_read2_b32 with offset0 = 190/4 = 47 and offset1 = 48 reads
    // LDS[188..191] (0xbfbebdbc) and LDS[192..195] (0xc3c2c1c0): the initial bytes are the low
    // bytes of their addresses, as printed. The merge itself is SILoadStoreOptimizer's (mergeRead2Pair); the
    // settings are gfx900's defaults (README, Targets).
    snap(
        "verify_proved_and_refuted",
        "hand computation of the read2 addresses (OFFSET0*4, OFFSET1*4, AMD Vega ISA guide)",
        &[
            "verify",
            "proofs/ds_merge.rules",
            "--filter",
            "ds-read2-b32-merge",
            "--target",
            "gfx900",
        ],
    );
}

#[test]
fn verify_refuted_cmpstore() {
    // Hand computation: LDS word 0 is 0. On gfx11 ds_cmpstore's DATA0 (%zero = 0) is the new
    // value and DATA1 (%one = 1) the compare value (LLVM DSInstructions.td): 0 != 1, so memory
    // keeps 0; ds_max_rtn_u32 stores max(0, 1) = 1. Both return the old value 0.
    snap(
        "verify_refuted_cmpstore",
        "hand computation of cmpstore (gfx11 operand order) against max_u32",
        &[
            "verify",
            "proofs/ds_atomics.rules",
            "--filter",
            "ds-cmpstore-test-and-set-gfx10-order-on-gfx11",
            "--target",
            "gfx1100",
            "--no-matrix",
        ],
    );
}

#[test]
fn verify_gws_wait_refuted() {
    // Hand computation (AMD Vega ISA guide DS_GWS_SEMA_P, LLVM SelectDS_GWS): with M0[21:16] =
    // 63 and offset 0 the resource is 63, its counter GWS[0x1f8..0x1fb]; the initial bytes are
    // the low bytes of their addresses, so the counter is 0xfbfaf9f8, negative: SEMA_P waits,
    // and a lone wave never resumes (undefined), while the source's SEMA_BR of 0 completes
    // and leaves the counter as it was.
    snap(
        "verify_gws_wait_refuted",
        "hand computation of the GWS resource id and counter (docs/lanes.md, wave-level DS)",
        &[
            "verify",
            "proofs/ds_wave.rules",
            "--filter",
            "gws-sema-p-may-wait",
            "--target",
            "gfx900",
            "--no-matrix",
        ],
    );
}

#[test]
fn verify_json() {
    // The same counterexample as verify_refuted_cmpstore, as JSON Lines (docs/cli.md).
    snap(
        "verify_json",
        "the values of verify_refuted_cmpstore; field names as docs/cli.md lists them",
        &[
            "verify",
            "proofs/ds_atomics.rules",
            "--filter",
            "ds-cmpstore-test-and-set-gfx10-order-on-gfx11",
            "--target",
            "gfx1100",
            "--format",
            "json",
        ],
    );
}

#[test]
fn verify_unknown() {
    // On each of two lanes, four ds_add_u32 of %v are one add of 4 * %v (true mod 2^32), but
    // atomic chains across lanes are beyond z3 (docs/lanes.md: unknown at 20 s), so at 0.2 s
    // the verdict is unknown, exit code 3, never proved.
    snap(
        "verify_unknown",
        "docs/lanes.md (four atomics on two lanes: unknown at 20 s); exit code 3",
        &[
            "verify",
            "tests/data/snapshots/four_adds.rules",
            "--timeout",
            "0.2",
            "--no-matrix",
        ],
    );
}

#[test]
fn verify_inapplicable() {
    // Pre: %o < 4 && %o > 8 has no solution (by hand), so the rule is vacuous.
    snap(
        "verify_inapplicable",
        "the precondition %o < 4 && %o > 8 is unsatisfiable (by hand)",
        &[
            "verify",
            "proofs/ds_offset_fold.rules",
            "--filter",
            "ds-offset-contradictory-pre",
        ],
    );
}

#[test]
fn verify_input_error() {
    // The file's first line gives the message and position llvm-mc-22 -mcpu=gfx90a agrees
    // with (tests/data/errors/README.md); exit code 2.
    snap(
        "verify_input_error",
        "the expect-error line of the file (llvm-mc-22 -mcpu=gfx90a rejects the line); exit 2",
        &["verify", "tests/data/errors/mixed-vgpr-agpr.rules"],
    );
}

#[test]
fn encode() {
    // Each line equals `llvm-mc-22 -triple=amdgcn -mcpu=T -show-encoding` (run by hand):
    // [0x03,0xff,0xdc,0xd8,0x14,0x00,0x00,0x02] and [0x10,0x50,0x50,0xe0,0x02,0x01,0x01,0x03].
    snap(
        "encode_ds_gfx1100",
        "llvm-mc-22 -mcpu=gfx1100 -show-encoding",
        &[
            "encode",
            "--target",
            "gfx1100",
            "ds_load_2addr_b32 v[2:3], v20 offset0:3 offset1:255",
        ],
    );
    snap(
        "encode_mubuf_gfx900",
        "llvm-mc-22 -mcpu=gfx900 -show-encoding",
        &[
            "encode",
            "--target",
            "gfx900",
            "buffer_load_dword v1, v2, s[4:7], s3 offen offset:16 glc",
        ],
    );
    // llvm-mc-22 rejects it too (DS offset is 16 bits); exit code 2.
    snap(
        "encode_error",
        "DS OFFSET is a 16-bit field (DSInstructions.td offset:u16imm); exit 2",
        &[
            "encode",
            "--target",
            "gfx900",
            "ds_write_b32 v1, v2 offset:65536",
        ],
    );
}

#[test]
fn decode() {
    // Each line equals `llvm-mc-22 -triple=amdgcn -mcpu=T -disassemble` of the same bytes
    // (run by hand); the MUBUF word has OFFEN clear, hence `off`.
    snap(
        "decode_ds_gfx90a",
        "llvm-mc-22 -mcpu=gfx90a -disassemble",
        &[
            "decode", "--target", "gfx90a", "0x03", "0xff", "0x6e", "0xd8", "0x14", "0x00", "0x00",
            "0x02",
        ],
    );
    snap(
        "decode_mubuf_gfx900",
        "llvm-mc-22 -mcpu=gfx900 -disassemble",
        &[
            "decode", "--target", "gfx900", "0x10", "0x40", "0x50", "0xe0", "0x02", "0x01", "0x01",
            "0x03",
        ],
    );
}

#[test]
fn lift() {
    // The operand binding follows LLVM DSInstructions.td's gfx11 order (DATA0 = new value,
    // DATA1 = compare value); the pseudocode is semantics/pcode's entry.
    snap(
        "lift_cmpstore_gfx1100",
        "LLVM DSInstructions.td (gfx11 cmpstore operand order)",
        &[
            "lift",
            "--target",
            "gfx1100",
            "ds_cmpstore_rtn_b32 v1, v2, v3, v4 offset:16",
        ],
    );
    // Reviewed by hand against the RDNA4 guide's DS_BPERMUTE_FI_B32 pseudocode: lane index
    // (ADDR + OFFSET) / 4 % 32 on wave32, the source read whatever its EXEC bit, a reader
    // outside EXEC keeping its VDST; L0's read of an absent lane its own free value, L1's
    // the same as L0's when both read one absent lane.
    snap(
        "lift_bpermute_fi_gfx1200",
        "AMD RDNA4 ISA guide, DS_BPERMUTE_FI_B32 pseudocode",
        &[
            "lift",
            "--target",
            "gfx1200",
            "ds_bpermute_fi_b32 v1, v2, v3 offset:4",
        ],
    );
}

/// `tests/data/tv/gen/ds_merge.gfx900.after.mir` with the first miscompile of
/// `tests/data/tv/planted.txt` planted (read2_b32_far's offset1 8 -> 9), in `dir`.
fn planted_far(dir: &TempDir) -> String {
    let p = dir.plant(
        "tests/data/tv/gen/ds_merge.gfx900.after.mir",
        "DS_READ2_B32_gfx9 %12, 0, 8, 0",
        "DS_READ2_B32_gfx9 %12, 0, 9, 0",
        "far.after.mir",
    );
    p.to_str().expect("a UTF-8 temp path").to_string()
}

#[test]
fn tv() {
    // llc-22's si-load-store-opt made the after-file: its merge is expected proved
    // (tests/data/tv/expected.txt).
    snap(
        "tv_proved",
        "tests/data/tv/expected.txt (every changed block of an LLVM merge is proved)",
        &[
            "tv",
            "tests/data/tv/gen/ds_merge.gfx900.before.mir",
            "tests/data/tv/gen/ds_merge.gfx900.after.mir",
            "--function",
            "read2_b32_far",
        ],
    );
    // Hand computation: LDS bytes are their addresses' low bits (00 01 02 03 at 0, 20..27 at
    // 0x20). The source adds p[0] = 0x03020100 and p[8] = 0x23222120: 0x26242220; the planted
    // offset1:9 reads p[9] = 0x27262524 instead: 0x03020100 + 0x27262524 = 0x2a282624, so
    // LDS[0x0] is 0x20 against 0x24.
    let dir = TempDir::new("snap-tv");
    let far = planted_far(&dir);
    let before = "tests/data/tv/gen/ds_merge.gfx900.before.mir";
    let args = ["tv", before, &far, "--function", "read2_b32_far"];
    let mut s = insta_settings();
    s.add_filter(&regex::escape(&far), "far.after.mir");
    s.set_description("hand computation of the planted read2 offset (p[9] for p[8])");
    s.bind(|| insta::assert_snapshot!("tv_refuted", gcnsmt(&args)));
    let mut json = args.to_vec();
    json.extend(["--format", "json"]);
    s.set_description("the values of tv_refuted; fields as docs/tv.md lists them");
    s.bind(|| insta::assert_snapshot!("tv_refuted_json", gcnsmt(&json)));
}

#[test]
fn spec_check() {
    // Hand computation: LDS word 0 is 0, DATA0 = 0x8b, DATA1 = 0. The page's (ds_cmpst)
    // semantics compare with DATA0: 0 != 0x8b, memory stays 0. ds_cmpstore on gfx11 compares
    // with DATA1 (0 == 0) and stores DATA0: 0x8b. Exit code 1: something was found.
    snap(
        "spec_check_alias",
        "hand computation of ds_cmpst against ds_cmpstore operand orders; exit 1",
        &["spec-check", "tests/data/spec/seed002_ds_cmpst_rtn_f32.txt"],
    );
}

#[test]
fn atomics() {
    // Integer add is associative and commutative, so every order and every AtomicOptimizer
    // form is proved; reassociation is n/a for integers (docs/lanes.md).
    snap(
        "atomics_add_u32",
        "integer add mod 2^32 is associative and commutative (by hand); docs/lanes.md",
        &["atomics", "--target", "gfx900", "--op", "ds_add_rtn_u32"],
    );
}

#[test]
fn coverage_gfx90a() {
    // Opcode list: tests/data/roundtrip/{ds,mubuf}_gfx90a.s (llvm-mc-22) plus
    // buffer_store_lds_dword (tests/data/roundtrip/README.md); statuses: README "Not modelled"
    // (format conversions, LDS DMA other than buffer_load_dword, GWS/append/consume, cache
    // control) and docs/soundness.md (buffer range-check settings, the float model).
    snap(
        "coverage_gfx90a",
        "llvm-mc-22 round-trip opcode lists; README and docs/soundness.md for the statuses",
        &["coverage", "--target", "gfx90a"],
    );
}
