//! Breaker 19's wrong buffer proofs (tests/data/break19/buffer/README.md): gfx10's range check
//! is on the start of the access (default `buffer_oob=START` there), gfx8 checks unswizzled
//! structured buffers in bytes (default `buffer_struct=BYTES` there), a scalar buffer load's
//! dword is in range by its first byte and gfx12 forces SMEM bases to dword alignment, ADD_TID
//! is part of the checked index, and gfx12's STRIDE_SCALE makes a strided access undefined.
//! The expected verdicts are the cited sources' (Mesa, AMD's ISA guides, gem5), worked by hand
//! in the README and the data files' comments.

use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// The verdict records of `gcnsmt verify tests/data/break19/buffer/FILE --format json`.
fn verdicts(file: &str) -> Vec<Value> {
    let rules = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/break19/buffer"
    ))
    .join(file);
    let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .args(["verify", rules.to_str().unwrap(), "--format", "json"])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["type"] == "verdict")
        .collect()
}

/// Check `(rule, target, verdict)` rows against the verdicts of `file`.
fn check(file: &str, expect: &[(&str, &str, &str)]) {
    let all = verdicts(file);
    for (rule, target, verdict) in expect {
        let got: Vec<&Value> = all
            .iter()
            .filter(|r| r["rule"] == *rule && r["target"] == *target)
            .collect();
        assert_eq!(got.len(), 1, "{file}: {rule} on {target}: {all:?}");
        assert_eq!(got[0]["verdict"], *verdict, "{file}: {rule} on {target}");
    }
}

#[test]
fn f01_gfx10_checks_the_start_gfx11_the_end() {
    check(
        "gfx10_oob.rules",
        &[
            // OOB_SELECT 3, NUM_RECORDS 2, dword at 0: GFX10 `0 >= 2` false, in range.
            (
                "gfx10-raw-partial-oob-dword-reads-zero",
                "gfx1010",
                "refuted",
            ),
            (
                "gfx10-raw-partial-oob-dword-reads-zero",
                "gfx1030",
                "refuted",
            ),
            // OOB_SELECT 0, STRIDE 4, offset 2: GFX10 `2 >= 4` false, in range.
            (
                "gfx10-struct-oob0-offset-straddles-stride",
                "gfx1010",
                "refuted",
            ),
            (
                "gfx10-struct-oob0-offset-straddles-stride",
                "gfx1030",
                "refuted",
            ),
            // GFX11+: `0 + 4 > 2`, out of range, reads 0.
            (
                "gfx11-raw-partial-oob-dword-reads-zero",
                "gfx1100",
                "proved",
            ),
            (
                "gfx11-raw-partial-oob-dword-reads-zero",
                "gfx1150",
                "proved",
            ),
        ],
    );
    check(
        "variants.rules",
        &[
            (
                "b19-01-gfx10-raw-straddling-dword-reads-memory",
                "gfx1010",
                "proved",
            ),
            (
                "b19-01-gfx10-raw-straddling-dword-reads-memory",
                "gfx1030",
                "proved",
            ),
        ],
    );
}

#[test]
fn f02_gfx8_checks_unswizzled_structured_buffers_in_bytes() {
    check(
        "gfx8_struct.rules",
        &[
            // Index 1 < 2 records on gfx7/gfx9; byte 16 >= 2 bytes on gfx8.
            ("gfx8-struct-nr-bytes-forward", "gfx700", "proved"),
            ("gfx8-struct-nr-bytes-forward", "gfx802", "refuted"),
            ("gfx8-struct-nr-bytes-forward", "gfx900", "proved"),
        ],
    );
    check(
        "variants.rules",
        &[
            (
                "b19-02-gfx8-struct-bytes-in-range-forward",
                "gfx802",
                "proved",
            ),
            (
                "b19-02-gfx8-struct-bytes-out-of-range-reads-zero",
                "gfx802",
                "proved",
            ),
        ],
    );
}

#[test]
fn f05_scalar_dwords_by_their_start_and_gfx12_dword_bases() {
    check(
        "sbuf_edge.rules",
        &[
            // NUM_RECORDS 2 bytes, dword at 0: `0 >= 2` false, in range: not 0.
            (
                "sbuf-dword-straddling-the-bound-reads-zero",
                "gfx900",
                "refuted",
            ),
            (
                "sbuf-dword-straddling-the-bound-reads-zero",
                "gfx1030",
                "refuted",
            ),
            (
                "sbuf-b32-straddling-the-bound-reads-zero",
                "gfx1100",
                "refuted",
            ),
            (
                "sbuf-b32-straddling-the-bound-reads-zero",
                "gfx1200",
                "refuted",
            ),
            ("sbuf-first-dword-in-range-is-s-load", "gfx1100", "proved"),
            // RDNA4: the base is forced to dword alignment.
            ("sbuf-unaligned-base-not-forced", "gfx1200", "refuted"),
            ("sload-unaligned-base-plus-offset", "gfx1200", "refuted"),
        ],
    );
    check(
        "variants.rules",
        &[
            (
                "b19-05-gfx12-sbuffer-base-forced-to-dword",
                "gfx1200",
                "proved",
            ),
            (
                "b19-05-gfx12-sload-base-forced-to-dword",
                "gfx1200",
                "proved",
            ),
        ],
    );
}

#[test]
fn f06_add_tid_is_part_of_the_checked_index() {
    let gcn = ["gfx700", "gfx802", "gfx900", "gfx90a", "gfx942"];
    let mut expect: Vec<(&str, &str, &str)> = vec![
        // Index 0 + lane 1 >= 1 record: out of range, reads 0, not base + 4.
        ("addtid-oob1-wrong-proof", "gfx1010", "refuted"),
        ("addtid-oob1-wrong-proof", "gfx1030", "refuted"),
        ("addtid-oob1-wrong-proof-gfx11", "gfx1100", "refuted"),
        ("addtid-oob1-wrong-proof-gfx11", "gfx1150", "refuted"),
        ("addtid-oob0-idxen-is-zero", "gfx1030", "proved"),
        // Index 1 * stride 16 >= 16 bytes, from VADDR or from the lane alike.
        ("idxen-index1-raw-oob3-reads-zero", "gfx1100", "proved"),
        ("addtid-index1-raw-oob3-wrong-proof", "gfx1100", "refuted"),
    ];
    expect.extend(
        gcn.iter()
            .map(|t| ("addtid-gcn-idxen-wrong-proof", *t, "refuted")),
    );
    check("addtid.rules", &expect);
}

#[test]
fn f07_gfx12_stride_scale_is_not_assumed() {
    check(
        "stride_scale.rules",
        &[
            // STRIDE_SCALE 1 with a stride: undefined, so nothing is proved.
            ("gfx12-stride-scale-ignored", "gfx1200", "inapplicable"),
            (
                "gfx12-sbuffer-stride-scale-ignored",
                "gfx1200",
                "inapplicable",
            ),
        ],
    );
    check(
        "variants.rules",
        &[
            ("b19-07-gfx12-stride-scale-zero-index1", "gfx1200", "proved"),
            (
                "b19-07-gfx12-sbuffer-stride-scale-zero-bound",
                "gfx1200",
                "proved",
            ),
        ],
    );
}
