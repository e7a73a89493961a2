//! `vgpr_to_sgpr_copy=PER_LANE|FIRST_LANE` (`tv/v2s.rs`, docs/tv.md "VGPR-to-SGPR copies: the
//! per-lane meaning") on si-fix-sgpr-copies pairs made by llc-22 from our kernels
//! (`tests/data/tv/v2s/README.md`), planted wrong pairs, and the SALU-to-VALU table checked
//! against AMD's pseudocode (the lifter's semantics of both instructions).

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/tv/v2s")
        .join(name)
}

fn tv(before: &Path, after: &Path, set: Option<&str>) -> Vec<Value> {
    tv_as(before, after, set, true)
}

/// `tv BEFORE AFTER`, as si-fix-sgpr-copies's pair (`--pass si-fix-sgpr-copies`: PER_LANE
/// applies) or as a pair of no named pass (a copy reads the first active lane).
fn tv_as(before: &Path, after: &Path, set: Option<&str>, fix: bool) -> Vec<Value> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gcnsmt"));
    cmd.args(["tv", "--format", "json", "--target", "gfx900"]);
    if fix {
        cmd.args(["--pass", "si-fix-sgpr-copies"]);
    }
    cmd.arg(before).arg(after);
    if let Some(s) = set {
        cmd.args(["--set", s]);
    }
    let out = cmd.output().unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["type"] == "block")
        .collect()
}

fn verdict<'a>(v: &'a [Value], block: &str) -> &'a str {
    v.iter()
        .find(|b| b["block"] == block)
        .and_then(|b| b["verdict"].as_str())
        .unwrap_or("missing")
}

/// lds_reduce bb.2: `%36:sreg_32 = COPY %3` (`%3` = lane id << 2, not uniform) and
/// `%35:sreg_32 = S_LSHL2_ADD_U32 %4, %36`; the pass made it `%55:vgpr_32 =
/// V_LSHL_ADD_U32_e64 %4, 2, %3`. By hand: per lane, (s << 2) + t = (s << 2) + t, so PER_LANE
/// proves it; FIRST_LANE reads lane F's t before and lane L's after, which differ.
#[test]
fn lds_reduce_moved_to_valu() {
    let b = data("lds_reduce.before.mir");
    let v = tv(&b, &data("lds_reduce.after.mir"), None);
    assert_eq!(verdict(&v, "bb.2"), "proved", "{v:?}");
    assert!(v.iter().all(|b| b["verdict"] != "refuted"), "{v:?}");
    let old = tv(
        &b,
        &data("lds_reduce.after.mir"),
        Some("vgpr_to_sgpr_copy=FIRST_LANE"),
    );
    assert_ne!(verdict(&old, "bb.2"), "proved", "{old:?}");
}

/// The same pair named as no pass: its before-file may be read after si-fix-sgpr-copies, where
/// the copy reads the first active lane (lane F's `%3` before, lane L's after): not proved.
#[test]
fn per_lane_only_in_the_passes_own_pair() {
    let b = data("lds_reduce.before.mir");
    let v = tv_as(&b, &data("lds_reduce.after.mir"), None, false);
    assert_ne!(verdict(&v, "bb.2"), "proved", "{v:?}");
}

/// `chain3`: `%2 = COPY %0` (`%0` = `$vgpr0`) read by three S_ADD_I32, the last copied into a
/// VGPR read by a COPY. By LLVM's formula: SChain 3, NumSVCopies 1 (tryChangeVGPRtoSGPRinCopy
/// refuses a COPY reader), no siblings, score 2 < 3: moved to the VALU (llc-22 agrees,
/// chain3.after.mir), so the copy is per lane and the pair proved.
#[test]
fn short_salu_chain_is_moved_and_proved() {
    let v = tv(&data("chain3.before.mir"), &data("chain3.after.mir"), None);
    assert_eq!(verdict(&v, "bb.0"), "proved", "{v:?}");
}

/// `chain5`: five S_ADD_I32: score 5 - 1 = 4 >= 3, so the pass reads the first lane
/// (`V_READFIRSTLANE_B32`, llc-22's chain5.after.mir). A VALU chain in its place
/// (chain5.after.valu.mir, by hand) is not what the pass does: the copy is not given the
/// per-lane meaning, so not proved (FIRST_LANE refutes it: lane F's `$vgpr0` against lane L's).
#[test]
fn long_salu_chain_is_not_per_lane() {
    let b = data("chain5.before.mir");
    let v = tv(&b, &data("chain5.after.valu.mir"), None);
    assert_ne!(verdict(&v, "bb.0"), "proved", "{v:?}");
    let llc = tv(&b, &data("chain5.after.mir"), None);
    assert_ne!(verdict(&llc, "bb.0"), "refuted", "{llc:?}");
}

/// Planted: the shift of 2 made 3. (s << 3) + t != (s << 2) + t for s = 1: refuted.
#[test]
fn planted_wrong_shift_is_refuted() {
    let v = tv(
        &data("lds_reduce.before.mir"),
        &data("lds_reduce.after.wrong_shift.mir"),
        None,
    );
    assert_eq!(verdict(&v, "bb.2"), "refuted", "{v:?}");
}

/// Planted: the pass made the copy `V_READFIRSTLANE_B32 %3` of the non-uniform `%3` (what
/// it does when its cost score prefers the SALU chain; right only for a uniform value).
/// FIRST_LANE reads the first lane on both sides and proves it; PER_LANE must not.
#[test]
fn planted_readfirstlane_of_a_lane_value_is_not_proved() {
    let (b, a) = (
        data("lds_reduce.before.mir"),
        data("lds_reduce.after.readfirstlane.mir"),
    );
    let v = tv(&b, &a, None);
    assert_ne!(verdict(&v, "bb.2"), "proved", "{v:?}");
    let old = tv(&b, &a, Some("vgpr_to_sgpr_copy=FIRST_LANE"));
    assert_eq!(verdict(&old, "bb.2"), "proved", "{old:?}");
}

/// lds_atomic_reduce: `%46:sreg_32 = COPY $vgpr0` in bb.0 renamed `%102:vgpr_32`, and the
/// S_LSHL_B32 / S_ADD_I32 / S_MUL_I32 chains of bb.3 and bb.7 moved to the VALU: no block
/// refuted under PER_LANE (each is renamed, per-lane equal); bb.0 is refuted under FIRST_LANE
/// (lane F's `$vgpr0` against lane L's).
#[test]
fn lds_atomic_reduce_renamed_and_moved() {
    let b = data("lds_atomic_reduce.before.mir");
    let a = data("lds_atomic_reduce.after.mir");
    let v = tv(&b, &a, None);
    for blk in ["bb.0", "bb.3"] {
        assert_eq!(verdict(&v, blk), "proved", "{blk}: {v:?}");
    }
    assert!(v.iter().all(|b| b["verdict"] != "refuted"), "{v:?}");
    let old = tv(&b, &a, Some("vgpr_to_sgpr_copy=FIRST_LANE"));
    assert_eq!(verdict(&old, "bb.0"), "refuted", "{old:?}");
}

/// divergent_loop: `%49:sreg_64 = COPY $scc` became `%71:sreg_64_xexec = S_CSELECT_B64 -1, 0,
/// implicit $scc; %49 = COPY %71` (fixSCCCopies): equal by definition, so bb.0 is proved. The
/// exit PHI `%18:vgpr_32 = PHI %15, %bb.7` of the SGPR `%15` became `PHI %73` with `%73 = COPY
/// %15, implicit $exec` in bb.7 (each lane's value at its own last iteration): bb.7 and bb.8
/// are proved under PER_LANE, both refuted under FIRST_LANE (no such reading there).
#[test]
fn scc_copy_is_a_lane_mask_and_phi_inputs_are_per_lane() {
    let (b, a) = (
        data("divergent_loop.before.mir"),
        data("divergent_loop.after.mir"),
    );
    let v = tv(&b, &a, None);
    for blk in ["bb.0", "bb.7", "bb.8"] {
        assert_eq!(verdict(&v, blk), "proved", "{blk}: {v:?}");
    }
    let old = tv(&b, &a, Some("vgpr_to_sgpr_copy=FIRST_LANE"));
    assert_eq!(verdict(&old, "bb.8"), "refuted", "{old:?}");
}

/// A bad value of the setting is a usage error.
#[test]
fn bad_value_is_a_usage_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .args([
            "tv",
            "--target",
            "gfx900",
            "--set",
            "vgpr_to_sgpr_copy=LANE0",
        ])
        .arg(data("lds_reduce.before.mir"))
        .arg(data("lds_reduce.after.mir"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// One SALU op on SGPR inputs, its result copied into a VGPR, against the VALU form written
/// here by hand: proved iff the two instructions compute the same function by the lifter's
/// pseudocode semantics (lane L's value of each).
fn salu_vs_valu(salu: &str, valu: &str) -> String {
    let dir = std::env::temp_dir().join(format!("gcnsmt-v2s-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let head = "---\nname: f\ntracksRegLiveness: true\nregisters:\n  - { id: 0, class: sreg_32 }\n  - { id: 1, class: sreg_32 }\n  - { id: 2, class: sreg_32 }\n  - { id: 4, class: vgpr_32 }\n  - { id: 5, class: vgpr_32 }\nbody: |\n  bb.0:\n    liveins: $sgpr0, $sgpr1\n    %0:sreg_32 = COPY $sgpr0\n    %1:sreg_32 = COPY $sgpr1\n";
    let tail = "    $vgpr0 = COPY %4\n    S_ENDPGM 0, implicit $vgpr0\n...\n";
    let b = format!("{head}    %2:sreg_32 = {salu}\n    %4:vgpr_32 = COPY %2\n{tail}");
    // The VALU form reads %1 from a VGPR: two SGPR sources exceed gfx900's constant bus (one
    // SGPR or literal per VALU instruction before gfx10; llvm-mc-22 rejects the instruction).
    let valu = valu.replace("%1", "%5");
    let a = format!("{head}    %5:vgpr_32 = COPY %1\n    %4:vgpr_32 = {valu}\n{tail}");
    let tag: String = format!("{salu}{valu}")
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect();
    let (pb, pa) = (
        dir.join(format!("{tag}.b.mir")),
        dir.join(format!("{tag}.a.mir")),
    );
    std::fs::write(&pb, b).unwrap();
    std::fs::write(&pa, a).unwrap();
    let v = tv(&pb, &pa, None);
    verdict(&v, "bb.0").to_string()
}

/// Each entry of `v2s::valu_of`, written out: S_LSHL_B32 D = S0 << S1[4:0] and V_LSHLREV_B32
/// D = S1 << S0[4:0] (swapped sources); S_LSHLn_ADD_U32 D = (S0 << n) + S1 and
/// V_LSHL_ADD_U32 D = (S0 << S1[4:0]) + S2; the others the same operation lane-wise.
#[test]
fn salu_to_valu_table_matches_the_pseudocode() {
    let table = [
        ("S_ADD_I32", "V_ADD_U32_e64 %0, %1, 0, implicit $exec"),
        ("S_MUL_I32", "V_MUL_LO_U32_e64 %0, %1, implicit $exec"),
        ("S_LSHL_B32", "V_LSHLREV_B32_e64 %1, %0, implicit $exec"),
        ("S_LSHR_B32", "V_LSHRREV_B32_e64 %1, %0, implicit $exec"),
        ("S_ASHR_I32", "V_ASHRREV_I32_e64 %1, %0, implicit $exec"),
        ("S_AND_B32", "V_AND_B32_e64 %0, %1, implicit $exec"),
        ("S_OR_B32", "V_OR_B32_e64 %0, %1, implicit $exec"),
        ("S_XOR_B32", "V_XOR_B32_e64 %0, %1, implicit $exec"),
        (
            "S_LSHL1_ADD_U32",
            "V_LSHL_ADD_U32_e64 %0, 1, %1, implicit $exec",
        ),
        (
            "S_LSHL2_ADD_U32",
            "V_LSHL_ADD_U32_e64 %0, 2, %1, implicit $exec",
        ),
        (
            "S_LSHL3_ADD_U32",
            "V_LSHL_ADD_U32_e64 %0, 3, %1, implicit $exec",
        ),
        (
            "S_LSHL4_ADD_U32",
            "V_LSHL_ADD_U32_e64 %0, 4, %1, implicit $exec",
        ),
    ];
    for (s, v) in table {
        // The table the rewrite uses agrees with the forms written here.
        let (op, swap, shift, clamp) = gcnsmt_verifier::tv::v2s::valu_of(s).unwrap();
        let mut ops: Vec<String> = vec![if swap { "%1" } else { "%0" }.into()];
        ops.extend(shift.map(|n| n.to_string()));
        ops.push(if swap { "%0" } else { "%1" }.into());
        ops.extend(clamp.map(|n| n.to_string()));
        assert_eq!(format!("{op} {}, implicit $exec", ops.join(", ")), v, "{s}");
        let scc = if s == "S_MUL_I32" {
            ""
        } else {
            ", implicit-def dead $scc"
        };
        let got = salu_vs_valu(&format!("{s} %0, %1{scc}"), v);
        assert_eq!(got, "proved", "{s} vs {v}");
    }
    // The test can fail: the shift's sources unswapped compute S1 << S0.
    let wrong = salu_vs_valu(
        "S_LSHL_B32 %0, %1, implicit-def dead $scc",
        "V_LSHLREV_B32_e64 %0, %1, implicit $exec",
    );
    assert_eq!(wrong, "refuted");
}

/// Breaker 2's pair 02 (`tests/data/tv/break2/02-readfirstlane-mbcnt-uniform`): a copy of
/// `V_MBCNT_LO_U32_B32` (the lane's own index, never uniform) read by a VALU op. Even as
/// si-fix-sgpr-copies's pair it gets neither meaning (`v2s_score.rs`: lane-dependent sources):
/// not proved (the README works out the inputs on which the after-file differs).
#[test]
fn copy_of_a_lane_index_is_not_per_lane() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/tv/break2/02-readfirstlane-mbcnt-uniform");
    let v = tv(&dir.join("before-copy.mir"), &dir.join("after.mir"), None);
    assert_ne!(verdict(&v, "bb.0"), "proved", "{v:?}");
}

/// The bug corpus's `sgprcopies-copy-to-phys-sgpr` as si-fix-sgpr-copies's pair: the chain
/// ends in `$sgpr0 = COPY %5`, a copy into a physical SGPR, which keeps the first lane's
/// meaning (the fix reads it with `V_READFIRSTLANE_B32`): the buggy file (`$sgpr0 =
/// IMPLICIT_DEF`) refuted, llc-22's good file not.
#[test]
fn copy_into_a_physical_sgpr_reads_the_first_lane() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/tv/bugs/sgprcopies-copy-to-phys-sgpr");
    let run = |after: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
            .current_dir(&dir)
            .args(["tv", "--format", "json", "--target", "gfx900"])
            .args([
                "--pass",
                "si-fix-sgpr-copies",
                "--function",
                "ps_or_to_sgpr",
            ])
            .args(["before.mir", after])
            .output()
            .unwrap();
        let v: Vec<Value> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter(|v| v["type"] == "block")
            .collect();
        verdict(&v, "bb.0").to_string()
    };
    assert_eq!(run("buggy.mir"), "refuted");
    assert_ne!(run("good.mir"), "refuted");
}
