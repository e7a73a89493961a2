//! Issue 28 coverage in tv: the SALU shifts with SCC (`S_LSHR_B32`, `S_ASHR_I32`,
//! `S_LSHL1..4_ADD_U32`), MIR's `-1` clamp, `ATOMIC_FENCE` as a split point, more scheduling
//! hints, `$mode` as a shared input of uninterpreted float ops, carry chains in the EXEC model,
//! and `S_LOAD_DWORDX8` next to buffer accesses; the find-first-one ops, `V_BFE_I32` and
//! gfx12's `v_max_num_f32`. Pairs written by hand in
//! `tests/data/tv/coverage/`; each before-file's header works the verdicts out, and the expected
//! verdicts here are those hand computations, not tv's output.

use std::path::Path;

/// Every block verdict of the pair on `target`, as (function, verdict, reason).
/// The pairs are post-RA and about values, not wait states: `hazards=LATER` (under the default
/// CHECK any post-RA change of order is unsupported, docs/tv.md "Hazards").
fn verdicts(target: &str, stem: &str) -> Vec<(String, String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/coverage");
    let (before, after) = (format!("{stem}.before.mir"), format!("{stem}.after.mir"));
    let (blocks, _) = gcnsmt_testkit::tv_blocks(
        env!("CARGO_BIN_EXE_gcnsmt"),
        &dir,
        &[
            "--target",
            target,
            &before,
            &after,
            "--set",
            "hazards=LATER",
        ],
    );
    blocks
        .iter()
        .map(|v| {
            let s = |k: &str| v[k].as_str().unwrap_or("").to_string();
            (s("function"), s("verdict"), s("reason"))
        })
        .collect()
}

fn check(v: &[(String, String, String)], cases: &[(&str, &str, &str)], t: &str) {
    assert_eq!(v.len(), cases.len(), "{t}: {v:?}");
    for (f, verdict, reason) in cases {
        let got = v
            .iter()
            .find(|x| x.0 == *f)
            .unwrap_or_else(|| panic!("{t}: no {f} in {v:?}"));
        assert_eq!(got.1, *verdict, "{t} {f}: {got:?}");
        assert!(got.2.contains(reason), "{t} {f}: {got:?}");
    }
}

#[test]
fn salu_shifts_clamp_fences_and_hints() {
    // (function, verdict, the reason's start), per the header of cov.before.mir.
    let cases = [
        ("lshl2_add_split", "proved", ""),
        // s0 = 0x40000000, s1 = 0: the bit shifted out is the carry; s3 = 1 vs 0.
        ("lshl2_add_carry_split", "refuted", "LDS["),
        ("lshl1_add_carry_bit", "proved", ""),
        ("ashr_scc", "proved", ""),
        // s0 = 0x80000000: 0xf8000000 vs 0x08000000.
        ("ashr_as_lshr", "refuted", "LDS["),
        ("lshr_scc", "proved", ""),
        ("clamp_minus_one", "proved", ""),
        // v1 = 2.0: 1.0 clamped vs 2.0.
        ("clamp_minus_one_dropped", "refuted", "LDS["),
        ("fence_reorder", "proved", ""),
        // The store's value is missing from memory at the fence.
        ("fence_store_sunk", "refuted", "LDS["),
        // The hoisted load reads memory from before the fence.
        ("fence_load_hoisted", "refuted", ""),
        ("clause_hint", "proved", ""),
        // V_CVT_F16_F32 reads `$mode`, a shared input where nothing writes MODE.
        ("cvt_mode_reorder", "proved", ""),
        // v0 = 0, v1 = 1: LDS[4] = 1 vs 0, without the conversion's result.
        ("cvt_mode_wrong_offset", "refuted", "LDS["),
        ("cvt_mode_written", "unsupported", ""),
    ];
    for t in ["gfx900", "gfx1100"] {
        check(&verdicts(t, "cov"), &cases, t);
    }
}

#[test]
fn carry_chains_in_the_exec_model() {
    let cases = [
        ("addc_commute", "proved", ""),
        // v0 = v2 = v1 = v3 = 0, lane L in s[10:11]: 0 before, 1 after.
        ("addc_wrong_mask", "refuted", "LDS["),
    ];
    check(&verdicts("gfx900", "exec-carry"), &cases, "gfx900");
}

#[test]
fn kernel_argument_load_of_two_vsharps_next_to_buffer_accesses() {
    let cases = [
        ("sload8_fold", "proved", ""),
        // MEM[B0] = 1 vs MEM[B1] = 2 stored: the buffer store's bytes differ.
        ("sload8_wrong_half", "refuted", "MEM["),
    ];
    check(&verdicts("gfx900", "sload8"), &cases, "gfx900");
}

#[test]
fn find_first_one_bfe_i32_and_max_num() {
    // (function, verdict, the reason's start), per the header of bits.before.mir.
    let common = [
        ("ffbh_const", "proved", ""),
        ("ffbh_const_wrong", "refuted", "LDS["),
        ("ffbl_for_ffbh", "refuted", "LDS["),
        ("ffbh_zero", "proved", ""),
        ("bfe_i32_shifts", "proved", ""),
        ("bfe_i32_as_u32", "refuted", "LDS["),
        ("bfe_i32_zero_width", "proved", ""),
        ("flbit64", "proved", ""),
        ("flbit64_halves_swapped", "refuted", "LDS["),
        ("flbit32", "proved", ""),
        ("bfrev_const", "proved", ""),
        // v1 = 1: 1 vs 0x80000000 (tv's register-allocation checker reports it first: the
        // second reverse reads v1 where the before-file reads v3).
        ("bfrev_twice", "refuted", ""),
    ];
    // gfx1200: v_max_num_f32's rules make max(v1, sNaN) = max(v1, v1).
    let mut gfx12 = common.to_vec();
    gfx12.push(("max_snan", "proved", ""));
    gfx12.push(("max_snan_dropped", "refuted", "LDS["));
    check(&verdicts("gfx1200", "bits"), &gfx12, "gfx1200");
    // gfx900, MODE.IEEE off: a NaN S0 gives S1 (Vega V_MAX_F32), so by hand v1 = 0x7fc00000
    // gives the sNaN 0x7f800001 before and v1 after.
    let mut gfx9 = common.to_vec();
    gfx9.push(("max_snan", "refuted", ""));
    gfx9.push(("max_snan_dropped", "refuted", "LDS["));
    check(&verdicts("gfx900", "bits"), &gfx9, "gfx900");
}
