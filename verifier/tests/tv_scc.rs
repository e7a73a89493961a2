//! SCC as state in tv (`verifier/src/tv/scc.rs`): small before/after pairs written by hand
//! (`tests/data/tv/scc/`; the before-file's header works out each breaking input). The expected
//! verdicts are those hand computations, not tv's output.

use std::path::Path;

/// Every block verdict of the pair on `target`, as (function, block, verdict, reason).
/// The pairs are post-RA and about values, not wait states: `hazards=LATER` (under the default
/// CHECK any post-RA change of order is unsupported, docs/tv.md "Hazards").
fn verdicts(target: &str) -> Vec<(String, String, String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/scc");
    let (blocks, _) = gcnsmt_testkit::tv_blocks(
        env!("CARGO_BIN_EXE_gcnsmt"),
        &dir,
        &[
            "--target",
            target,
            "scc.before.mir",
            "scc.after.mir",
            "--set",
            "hazards=LATER",
        ],
    );
    blocks
        .iter()
        .map(|v| {
            let s = |k: &str| v[k].as_str().unwrap_or("").to_string();
            (s("function"), s("block"), s("verdict"), s("reason"))
        })
        .collect()
}

fn find<'a>(
    v: &'a [(String, String, String, String)],
    f: &str,
    b: &str,
) -> &'a (String, String, String, String) {
    v.iter()
        .find(|x| x.0 == f && x.1 == b)
        .unwrap_or_else(|| panic!("no {f} {b} in {v:?}"))
}

/// Wave64 and wave32 (the lane masks of the SCC formulas differ in width).
const TARGETS: [&str; 2] = ["gfx900", "gfx1100"];

#[test]
fn scc_changes_are_refuted_and_equivalent_ones_proved() {
    for t in TARGETS {
        check(&verdicts(t), t);
    }
}

fn check(v: &[(String, String, String, String)], t: &str) {
    // (function, block, expected verdict, the reason's start), per the file header.
    let cases = [
        // S_BITSET0 leaves the compare's SCC = 1 where the AND gave 0: LDS[v0] 1 vs 0.
        ("and_bitset", "bb.0", "refuted", "LDS["),
        // The AND's SCC is dead (a compare overwrites it): the same value and SCC.
        ("and_bitset_dead", "bb.0", "proved", ""),
        ("cmp_swap", "bb.0", "proved", ""),
        // s0 = 0xffffffff, s1 = 0: signed less, unsigned not.
        ("cmp_signedness", "bb.0", "refuted", "LDS["),
        ("cselect_swap", "bb.0", "refuted", "LDS["),
        // carry(s0 + s1) == (sum <u s1).
        ("add_carry", "bb.0", "proved", ""),
        // s0 = s1 = 0: no carry, but 0 <= 0.
        ("add_carry_le", "bb.0", "refuted", "LDS["),
        // S_AND_B64's SCC is its result != 0, what S_CMP_LG_U64 x, 0 says.
        ("and64_cmp", "bb.0", "proved", ""),
        // The second S_AND_B32 writes SCC whatever its `dead` flag says.
        ("and64_halves_dead_lie", "bb.0", "refuted", "LDS["),
        // The changed SCC is read by a terminator / the successor: compared at the block's end.
        ("liveout_branch", "bb.0", "refuted", "%scc"),
        ("liveout_successor", "bb.0", "refuted", "%scc"),
        // The successor writes SCC before reading it: not live out.
        ("liveout_overwritten", "bb.0", "proved", ""),
        // s0 & ~s1 either way; SCC = result != 0.
        ("andn2_split", "bb.0", "proved", ""),
        // One SCC for both halves; CMPK's 0xffff zero-extended is CMP's 65535.
        ("cselect64_split", "bb.0", "proved", ""),
        ("bitcmp_and", "bb.0", "proved", ""),
        // s0 = 8: bit 3 set, but 8 & 4 = 0.
        ("bitcmp_wrong_bit", "bb.0", "refuted", "LDS["),
        // SI_PC_ADD_REL_OFFSET: the symbol's address, one constant per symbol.
        ("pcrel_copy", "bb.0", "proved", ""),
        ("pcrel_other_symbol", "bb.0", "refuted", "LDS["),
        // The carry chain (`tv/scc_carry.rs`).
        ("addc_commute", "bb.0", "proved", ""),
        ("subb_dropped", "bb.0", "refuted", "LDS["),
    ];
    for (f, b, want, why) in cases {
        let got = find(v, f, b);
        assert_eq!(got.2, want, "{t} {f} {b}: {got:?}");
        assert!(got.3.contains(why), "{t} {f} {b}: {got:?}");
    }
}

/// An SCC reader (`S_ADDC_U32`, modelled since 2026-12-05 in `tv/scc_carry.rs`; before, an
/// uninterpreted reader whose SCC input was compared, giving `unknown`) sees SCC = 1 before and
/// 0 after: with s0 = s1 = 0 it adds 1 before and 0 after, so the block is refuted.
#[test]
fn an_scc_reader_sees_the_changed_compare() {
    let v = verdicts("gfx900");
    let got = find(&v, "uninterpreted_reader", "bb.0");
    assert_eq!(got.2, "refuted", "{got:?}");
}
