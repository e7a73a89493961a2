//! `gcnsmt tv` on gcnsmt's own gfx1250 block pairs for the gfx12 cache-policy rule and the
//! `scale_offset` bit (`tests/data/tv/cpol12/gfx1250.{before,after}.mir`, written by hand).
//! Expected verdicts, worked by hand (docs/tv.md item 9 and "Packed f32 and bf16 on gfx1250"):
//! - `scal_unchanged`: an `S_LOAD` with cpol 0 beside GLOBAL accesses with cpol 2048 (bit 11,
//!   LLVM `CPol::SCAL`, gfx1250's `scale_offset`: an address bit, no policy), and only an
//!   `S_MOV_B32 1023` folded into the `V_AND_B32`: same addresses, same values, no policy
//!   changed: proved (tv called this a changed gfx12 cache policy before 2026-12-05);
//! - `th_kept_beside_none`: a load with `th` 1 (TH_NT) beside a store and an `S_LOAD` without:
//!   each access keeps its own policy, but two loads of different policies could trade uses
//!   (tv's memory model gives both the same value; breaker7 02), so every access is compared
//!   with every other: unsupported (proved from an earlier 2026-12-05 change until breaker7).
//!   Since 2026-12-05 evening the `th` load is an uninterpreted twin (`tv/cpol_pin.rs`: same
//!   text on both sides, nothing writes memory before it), so no use can move to the `S_LOAD`
//!   unseen, and the fold of `S_MOV_B32 1023` leaves its address `%0 & 1023`: proved;
//! - `th_dropped`, `scope_changed` (scope 2 -> 1): a gfx12 policy changed: unsupported, as
//!   item 9 says for every change of gfx12's unordered `th`/`scope`;
//! - `policy_moved`: two loads swap their `th` (the multiset of policies is the same, the
//!   access that has it is not): unsupported;
//! - `scal_dropped`: `scale_offset` removed from the load: with v0 = 1 the load reads
//!   SADDR + 8 before and SADDR + 1 after, and the stored bytes differ: refuted;
//! - `voffset_signed`: VADDR = -4 with offset 0 against VADDR = 0 with offset -4: the same
//!   address only if the 32-bit VGPR offset is signed, as on gfx1250 (LLVM
//!   `GCNSubtarget::hasSignedGVSOffset`): proved on gfx1250, refuted on gfx1200 (zero-extended:
//!   SADDR + 0xfffffffc against SADDR - 4).

use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn verdicts(target: &str) -> Vec<Value> {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/cpol12");
    let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .args(["tv", "--format", "json", "--target", target])
        .arg(d.join("gfx1250.before.mir"))
        .arg(d.join("gfx1250.after.mir"))
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["type"] == "block")
        .collect()
}

fn check(v: &[Value], f: &str, verdict: &str, reason: &str) {
    let b = v.iter().find(|b| b["function"] == f).expect(f);
    assert_eq!(b["verdict"], verdict, "{f}: {b}");
    let r = b["reason"].as_str().unwrap_or("");
    assert!(r.contains(reason), "{f}: {r}");
}

#[test]
fn gfx12_policies_and_scale_offset_get_the_hand_worked_verdicts() {
    let v = verdicts("gfx1250");
    let changed = "changed a gfx12 cache policy";
    let expect = [
        ("scal_unchanged", "proved", ""),
        ("th_kept_beside_none", "proved", ""),
        ("th_dropped", "unsupported", changed),
        ("scope_changed", "unsupported", changed),
        ("policy_moved", "unsupported", changed),
        ("scal_dropped", "refuted", "MEM["),
        ("voffset_signed", "proved", ""),
    ];
    assert_eq!(v.len(), expect.len(), "{v:?}");
    for (f, verdict, reason) in expect {
        check(&v, f, verdict, reason);
    }
}

#[test]
fn the_saddr_offset_is_unsigned_before_gfx1250() {
    let v = verdicts("gfx1200");
    check(&v, "voffset_signed", "refuted", "MEM[");
}
