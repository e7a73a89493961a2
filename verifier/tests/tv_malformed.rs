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

/// A DS access reading GDS (`gds` 1) or LDS (0), its value stored to LDS where the pair can
/// see it. Line 8 is the read; written by hand for gfx900.
fn gds_read(gds: &str) -> String {
    format!(
        "---\nname: gds_read\ntracksRegLiveness: true\nbody: |\n  bb.0:\n    liveins: $vgpr0\n\
         \x20   %0:vgpr_32 = COPY $vgpr0\n\
         \x20   %1:vgpr_32 = DS_READ_B32_gfx9 %0, 0, {gds}, implicit $exec :: (load (s32), addrspace 2)\n\
         \x20   DS_WRITE_B32_gfx9 %0, %1, 4, 0, implicit $exec :: (store (s32), addrspace 3)\n\
         \x20   S_ENDPGM 0\n...\n"
    )
}

/// The DS `gds` operand is one bit. llc-22 accepts `DS_READ_B32_gfx9 %0, 0, 2`
/// (`-run-pass=none -verify-machineinstrs`), prints it as `ds_read_b32 v0, v0 gds` and encodes
/// only the low bit: the object file has `D86C0000`, bit 16 (GDS) clear, an LDS read (checked
/// on a post-RA file with `-start-before=si-memory-legalizer`, text and `-filetype=obj`). tv
/// read any non-zero value as GDS and proved `gds` 1 -> 2, which the binary turns into an LDS
/// read. Now another value than 0 or 1 is an input error at the line of the file that has it;
/// 1 -> 0 (GDS against LDS) stays refuted.
#[test]
fn a_gds_operand_other_than_0_or_1_is_an_input_error() {
    let dir = TempDir::new("tv-malformed-gds");
    let file = |name: &str, gds: &str| {
        let p = dir.write(name, &gds_read(gds));
        p.to_str().unwrap().to_string()
    };
    let (one, two, zero) = (
        file("one.mir", "1"),
        file("two.mir", "2"),
        file("zero.mir", "0"),
    );
    for (before, after, at) in [(&one, &two, &two), (&two, &one, &two)] {
        let r = run(&[
            "tv", "--format", "json", before, after, "--target", "gfx900",
        ]);
        assert_eq!(r.code, 2, "{}", r.context());
        let bl = records(&r, "block");
        assert_eq!(bl[0]["verdict"], "error", "{}", r.context());
        let want = format!(
            "{at}:8:5: DS_READ_B32_gfx9: malformed instruction: the 1-bit gds field cannot hold 2"
        );
        let reason = bl[0]["reason"].as_str().unwrap_or("");
        assert!(reason.contains(&want), "{want}\n{}", r.context());
    }
    let r = run(&["tv", &one, &zero, "--target", "gfx900"]);
    assert_eq!(r.code, 1, "GDS against LDS\n{}", r.context());
}

/// An instruction with fewer explicit operands than its LLVM definition, or an extra
/// immediate, is an input error at its line (it was `unsupported`, exit 3, or for a `COPY` with
/// an extra operand silently `proved`). The hand-written pair `regress/smem_merge_gfx6`
/// (proved on gfx600): line 14 `S_LOAD_DWORDX4_IMM %5, 11, 0` (sbase, offset, cpol:
/// SMInstructions.td), line 15 `%11:sreg_64_xexec = COPY %24.sub0_sub1` (one source). llc-22
/// `-run-pass=none -verify-machineinstrs` rejects each broken file ("Too few operands", "Extra
/// explicit operand on non-variadic instruction") and accepts the pair as shipped.
#[test]
fn an_operand_missing_or_an_extra_immediate_is_an_input_error() {
    let dir = TempDir::new("tv-malformed-count");
    let root = gcnsmt_testkit::workspace_path("tests/data/tv/regress");
    let read = |s: &str| std::fs::read_to_string(root.join(format!("smem_merge_gfx6.{s}.mir")));
    let (b, a) = (read("before").unwrap(), read("after").unwrap());
    let before = dir.write("before.mir", &b);
    let load = "S_LOAD_DWORDX4_IMM %5, 11, 0\n";
    let copy = "COPY %24.sub0_sub1\n";
    let cases = [
        (
            load,
            "S_LOAD_DWORDX4_IMM %5, 11\n",
            "14:5: S_LOAD_DWORDX4_IMM",
            "3 operands, found 2",
        ),
        (
            load,
            "S_LOAD_DWORDX4_IMM %5, 11, 0, 0\n",
            "14:5: S_LOAD_DWORDX4_IMM",
            "3 operands, found 4",
        ),
        (
            copy,
            "COPY %24.sub0_sub1, 0\n",
            "15:5: COPY",
            "1 operand, found 2",
        ),
    ];
    for (old, new, at, why) in cases {
        assert_eq!(a.matches(old).count(), 1, "{old}");
        let after = dir.write("after.mir", &a.replacen(old, new, 1));
        let (bs, as_) = (before.to_str().unwrap(), after.to_str().unwrap());
        let r = run(&["tv", "--format", "json", bs, as_, "--target", "gfx600"]);
        assert_eq!(r.code, 2, "{new}{}", r.context());
        let want = format!("{as_}:{at}: malformed instruction: expected {why}");
        let bl = records(&r, "block");
        let reason = bl[0]["reason"].as_str().unwrap_or("");
        assert!(reason.contains(&want), "{want}\n{}", r.context());
    }
    let after = dir.write("after.mir", &a);
    let r = run(&[
        "tv",
        before.to_str().unwrap(),
        after.to_str().unwrap(),
        "--target",
        "gfx600",
    ]);
    assert_eq!(r.code, 0, "the pair as shipped\n{}", r.context());
}

/// A hand-written gfx900 pair: the after-file commutes the `V_ADD_U32_e64` of line 11
/// (`src0, src1, clamp`: VOP3 without source modifiers) and is proved; `V_ADD_U64_PSEUDO` on
/// line 12 has exactly two sources (SIInstructions.td), `S_AND_B64` on line 13 two.
fn alu_pair(add: &str, pseudo: &str, and: &str) -> String {
    format!(
        "---\nname: alu\ntracksRegLiveness: true\nbody: |\n  bb.0:\n\
         \x20   liveins: $vgpr0, $vgpr1, $vgpr2_vgpr3, $sgpr0_sgpr1\n\
         \x20   %0:vgpr_32 = COPY $vgpr0\n\
         \x20   %1:vgpr_32 = COPY $vgpr1\n\
         \x20   %2:vreg_64 = COPY $vgpr2_vgpr3\n\
         \x20   %6:sreg_64 = COPY $sgpr0_sgpr1\n\
         \x20   %3:vgpr_32 = {add}, implicit $exec\n\
         \x20   %4:vreg_64 = {pseudo}, implicit-def dead $vcc, implicit $exec\n\
         \x20   %5:sreg_64 = {and}, implicit-def dead $scc\n\
         \x20   GLOBAL_STORE_DWORD %2, %3, 0, 0, implicit $exec\n\
         \x20   GLOBAL_STORE_DWORDX2 %2, %4, 8, 0, implicit $exec\n\
         \x20   $sgpr0_sgpr1 = COPY %5\n\
         \x20   S_ENDPGM 0\n...\n"
    )
}

/// ALU instructions with an operand missing are input errors at their line (they were
/// `unsupported`: "expected the clamp immediate", "missing source", "expected 2 sources").
/// llc-22 `-run-pass=none -verify-machineinstrs` accepts the before-file and rejects each
/// broken one ("Expected immediate, but got non-immediate", "Too few operands", "Explicit
/// operand marked as def").
#[test]
fn an_alu_operand_missing_is_an_input_error() {
    let dir = TempDir::new("tv-malformed-alu");
    let (add, pseudo, and) = (
        "V_ADD_U32_e64 %1, %0, 0",
        "V_ADD_U64_PSEUDO %2, %2",
        "S_AND_B64 %6, %6",
    );
    let before = dir.write(
        "before.mir",
        &alu_pair("V_ADD_U32_e64 %0, %1, 0", pseudo, and),
    );
    let bs = before.to_str().unwrap().to_string();
    let cases = [
        (
            alu_pair("V_ADD_U32_e64 %1, %0", pseudo, and),
            "11:5: V_ADD_U32_e64: malformed instruction: the clamp operand is missing",
        ),
        (
            alu_pair("V_ADD_U32_e64 %1", pseudo, and),
            "11:5: V_ADD_U32_e64: malformed instruction: source 1 is missing",
        ),
        (
            alu_pair(add, "V_ADD_U64_PSEUDO %2", and),
            "12:5: V_ADD_U64_PSEUDO: malformed instruction: expected 2 sources, found 1",
        ),
        (
            alu_pair(add, pseudo, "S_AND_B64 %6"),
            "13:5: S_AND_B64: malformed instruction: expected 2 sources, found 1",
        ),
    ];
    for (text, at) in cases {
        let after = dir.write("after.mir", &text);
        let as_ = after.to_str().unwrap();
        let r = run(&["tv", "--format", "json", &bs, as_, "--target", "gfx900"]);
        assert_eq!(r.code, 2, "{at}\n{}", r.context());
        let want = format!("{as_}:{at}");
        let bl = records(&r, "block");
        let reason = bl[0]["reason"].as_str().unwrap_or("");
        assert!(reason.contains(&want), "{want}\n{}", r.context());
    }
    let after = dir.write("after.mir", &alu_pair(add, pseudo, and));
    let r = run(&["tv", &bs, after.to_str().unwrap(), "--target", "gfx900"]);
    assert_eq!(r.code, 0, "the commuted add\n{}", r.context());
}
