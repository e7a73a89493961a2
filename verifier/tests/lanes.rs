//! `gcnsmt verify --lanes N` / `Lanes: N`: verdicts that change with the lane count, a
//! counterexample checked against an independent model written here, cross-lane ops, and
//! input errors.

use gcnsmt_semantics::eval::AddrSpace;
use gcnsmt_semantics::target::Target;
use gcnsmt_verifier::check::{check, Cex, Options, Verdict};
use gcnsmt_verifier::rules::parse_rules;
use gcnsmt_verifier::{LaneMode, LaneOrder};
use std::collections::BTreeMap;

fn verdict(text: &str, target: Target, lanes: Option<LaneMode>) -> Verdict {
    let rules = parse_rules("t.rules", text).expect("parses");
    let opts = Options {
        lanes,
        ..Default::default()
    };
    check(&rules[0], target, &opts).expect("binds").verdict
}

fn mode(lanes: u32, order: LaneOrder) -> Option<LaneMode> {
    Some(LaneMode { lanes, order })
}

const WRITE2: &str = "Name: w2
  ds_write_b32 %a, %x
  ds_write_b32 %a, %y offset:4
=>
  ds_write2_b32 %a, %x, %y offset1:1
";

#[test]
fn write2_merge_needs_one_lane() {
    // One lane: two dword stores at a and a+4 are the write2 (single-lane corpus rule).
    assert!(matches!(
        verdict(WRITE2, Target::Gfx900, None),
        Verdict::Proved
    ));
    assert!(matches!(
        verdict(WRITE2, Target::Gfx900, mode(1, LaneOrder::Any)),
        Verdict::Proved
    ));
    // Two lanes with a1 = a0 + 4: the source leaves y0 at a0+4 (the second instruction runs
    // after every lane of the first), the merged store of lane 1 after lane 0 leaves x1 there.
    for order in [LaneOrder::Any, LaneOrder::Ascending] {
        let v = verdict(WRITE2, Target::Gfx900, mode(2, order));
        let Verdict::Refuted(c) = v else {
            panic!("expected refuted with 2 lanes, {order:?}, got {}", v.name())
        };
        assert!(c.lanes.as_deref().unwrap_or("").starts_with("2 lanes"));
    }
}

fn input(c: &Cex, name: &str) -> u32 {
    c.inputs
        .iter()
        .find(|(n, _, _)| n == name)
        .unwrap_or_else(|| panic!("no input {name} in {:?}", c.inputs))
        .1 as u32
}

/// Store-to-load forwarding across two lanes, checked by a model written here: bytes in a
/// map, dword stores little-endian, lanes of the store in either order, every lane in range
/// (the precondition).
#[test]
fn store_load_forward_counterexample_is_real() {
    let text = "Name: fwd
Pre: LDS_SIZE >= 4 && %a <= LDS_SIZE - 4
  ds_write_b32 %a, %x
  ds_read_b32 %y, %a
=>
  ds_write_b32 %a, %x
  v_mov_b32 %y, %x
";
    assert!(matches!(
        verdict(text, Target::Gfx900, mode(1, LaneOrder::Any)),
        Verdict::Proved
    ));
    let Verdict::Refuted(c) = verdict(text, Target::Gfx900, mode(2, LaneOrder::Any)) else {
        panic!("expected refuted")
    };
    let a = [input(&c, "%a@lane0"), input(&c, "%a@lane1")];
    let x = [input(&c, "%x@lane0"), input(&c, "%x@lane1")];
    let y0 = [input(&c, "%y@lane0"), input(&c, "%y@lane1")];
    // EXEC is 64 bits on gfx900; the two checked lanes have the ids LANE_ID@lane0/1.
    let exec = (input(&c, "exec_hi") as u64) << 32 | input(&c, "exec_lo") as u64;
    let ids = [input(&c, "LANE_ID@lane0"), input(&c, "LANE_ID@lane1")];
    assert!(ids[0] < ids[1] && ids[1] < 64, "{ids:?}");
    let active = |l: usize| exec >> ids[l] & 1 == 1;
    let init: BTreeMap<u32, u8> = c.mem[AddrSpace::Lds]
        .iter()
        .map(|(a, v)| (*a as u32, *v))
        .collect();
    let run = |order: [usize; 2], forward: bool| -> (BTreeMap<u32, u8>, [u32; 2]) {
        let mut mem = init.clone();
        for l in order {
            if active(l) {
                for i in 0..4 {
                    mem.insert(a[l].wrapping_add(i), (x[l] >> (8 * i)) as u8);
                }
            }
        }
        let mut y = y0;
        for l in 0..2 {
            if active(l) {
                y[l] = if forward {
                    x[l]
                } else {
                    (0..4).fold(0u32, |acc, i| {
                        let b = mem.get(&a[l].wrapping_add(i)).copied().unwrap_or(0);
                        acc | (b as u32) << (8 * i)
                    })
                };
            }
        }
        (mem, y)
    };
    let orders = [[0, 1], [1, 0]];
    let some_target_order_differs_from_every_source_order = orders.iter().any(|t| {
        let (tm, ty) = run(*t, true);
        orders.iter().all(|s| {
            let (sm, sy) = run(*s, false);
            sy != ty || sm != tm
        })
    });
    assert!(
        some_target_order_differs_from_every_source_order,
        "counterexample does not show a difference: {c:?}"
    );
}

#[test]
fn cross_lane_swizzle_and_bpermute() {
    // swizzle(SWAP,1) reads lane i^1; bpermute with ADDR = (LANE_ID ^ 1) * 4 reads the same
    // lane, and both give 0 for an inactive source lane.
    let same = "Name: s
Pre: %a == (LANE_ID ^ 1) * 4
  ds_bpermute_b32 %y, %a, %x
=>
  ds_swizzle_b32 %y, %x offset:swizzle(SWAP,1)
";
    for t in [Target::Gfx900, Target::Gfx1100] {
        assert!(matches!(
            verdict(same, t, mode(4, LaneOrder::Any)),
            Verdict::Proved
        ));
    }
    // SWAP,2 reads lane i^2: not the same lane.
    let other = same.replace("SWAP,1", "SWAP,2");
    let Verdict::Refuted(c) = verdict(&other, Target::Gfx900, mode(4, LaneOrder::Any)) else {
        panic!("expected refuted")
    };
    // Some active lane must read a lane whose value differs between id^1 and id^2 (a lane
    // that is not among the four checked ones is inactive and reads as 0).
    let exec = (input(&c, "exec_hi") as u64) << 32 | input(&c, "exec_lo") as u64;
    let ids: Vec<u32> = (0..4)
        .map(|l| input(&c, &format!("LANE_ID@lane{l}")))
        .collect();
    let x: Vec<u32> = (0..4).map(|l| input(&c, &format!("%x@lane{l}"))).collect();
    let read = |id: u32| match ids.iter().position(|i| *i == id) {
        Some(k) if exec >> id & 1 == 1 => x[k],
        _ => 0,
    };
    assert!(
        ids.iter()
            .any(|&i| exec >> i & 1 == 1 && read(i ^ 1) != read(i ^ 2)),
        "{c:?}"
    );
}

/// Lanes are any N lanes of the wave, not lanes 0..N-1: a bpermute from lane 16 is not 0 when
/// lane 16 may be one of the checked lanes, and one checked lane is the single-lane check.
#[test]
fn checked_lanes_are_anywhere_in_the_wave() {
    let from16 = "Name: b
Pre: %a == 64
  ds_bpermute_b32 %y, %a, %x
=>
  v_mov_b32 %y, 0
";
    assert!(matches!(
        verdict(from16, Target::Gfx900, mode(2, LaneOrder::Any)),
        Verdict::Refuted(_)
    ));
    // The addtid address depends on LANE_ID: wrong for every lane but 0, with one lane too.
    let addtid = "Name: a
Pre: %z == (M0 & 0xffff)
  ds_read_addtid_b32 %y
=>
  ds_read_b32 %y, %z
";
    assert!(matches!(
        verdict(addtid, Target::Gfx900, None),
        Verdict::Refuted(_)
    ));
    assert!(matches!(
        verdict(addtid, Target::Gfx900, mode(1, LaneOrder::Any)),
        Verdict::Refuted(_)
    ));
}

#[test]
fn writing_exec_needs_lanes() {
    let text = "Name: e
  s_mov_b32 exec_lo, 0
  ds_write_b32 %a, %x
=>
  s_mov_b32 exec_lo, 0
";
    let rules = parse_rules("t.rules", text).unwrap();
    let e = check(&rules[0], Target::Gfx900, &Options::default()).unwrap_err();
    assert_eq!((e.loc.line, e.loc.col), (2, 3), "{e}");
    // With lanes, on wave32 the store is masked off: proved. On wave64 lanes 32..63 still
    // run (exec_hi is untouched): refuted.
    assert!(matches!(
        verdict(text, Target::Gfx1030, mode(2, LaneOrder::Any)),
        Verdict::Proved
    ));
    assert!(matches!(
        verdict(text, Target::Gfx900, mode(2, LaneOrder::Any)),
        Verdict::Refuted(_)
    ));
}

#[test]
fn cross_lane_op_without_lanes_is_an_input_error() {
    let rules = parse_rules(
        "t.rules",
        "Name: s\n  ds_swizzle_b32 %y, %x offset:0\n=>\n  v_mov_b32 %y, %x\n",
    )
    .unwrap();
    let e = check(&rules[0], Target::Gfx900, &Options::default()).unwrap_err();
    assert_eq!((e.loc.line, e.loc.col), (2, 3), "{e}");
    assert!(e.msg.contains("cross-lane"), "{e}");
}

#[test]
fn wave_level_op_with_lanes_is_an_input_error() {
    // One update per wave (docs/lanes.md): the lane expansion would count it once per lane.
    let rules = parse_rules(
        "t.rules",
        "Name: a\n  ds_append %x offset:4\n=>\n  ds_append %x offset:4\n",
    )
    .unwrap();
    let opts = Options {
        lanes: mode(2, LaneOrder::Any),
        ..Default::default()
    };
    let e = check(&rules[0], Target::Gfx900, &opts).unwrap_err();
    assert_eq!((e.loc.line, e.loc.col), (2, 3), "{e}");
    assert!(e.msg.contains("wave-level"), "{e}");
    // Without lanes it is checked: a rule equal on both sides is proved.
    assert!(matches!(
        verdict(
            "Name: a\n  ds_append %x offset:4\n=>\n  ds_append %x offset:4\n",
            Target::Gfx900,
            None
        ),
        Verdict::Proved
    ));
}

#[test]
fn lanes_header_errors_point_at_the_value() {
    for (text, col) in [
        ("Lanes: 0", 8),
        ("Lanes: 9", 8),
        ("Lanes: two", 8),
        ("Lanes: 2 sideways", 10),
    ] {
        let src = format!("Name: r\n{text}\n  ds_read_b32 %y, %a\n=>\n  ds_read_b32 %y, %a\n");
        let e = parse_rules("t.rules", &src).unwrap_err();
        assert_eq!((e.loc.line, e.loc.col), (2, col), "{text}: {e}");
    }
}

#[test]
fn cli_lanes_usage_and_exit_codes() {
    let bin = env!("CARGO_BIN_EXE_gcnsmt");
    let tmp = gcnsmt_testkit::TempDir::new("lanes");
    let f = tmp.write("w2.rules", &format!("{WRITE2}Expect: proved\n"));
    let run = |args: &[&str]| {
        let r = gcnsmt_testkit::run(bin, args, None, &[]);
        (r.code, r.all())
    };
    let p = f.to_str().unwrap();
    let (code, out) = run(&["verify", p, "--target", "gfx900", "--lanes", "1"]);
    assert_eq!(code, 0, "{out}");
    let (code, out) = run(&["verify", p, "--target", "gfx900", "--lanes", "2"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("lanes=2 any"), "{out}");
    assert!(out.contains("lanes: 2 lanes"), "{out}");
    let (code, out) = run(&["verify", p, "--lanes", "9"]);
    assert_eq!(code, 2, "{out}");
    let (code, out) = run(&["verify", p, "--lanes", "2", "--lane-order", "sideways"]);
    assert_eq!(code, 2, "{out}");
}
