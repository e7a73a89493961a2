//! `gcnsmt atomics`: every expected verdict and value here is computed by hand in the test
//! (modular arithmetic, IEEE single precision with Rust's f32), never taken from our output.

use gcnsmt_semantics::target::Target;
use gcnsmt_verifier::wave::analyze::{analyze, OpReport};
use gcnsmt_verifier::wave::brute::cross_check;
use gcnsmt_verifier::wave::concrete::Conc;
use gcnsmt_verifier::wave::ops::{ds_atomics, AtomicOp};
use gcnsmt_verifier::wave::optimizer::{check_schedule, Needs, Strategy};
use gcnsmt_verifier::wave::props;
use gcnsmt_verifier::wave::Verdict;
use std::time::Duration;

const T: Duration = Duration::from_secs(20);

fn op(target: Target, m: &str) -> AtomicOp {
    ds_atomics(&[target])
        .into_iter()
        .find(|o| o.mnemonic == m)
        .unwrap_or_else(|| panic!("{m} on {}", target.name()))
}

fn report(target: Target, m: &str) -> OpReport {
    analyze(&op(target, m), T).unwrap()
}

fn proved(v: &Verdict) -> bool {
    matches!(v, Verdict::Proved(_))
}

#[test]
fn op_list_follows_the_opcode_tables() {
    // gfx6 has no float atomics; gfx90a adds ds_add_f64 (LLVM DSInstructions.td);
    // gfx11 renames cmpst to cmpstore.
    let si: Vec<_> = ds_atomics(&[Target::Gfx600])
        .into_iter()
        .map(|o| o.mnemonic)
        .collect();
    assert!(si.contains(&"ds_add_rtn_u32") && !si.contains(&"ds_add_rtn_f32"));
    let a: Vec<_> = ds_atomics(&[Target::Gfx90a])
        .into_iter()
        .map(|o| o.mnemonic)
        .collect();
    assert!(a.contains(&"ds_add_rtn_f64"));
    let r3: Vec<_> = ds_atomics(&[Target::Gfx1100])
        .into_iter()
        .map(|o| o.mnemonic)
        .collect();
    assert!(r3.contains(&"ds_cmpstore_rtn_b32") && !r3.contains(&"ds_cmpst_rtn_b32"));
}

#[test]
fn add_u32_all_proved_and_prefix_sums_by_hand() {
    let r = report(Target::Gfx900, "ds_add_rtn_u32");
    for v in [
        &r.mem_lanes,
        &r.ret_scan,
        &r.opt_iter,
        &r.opt_dpp,
        &r.opt_uniform,
    ] {
        assert!(proved(v), "{v:?}");
    }
    // Memory 100, lanes 0..2 add 3, 5, 7 in lane order: returns 100, 103, 108; memory 115.
    let c = Conc::new(&r.op);
    let data = [(3, 0), (5, 0), (7, 0)];
    let s = c.serialize(100, &data, &[0, 1, 2]).unwrap();
    assert_eq!(s.mem, 115);
    assert_eq!(s.rets, vec![Some(100), Some(103), Some(108)]);
    // Order 2,0,1: lane 2 first gets 100, lane 0 gets 107, lane 1 gets 110.
    let s = c.serialize(100, &data, &[2, 0, 1]).unwrap();
    assert_eq!(s.rets, vec![Some(107), Some(110), Some(100)]);
    // The rewrite on a wave64 with EXEC = lanes 0, 1, 2 and on a wave32 with lanes 0, 16, 31.
    let mut d = vec![0u128; 64];
    d[..3].copy_from_slice(&[3, 5, 7]);
    for s in [Strategy::Iterative, Strategy::DppGfx9, Strategy::DppGfx10] {
        let o = c.optimized(s, 64, 0b111, 100, &d).unwrap();
        assert_eq!(o.mem, 115, "{s:?}");
        assert_eq!(&o.rets[..3], &[Some(100), Some(103), Some(108)], "{s:?}");
        assert!(o.rets[3..].iter().all(Option::is_none));
    }
    let mut d = vec![0u128; 32];
    d[0] = 3;
    d[16] = 5;
    d[31] = 7;
    let o = c
        .optimized(Strategy::DppGfx10, 32, 1 | 1 << 16 | 1 << 31, 100, &d)
        .unwrap();
    assert_eq!(
        (o.rets[0], o.rets[16], o.rets[31]),
        (Some(100), Some(103), Some(108))
    );
}

#[test]
fn sub_is_scanned_with_add() {
    let r = report(Target::Gfx900, "ds_sub_rtn_u32");
    assert!(proved(&r.opt_iter) && proved(&r.opt_dpp) && proved(&r.opt_uniform));
    // 10 - 1 - 2 wraps: memory 10, lanes subtract 1 and 20: 10 - 21 = 2^32 - 11.
    let c = Conc::new(&r.op);
    let s = c.serialize(10, &[(1, 0), (20, 0)], &[0, 1]).unwrap();
    assert_eq!(s.mem, (1u128 << 32) - 11);
    assert_eq!(s.rets, vec![Some(10), Some(9)]);
}

#[test]
fn rsub_order_dependence_replays_by_hand() {
    // rsub: m' = d - m. Order a,b gives b - (a - m) = b - a + m, order b,a gives a - b + m:
    // they differ exactly when 2(b - a) != 0 mod 2^32.
    let r = report(Target::Gfx900, "ds_rsub_rtn_u32");
    let Verdict::Refuted(w) = &r.mem_lanes else {
        panic!("{:?}", r.mem_lanes)
    };
    let (a, b, m) = (w.data[0].1 as u32, w.data[1].1 as u32, w.mem as u32);
    assert_ne!(b.wrapping_sub(a).wrapping_mul(2), 0);
    let x = b.wrapping_sub(a.wrapping_sub(m));
    let y = a.wrapping_sub(b.wrapping_sub(m));
    assert_ne!(x, y);
    assert!(w.detail.contains(&format!("{x:#010x}")) && w.detail.contains(&format!("{y:#010x}")));
    assert!(matches!(r.opt_iter, Verdict::NotApplicable(_)));
}

#[test]
fn inc_order_dependence_and_uniform_memory_independence() {
    let r = report(Target::Gfx900, "ds_inc_rtn_u32");
    assert!(matches!(r.mem_lanes, Verdict::Refuted(_)));
    assert!(proved(&r.mem_uniform));
    // Hand: limits 1 and 5 from memory 1: (1 >= 1 ? 0 : 2) then 0 < 5 -> 1; the other order
    // 1 < 5 -> 2, then 2 >= 1 -> 0.
    let c = Conc::new(&r.op);
    let data = [(1, 0), (5, 0)];
    assert_eq!(c.serialize(1, &data, &[0, 1]).unwrap().mem, 1);
    assert_eq!(c.serialize(1, &data, &[1, 0]).unwrap().mem, 0);
}

#[test]
fn fadd_strict_refuted_with_ieee_witness() {
    let r = report(Target::Gfx900, "ds_add_rtn_f32");
    let Verdict::Refuted(w) = &r.opt_iter else {
        panic!("{:?}", r.opt_iter)
    };
    // Recompute with Rust's f32: the lane-order serialization is ((m + a) + b) + ..., the
    // rewrite m + (((-0 + a) + b) + ...). They must differ on the witness.
    let f = |x: u128| f32::from_bits(x as u32);
    let m = f(w.mem);
    let serial = w.data.iter().fold(m, |acc, d| acc + f(d.1));
    let red = w.data.iter().fold(-0.0f32, |acc, d| acc + f(d.1));
    assert_ne!((m + red).to_bits(), serial.to_bits());
    // Uniform 1.0 on two lanes from 2^24: 2^24 + 1 rounds to 2^24 (ties to even) twice, while
    // 2^24 + 1.0 * 2 = 2^24 + 2 is exact.
    let big = 16_777_216.0f32;
    assert_eq!(((big + 1.0) + 1.0).to_bits(), big.to_bits());
    assert_eq!((big + 2.0).to_bits(), 0x4b80_0001);
    assert!(matches!(r.opt_uniform, Verdict::Refuted(_)));
}

#[test]
fn fmin_signed_zeros_make_the_order_matter() {
    // DS_MIN_F32 as the guides write it (`src < tmp ? src : tmp`) keeps the memory value when
    // +0 meets -0 (they compare equal), so the lane that comes first wins.
    let r = report(Target::Gfx900, "ds_min_rtn_f32");
    let Verdict::Refuted(w) = &r.mem_lanes else {
        panic!("{:?}", r.mem_lanes)
    };
    let mut zeros: Vec<u128> = w.data.iter().map(|d| d.1).collect();
    zeros.sort();
    assert_eq!(zeros, vec![0, 0x8000_0000]);
    // gfx12's minimumNumber orders -0 below +0: everything is proved.
    let r = report(Target::Gfx1200, "ds_min_num_rtn_f32");
    assert!(proved(&r.mem_lanes) && proved(&r.opt_iter) && proved(&r.opt_dpp));
}

#[test]
fn schedules_combine_exactly_the_lanes_below() {
    assert_eq!(check_schedule(Strategy::Iterative, 64), Needs::Assoc);
    assert_eq!(check_schedule(Strategy::Iterative, 32), Needs::Assoc);
    // DPP combines `v (+) shifted`: higher lanes on the left, so commutativity is needed.
    assert_eq!(check_schedule(Strategy::DppGfx9, 64), Needs::AssocComm);
    assert_eq!(check_schedule(Strategy::DppGfx10, 64), Needs::AssocComm);
    assert_eq!(check_schedule(Strategy::DppGfx10, 32), Needs::AssocComm);
}

#[test]
fn add_distinct_returns_2_27_and_2_28() {
    for lanes in [64, 32] {
        let p = props::add_distinct(lanes, T);
        assert!(proved(&p.verdict), "{p:?}");
    }
    // Hand: on wave64 lanes 0 and 32 get m and m + 32 * 2^27 = m + 2^32 = m.
    let o = op(Target::Gfx900, "ds_add_rtn_u32");
    let c = Conc::new(&o);
    let full: Vec<usize> = (0..64).collect();
    let distinct = |d: u128, n: usize| {
        let s = c.serialize(7, &vec![(d, 0); n], &full[..n]).unwrap();
        let mut v: Vec<u128> = s.rets.into_iter().flatten().collect();
        v.sort();
        v.dedup();
        v.len() == n
    };
    assert!(!distinct(1 << 27, 64));
    assert!(distinct(1 << 26, 64));
    assert!(distinct(3 << 26, 64));
    assert!(distinct(1 << 27, 32));
    assert!(!distinct(1 << 28, 32));
}

#[test]
fn inc_with_limit_distinct_exactly_when_l_plus_1_covers_the_lanes() {
    let p = props::inc_distinct(T);
    assert!(proved(&p.verdict), "{p:?}");
    // Hand: from memory 0, limit L returns 0, 1, ..., L, 0, ...
    let o = op(Target::Gfx900, "ds_inc_rtn_u32");
    let c = Conc::new(&o);
    let lanes: Vec<usize> = (0..64).collect();
    let rets = |l: u128| {
        let s = c.serialize(0, &vec![(l, 0); 64], &lanes).unwrap();
        s.rets.into_iter().flatten().collect::<Vec<_>>()
    };
    let r = rets(62);
    assert_eq!(r[62], 62);
    assert_eq!(r[63], 0);
    let r = rets(63);
    assert_eq!(r, (0..64).collect::<Vec<u128>>());
}

#[test]
fn brute_force_agrees_with_the_verdicts() {
    for m in [
        "ds_add_rtn_u32",
        "ds_xor_rtn_b64",
        "ds_max_rtn_i32",
        "ds_wrxchg_rtn_b32",
    ] {
        let r = report(Target::Gfx900, m);
        let b = cross_check(&r, 4).unwrap();
        assert_eq!(b.mismatches, 0, "{m}: {:?}", b.first_mismatch);
        // 15 EXEC masks of 4 lanes, sum of k! over their active counts is 64, 4 samples each.
        assert_eq!(b.orders, 64 * 4);
    }
}

#[test]
fn cli_prints_the_table_and_json() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .args([
            "atomics",
            "--target",
            "gfx900",
            "--op",
            "ds_xor_rtn_b32",
            "--brute",
            "2",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("| ds_xor_rtn_b32 | gfx900 | proved | proved | proved | proved | proved | proved | n/a |"), "{text}");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .args([
            "atomics",
            "--target",
            "gfx900,gfx1100",
            "--op",
            "ds_xor_rtn_b32",
            "--format",
            "json",
            "--brute",
            "0",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // 2 targets x 7 properties, then the summary.
    assert_eq!(lines.len(), 15);
    assert_eq!(lines[14]["type"], "summary");
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .args(["atomics", "--target", "gfx999"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn expectation_files_report_mismatches_and_bad_lines() {
    let dir = std::env::temp_dir().join(format!("gcnsmt-expect-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.expect");
    // xor is commutative; rsub is not (b - (a - m) != a - (b - m) when 2(b - a) != 0).
    std::fs::write(
        &good,
        "; comment\nds_xor_rtn_b32 mem-lanes proved\nds_rsub_rtn_u32 mem-lanes proved ; wrong on purpose\n",
    )
    .unwrap();
    let run = |p: &std::path::Path| {
        std::process::Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
            .args(["atomics", "--target", "gfx900", "--brute", "0", "--expect"])
            .arg(p)
            .output()
            .unwrap()
    };
    let out = run(&good);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("good.expect:3: ds_rsub_rtn_u32 mem-lanes: expected proved, got refuted"),
        "{err}"
    );
    assert!(err.contains("2 checked, 1 mismatches"), "{err}");
    let bad = dir.join("bad.expect");
    std::fs::write(&bad, "ds_xor_rtn_b32 mem-lanes\n").unwrap();
    let out = run(&bad);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("bad.expect:1:1: expected `OP PROPERTY VERDICT`, found 2 words"),
        "{err}"
    );
    std::fs::write(&bad, "ds_xor_rtn_b32 mem-lanes  maybe\n").unwrap();
    let err = String::from_utf8(run(&bad).stderr).unwrap();
    assert!(
        err.contains("bad.expect:1:27: unknown verdict `maybe`"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn corpus_expectations_hold() {
    let file =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../proofs/wave_atomics.expect");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .args(["atomics", "--brute", "1", "--expect"])
        .arg(&file)
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("0 mismatches"), "{err}");
}
