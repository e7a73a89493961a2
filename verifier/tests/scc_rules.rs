//! SCC as machine state (`tests/data/scc/README.md`): the rules of `tests/data/scc/scc.rules`,
//! whose verdicts are worked by hand from AMD's pseudocode in the file's comments, and the
//! counterexamples' SCC values against the same formulas computed here from the printed inputs.
//! Each `Expect: refuted` rule there was `proved` before SCC was modelled.

use gcnsmt_testkit::{run_at, Run};
use serde_json::Value;
use std::path::PathBuf;

fn data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/scc")
}

fn verify(args: &[&str]) -> Run {
    let r = run_at(Some(&data()), env!("CARGO_BIN_EXE_gcnsmt"), args, None, &[]);
    r.assert_no_panic();
    r
}

/// The JSON verdict objects of the rule named `name` (one per target; `--filter` matches
/// prefixes, so other rules are dropped here).
fn verdicts(name: &str) -> Vec<Value> {
    let r = verify(&[
        "verify",
        "scc.rules",
        "--filter",
        name,
        "--format",
        "json",
        "--no-matrix",
    ]);
    assert_eq!(r.code, 0, "{name}: {}", r.context());
    let vs: Vec<Value> = r
        .stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["type"] == "verdict" && v["rule"] == name)
        .collect();
    assert!(!vs.is_empty(), "{name}: {}", r.context());
    vs
}

fn hex(v: &Value) -> u64 {
    let s = v.as_str().expect("a hex string");
    u64::from_str_radix(s.trim_start_matches("0x"), 16).expect("hex")
}

/// A counterexample's input `name` (`%a`, `scc`).
fn input(c: &Value, name: &str) -> u64 {
    let i = c["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"] == name);
    hex(&i.unwrap_or_else(|| panic!("no input {name}: {c}"))["value"])
}

/// The final (source, target) values of register `name` in a counterexample.
fn final_reg(c: &Value, name: &str) -> (u64, u64) {
    let r = c["registers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == name);
    let r = r.unwrap_or_else(|| panic!("no register {name}: {c}"));
    (hex(&r["source"]), hex(&r["target"]))
}

#[test]
fn every_rule_has_its_hand_computed_verdict() {
    let r = verify(&["verify", "scc.rules", "--no-matrix"]);
    assert_eq!(r.code, 0, "{}", r.context());
    // 17 rules, 14 on two targets and 3 on one (counted in the file): 7 proved on two
    // targets and 1 on one; 7 refuted on two targets and 2 on one.
    assert!(
        r.stdout
            .contains("summary: 15 proved, 16 refuted (16 as expected), 0 unknown"),
        "{}",
        r.context()
    );
    let verdict_lines: Vec<&str> = (r.stdout.lines())
        .filter(|l| l.contains("  [alignment="))
        .collect();
    assert_eq!(verdict_lines.len(), 31, "{}", r.context());
    for line in verdict_lines {
        assert!(line.contains("(as expected)"), "{line}");
    }
}

#[test]
fn and_by_all_ones_differs_from_a_move_on_scc_alone() {
    for v in verdicts("scc-and-all-ones-is-not-a-move") {
        assert_eq!(v["verdict"], "refuted", "{v}");
        let c = &v["counterexample"];
        assert_eq!(c["first_difference"], "scc", "{v}");
        let (a, before) = (input(c, "%a"), input(c, "scc"));
        // S_AND_B32: SCC = (a & 0xffffffff) != 0; s_mov_b32 leaves SCC.
        assert_eq!(final_reg(c, "scc"), (u64::from(a != 0), before), "{v}");
        let (ds, dt) = final_reg(c, "%d");
        assert_eq!((ds, dt), (a, a), "{v}");
    }
    for v in verdicts("scc-and-all-ones-is-a-move-where-scc-is-dead") {
        assert_eq!(v["verdict"], "proved", "{v}");
    }
}

#[test]
fn add_carry_and_subtract_borrow_are_opposite() {
    for v in verdicts("scc-add-one-is-not-sub-minus-one") {
        let c = &v["counterexample"];
        let a = input(c, "%a");
        // S_ADD_U32 a + 1 carries iff a = 0xffffffff; S_SUB_U32 a - 0xffffffff borrows iff
        // 0xffffffff > a.
        let carry = u64::from(a == 0xffff_ffff);
        assert_eq!(final_reg(c, "scc"), (carry, 1 - carry), "{v}");
    }
}

#[test]
fn lshl2_add_carries_the_bits_shifted_out() {
    for v in verdicts("scc-lshl2-add-is-not-lshl-then-add") {
        let c = &v["counterexample"];
        let (a, b) = (input(c, "%a"), input(c, "%b"));
        // S_LSHL2_ADD_U32: the carry of the 64-bit (a << 2) + b; s_lshl_b32 then s_add_u32:
        // the carry of the 32-bit shifted value plus b.
        let wide = u64::from((a << 2) + b >= 1 << 32);
        let narrow = u64::from(((a << 2) & 0xffff_ffff) + b >= 1 << 32);
        assert_ne!(wide, narrow, "{v}");
        assert_eq!(final_reg(c, "scc"), (wide, narrow), "{v}");
    }
    for v in verdicts("scc-lshl2-add-is-lshl-then-add-when-nothing-shifts-out") {
        assert_eq!(v["verdict"], "proved", "{v}");
    }
}

#[test]
fn add_u32_and_add_i32_differ_in_scc() {
    for v in verdicts("scc-add-u32-is-not-add-i32") {
        let c = &v["counterexample"];
        let (a, b) = (input(c, "%a"), input(c, "%b"));
        let sum = (a + b) & 0xffff_ffff;
        let carry = u64::from(a + b >= 1 << 32);
        // S_ADD_I32: the operands' signs agree and the sum's differs.
        let sign = |x: u64| x >> 31 & 1;
        let overflow = u64::from(sign(a) == sign(b) && sign(a) != sign(sum));
        assert_eq!(final_reg(c, "scc"), (carry, overflow), "{v}");
    }
}

#[test]
fn min_u32_scc_is_the_first_operand_below_the_second() {
    for v in verdicts("scc-min-u32-commuted") {
        let c = &v["counterexample"];
        let (a, b) = (input(c, "%a"), input(c, "%b"));
        assert_eq!(
            final_reg(c, "scc"),
            (u64::from(a < b), u64::from(b < a)),
            "{v}"
        );
    }
}

#[test]
fn the_last_writer_decides_scc() {
    for v in verdicts("scc-two-writers-swapped") {
        let c = &v["counterexample"];
        let (a, b, x) = (input(c, "%a"), input(c, "%b"), input(c, "%c"));
        // Source: the AND is last, SCC = (c != 0); target: the add's carry.
        let want = (u64::from(x != 0), u64::from(a + b >= 1 << 32));
        assert_eq!(final_reg(c, "scc"), want, "{v}");
    }
    let r = verify(&[
        "verify",
        "scc.rules",
        "--filter",
        "scc-lshl-one-is-not-add-self",
        "--no-matrix",
    ]);
    assert_eq!(r.code, 0, "{}", r.context());
    assert!(
        r.stdout.contains("first difference: scc"),
        "{}",
        r.context()
    );
}

/// A rewrite that leaves SCC as the source does prints no `scc` register: SCC is shown when it
/// differs.
#[test]
fn scc_is_shown_only_when_it_differs() {
    for v in verdicts("scc-same-carry-other-destination") {
        let c = &v["counterexample"];
        let regs = c["registers"].as_array().unwrap();
        assert!(regs.iter().all(|r| r["name"] != "scc"), "{v}");
        assert_ne!(c["first_difference"], "scc", "{v}");
    }
}
