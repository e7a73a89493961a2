//! Issue 33: a malformed before- or after-file is an input error (exit 2) at its FILE:LINE:COL
//! on every way `tv` gets its MIR: a plain pair, `--pass` (the MIR llc wrote) and `--pipeline`
//! (the MIR of each stop point). The files are the hand-written pair `regress/ds_fold_gfx6`
//! (line 13 is `$m0 = S_MOV_B32 -1`, column 5 its first character) with one line broken:
//! - a 32-bit immediate outside -2^31..2^32-1: `S_MOV_B32 99999999999`. llc-22 accepts it
//!   (`-run-pass=none -verify-machineinstrs`) and emits its low 32 bits
//!   (`s_mov_b32 s0, 0x4876e7ff`, checked with `-start-before=si-pre-emit-peephole`), so the
//!   file does not say what it means; tv truncated it too and refuted the pair.
//! - a tab in the indentation of line 13 (YAML allows spaces only: llc-22 rejects the file).
//!
//! The fake llc scripts print these files for the runs `tv` asks of them.

use gcnsmt_testkit::{Run, TempDir};
use serde_json::Value;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_gcnsmt");
const MOV: &str = "    $m0 = S_MOV_B32 -1\n";
const HUGE: &str = "    $m0 = S_MOV_B32 99999999999\n";
const TAB: &str = "\t$m0 = S_MOV_B32 -1\n";
const WHY_HUGE: &str = "13:5: S_MOV_B32: malformed instruction: the 32-bit operand cannot hold the immediate 99999999999";
const WHY_TAB: &str = "13:1: error: a tab in the indentation";

fn run(args: &[&str]) -> Run {
    let r = gcnsmt_testkit::run_for(BIN, args, Duration::from_secs(120));
    r.assert_no_panic();
    r
}

fn records(r: &Run, kind: &str) -> Vec<Value> {
    r.stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["type"] == kind)
        .collect()
}

/// The pair's files, the after-file with line 13 replaced by `line13` (`MOV`: unchanged).
fn pair(dir: &TempDir, line13: &str) -> (String, String) {
    let root = gcnsmt_testkit::workspace_path("tests/data/tv/regress");
    let read = |s: &str| std::fs::read_to_string(root.join(format!("ds_fold_gfx6.{s}.mir")));
    let (b, a) = (read("before").unwrap(), read("after").unwrap());
    assert_eq!(
        a.lines().nth(12).map(|l| format!("{l}\n")).as_deref(),
        Some(MOV)
    );
    let path = |name: &str, text: &str| dir.write(name, text).to_str().unwrap().to_string();
    (
        path("before.mir", &b),
        path("after.mir", &a.replacen(MOV, line13, 1)),
    )
}

/// An executable script `name` in `dir` that prints `before` when llc is asked for the MIR
/// before the pass (`-run-pass=none`, or `-stop-before=p-one,0`) and `after` otherwise; with
/// `-print-after-all` it lists the one-pass pipeline `p-one` for `--pipeline`, and its `Pass
/// Arguments` differ between a run that stops and one that does not, as llc's do.
fn fake_llc(dir: &TempDir, name: &str, before: &str, after: &str) -> String {
    let body = format!(
        "#!/bin/sh\ncase \" $* \" in\n\
         *\" -print-after-all \"*)\n\
           for p in 'AMDGPU DAG->DAG Pattern Instruction Selection (amdgpu-isel)' \\\n\
                    'Pass One (p-one)'; do\n\
             echo \"# *** IR Dump After $p ***:\" >&2\n\
             echo '# Machine code for function f: IsSSA' >&2\n\
           done\n\
           exit 0 ;;\n\
         *\" -run-pass=none \"*|*\" -stop-before=p-one,0 \"*)\n\
           echo 'Pass Arguments: up to p-one' >&2; cat '{before}' ;;\n\
         *) echo 'Pass Arguments: all' >&2; cat '{after}' ;;\n\
         esac\n"
    );
    let p = dir.write(name, &body);
    let ok = std::process::Command::new("chmod")
        .args(["+x", p.to_str().unwrap()])
        .status()
        .unwrap();
    assert!(ok.success());
    p.to_str().unwrap().to_string()
}

/// The plain pair: the immediate in either file is that file's error at 13:5; the largest
/// values 32 bits hold are no error (4294967295 is -1 as 32 bits: the pair is the original,
/// which `tv_limits` proves on gfx900, a target without gfx6's negative-base rule).
#[test]
fn a_too_wide_immediate_is_an_input_error_in_a_plain_pair() {
    let dir = TempDir::new("tv-malformed-pair");
    let (b, a) = pair(&dir, HUGE);
    for (before, after, at) in [(&b, &a, &a), (&a, &b, &a)] {
        let r = run(&[
            "tv", "--format", "json", before, after, "--target", "gfx900",
        ]);
        assert_eq!(r.code, 2, "{}", r.context());
        let bl = records(&r, "block");
        assert_eq!(bl[0]["verdict"], "error", "{}", r.context());
        let want = format!("{at}:{WHY_HUGE}");
        assert!(
            bl[0]["reason"].as_str().unwrap_or("").contains(&want),
            "{want}\n{}",
            r.context()
        );
    }
    let (b, a) = pair(&dir, "    $m0 = S_MOV_B32 4294967295\n");
    let r = run(&["tv", &b, &a, "--target", "gfx900"]);
    assert_eq!(r.code, 0, "{}", r.context());
    let (b, a) = pair(&dir, "    $m0 = S_MOV_B32 -2147483648\n");
    let r = run(&["tv", &b, &a, "--target", "gfx900"]);
    assert_eq!(
        r.code,
        1,
        "m0 = 0x80000000, not 0xffffffff\n{}",
        r.context()
    );
}

/// `--pass`: the error names the MIR llc wrote: `INPUT@TARGET.after.mir`, or with
/// `--keep-mir DIR` the kept file itself, which the user can open at that line.
#[test]
fn a_malformed_file_from_llc_is_an_input_error_with_pass() {
    let dir = TempDir::new("tv-malformed-pass");
    let input = dir.write("in.mir", "# never read: the fake llc answers\n");
    let input = input.to_str().unwrap();
    let keep = dir.path().join("kept");
    let keep = keep.to_str().unwrap();
    for (line13, why) in [(HUGE, WHY_HUGE), (TAB, WHY_TAB)] {
        let (b, a) = pair(&dir, line13);
        let llc = fake_llc(&dir, "llc-fake", &b, &a);
        for kept in [false, true] {
            let mut args = vec!["tv", "--format", "json", "--pass", "p-one", input];
            args.extend(["--target", "gfx900", "--llc", &llc]);
            if kept {
                args.extend(["--keep-mir", keep]);
            }
            let r = run(&args);
            assert_eq!(r.code, 2, "{}", r.context());
            let name = if kept {
                format!("{keep}/in@gfx900.after.mir")
            } else {
                format!("{input}@gfx900.after.mir")
            };
            let want = format!("{name}:{why}");
            let said = records(&r, "block")
                .first()
                .map_or(String::new(), |v| v["reason"].as_str().unwrap_or("").into());
            assert!(
                said.contains(&want) || r.stderr.contains(&want),
                "{want}\n{}",
                r.context()
            );
            if kept {
                let text = std::fs::read_to_string(&name).unwrap();
                assert_eq!(
                    text.lines().nth(12).map(|l| format!("{l}\n")).as_deref(),
                    Some(line13)
                );
            }
        }
    }
}

/// `--pipeline`: the pass whose after-MIR is malformed is that pass's error, naming its
/// stop point's MIR (with `--keep-mir`, the kept after-file) at the line.
#[test]
fn a_malformed_stop_point_is_that_passs_error_with_pipeline() {
    let dir = TempDir::new("tv-malformed-pipeline");
    let ll = dir.write("in.ll", "; never read: the fake llc answers\n");
    let ll = ll.to_str().unwrap();
    let keep = dir.path().join("kept");
    let keep = keep.to_str().unwrap();
    for (line13, why) in [(HUGE, WHY_HUGE), (TAB, WHY_TAB)] {
        let (b, a) = pair(&dir, line13);
        let llc = fake_llc(&dir, "llc-fake", &b, &a);
        for kept in [false, true] {
            let mut args = vec!["tv", "--format", "json", "--pipeline", ll];
            args.extend(["--target", "gfx900", "--llc", &llc]);
            if kept {
                args.extend(["--keep-mir", keep]);
            }
            let r = run(&args);
            assert_eq!(r.code, 2, "{}", r.context());
            let rows = records(&r, "pass");
            let row = rows.iter().find(|v| v["pass"] == "p-one");
            let row = row.unwrap_or_else(|| panic!("no p-one row\n{}", r.context()));
            let name = if kept {
                format!("{keep}/in@gfx900.p-one.after.mir")
            } else {
                format!("{ll}@gfx900.after=p-one.mir")
            };
            let want = format!("{name}:{why}");
            let mut said = row["reason"].as_str().unwrap_or("").to_string();
            for b in row["blocks"].as_array().into_iter().flatten() {
                said += b["reason"].as_str().unwrap_or("");
            }
            assert!(said.contains(&want), "{want}\n{}", r.context());
            if kept {
                assert!(std::path::Path::new(&name).is_file(), "{}", r.context());
            }
        }
    }
}
