//! The assumptions are written once over `Domain`: these tests hold both of their
//! interpretations, the solver's and the interpreter's, to hand-computed answers on the same
//! input values.

use super::assume::{holds, precondition, ranges};
use super::elaborate::elaborate;
use super::options::Options;
use super::replay::Run;
use crate::smt::{build, Answer, Model, Query, Smt};
use gcnsmt_semantics::target::Target;
use std::time::Duration;

/// Whether the inputs `set` (by printed name; every other input 0) meet the assumptions of
/// `rule` on `target`, asked twice: of the solver (the assumptions with every input fixed
/// are satisfiable) and of the interpreter ([`holds`]). Panics if the two disagree.
fn meets(rule: &str, target: Target, set: &[(&str, u128)]) -> bool {
    let rules = crate::rules::parse_rules("t.rules", rule).expect("rule parses");
    let b = elaborate(&rules[0], target, &Options::default()).expect("rule elaborates");
    let mut d = Smt;
    let run = Run::new(&mut d, &b);
    for (n, _) in set {
        assert!(run.table.iter().any(|i| i.name == *n), "no input {n}");
    }
    let value = |n: &str| set.iter().find(|(m, _)| *m == n).map_or(0, |(_, v)| *v);
    let values: Vec<_> = (run.table.iter())
        .map(|i| (run.sym.at(&i.slot).clone(), value(&i.name)))
        .collect();
    let concrete = holds(&Model::from_values(&values, &[]), &b, &run.sym);
    let mut q = Query::new(Duration::from_secs(20));
    for a in ranges(&mut d, &b, &run.sym) {
        q.assert(&a);
    }
    for a in precondition(&mut d, &b, &run.sym).expect("precondition evaluates") {
        q.assert(&a);
    }
    for (t, v) in &values {
        q.assert(&build::eq_const(t, *v));
    }
    let symbolic = match q.check() {
        Answer::Sat(_) => true,
        Answer::Unsat => false,
        Answer::Unknown(r) => panic!("unknown: {r}"),
    };
    assert_eq!(
        symbolic, concrete,
        "solver and interpreter disagree on {set:?}"
    );
    concrete
}

const LANES: &str = "
Name: t
Lanes: 2
Pre: %a == 8
  ds_read_b32 %x, %a
=>
  ds_read_b32 %x, %a
";

/// Both lanes' `%a` at 8, as the precondition asks.
fn lanes(more: &[(&'static str, u128)]) -> Vec<(&'static str, u128)> {
    let mut v = vec![("%a@lane0", 8), ("%a@lane1", 8)];
    v.extend_from_slice(more);
    v
}

#[test]
fn lane_ids_increase_below_the_wave_size() {
    let t = Target::Gfx900; // wave64
    let ids = |a, b| lanes(&[("LANE_ID@lane0", a), ("LANE_ID@lane1", b), ("exec_lo", 0)]);
    assert!(meets(LANES, t, &ids(0, 1)));
    assert!(meets(LANES, t, &ids(5, 63)));
    assert!(!meets(LANES, t, &ids(1, 1)));
    assert!(!meets(LANES, t, &ids(2, 1)));
    assert!(!meets(LANES, t, &ids(5, 64)));
}

#[test]
fn exec_has_no_bit_outside_the_lanes() {
    let t = Target::Gfx900;
    let run = |lo, hi| {
        let v = lanes(&[
            ("LANE_ID@lane0", 5),
            ("LANE_ID@lane1", 63),
            ("exec_lo", lo),
            ("exec_hi", hi),
        ]);
        meets(LANES, t, &v)
    };
    // Lanes 5 and 63: bit 5 of exec_lo and bit 31 of exec_hi may be set, nothing else.
    assert!(run(1 << 5, 1 << 31));
    assert!(run(0, 0));
    assert!(run(1 << 5, 0));
    assert!(!run(1 << 5 | 1, 1 << 31));
    assert!(!run(1 << 5, 1 << 30));
}

#[test]
fn the_precondition_holds_in_every_lane() {
    let t = Target::Gfx1030; // wave32: no exec_hi
    let base = [("LANE_ID@lane0", 0), ("LANE_ID@lane1", 1), ("exec_lo", 3)];
    let with = |a0, a1| {
        let mut v = vec![("%a@lane0", a0), ("%a@lane1", a1)];
        v.extend_from_slice(&base);
        meets(LANES, t, &v)
    };
    assert!(with(8, 8));
    assert!(!with(8, 9));
    assert!(!with(9, 8));
}

#[test]
fn single_lane_input_ranges() {
    let rule = "
Name: t
Settings: lds_limit=ALLOC
  ds_write_b32 %a, %v offset:%o
=>
  ds_write_b32 %a, %v offset:%o
";
    let t = Target::Gfx900;
    assert!(meets(rule, t, &[("%o", 0xffff_ffff), ("LANE_ID", 63)]));
    // Immediates are below 2^32, LANE_ID below 64, LDS_SIZE at most gfx900's 64 KiB.
    assert!(!meets(rule, t, &[("%o", 1 << 32)]));
    assert!(!meets(rule, t, &[("LANE_ID", 64)]));
    assert!(meets(rule, t, &[("LDS_SIZE", 65536)]));
    assert!(!meets(rule, t, &[("LDS_SIZE", 65537)]));
}
