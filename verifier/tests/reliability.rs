//! Reproducers of issue 19 (reliability): inputs that crashed, hung or silently checked nothing.
//! Each must now give one clear error (exit 2) or the right verdict, never a panic, a stack
//! overflow or a hang. Every run here has a time bound, so a regression fails instead of
//! hanging the test suite.

use gcnsmt_testkit::{Run, TempDir};
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Run the binary with `args`, killing it after `limit` (a hang is a test failure, not a stuck
/// suite).
fn run_for(args: &[&str], limit: Duration) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .args(args)
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start gcnsmt");
    // Drain both pipes on threads so a chatty child cannot block on a full pipe.
    let mut out = child.stdout.take().expect("piped");
    let mut err = child.stderr.take().expect("piped");
    let t_out = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        s
    });
    let t_err = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("gcnsmt {args:?} still running after {limit:?} (a hang)");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let text = |v: Vec<u8>| String::from_utf8_lossy(&v).into_owned();
    let r = Run {
        code: status.code().unwrap_or(-1),
        stdout: text(t_out.join().expect("stdout thread")),
        stderr: text(t_err.join().expect("stderr thread")),
    };
    r.assert_no_panic();
    assert!(
        !r.stderr.contains("stack overflow"),
        "stack overflow\n{}",
        r.context()
    );
    r
}

fn run(args: &[&str]) -> Run {
    run_for(args, Duration::from_secs(120))
}

/// A rule that holds on every target (a store rewritten to itself), named `name`.
fn trivial_rule(name: &str) -> String {
    format!(
        "Name: {name}\nTargets: gfx900\n  ds_write_b32 %a, %x offset:0\n=>\n  ds_write_b32 %a, %x offset:0\n"
    )
}

/// A rule name of 65,536+ characters used to panic in the matrix ("Formatting argument out of
/// range": a `{:<width$}` width is at most 65,535).
#[test]
fn a_very_long_rule_name_is_printed_in_the_matrix() {
    let dir = TempDir::new("long-name");
    let name = "n".repeat(70_000);
    let p = dir.write("long.rules", &trivial_rule(&name));
    let r = run(&["verify", p.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.context());
    // The matrix row: the name, then the gfx900 column's `P`.
    let row = r
        .stdout
        .lines()
        .find(|l| l.starts_with(&name) && l.len() > name.len() + 4)
        .unwrap_or_else(|| panic!("no matrix row\n{}", &r.stdout[..2000.min(r.stdout.len())]));
    assert!(row.contains(" P"), "row `{}`", &row[name.len()..]);
}

/// `--timeout` past `Duration`'s range (about 1.8e19 s) used to panic in `core::time`; every
/// command now applies the one limit (at most a week) and rejects 0.
#[test]
fn a_huge_or_zero_timeout_is_a_usage_error_in_every_command() {
    let dir = TempDir::new("timeout");
    let p = dir.write("t.rules", &trivial_rule("t"));
    let p = p.to_str().unwrap();
    let doc = dir.write("d.json", "{}");
    let doc = doc.to_str().unwrap();
    for t in ["1e20", "0", "604801"] {
        for args in [
            vec!["verify", p, "--timeout", t],
            vec!["bench", p, "--timeout", t],
            vec!["spec-check", doc, "--timeout", t],
            vec![
                "atomics",
                "--op",
                "ds_add_u32",
                "--brute",
                "0",
                "--timeout",
                t,
            ],
        ] {
            let r = run(&args);
            assert_eq!(r.code, 2, "{args:?}\n{}", r.context());
            assert!(
                r.stderr.contains("error: --timeout"),
                "{args:?}: the error names the flag\n{}",
                r.context()
            );
        }
    }
}

/// `verify` on one rule file with text `text`; the run must be an input error (exit 2) whose
/// one error line contains `msg`.
fn expect_error(tag: &str, text: &str, msg: &str) -> Run {
    let dir = TempDir::new(tag);
    let p = dir.write(&format!("{tag}.rules"), text);
    let r = run(&["verify", p.to_str().unwrap(), "--no-matrix"]);
    assert_eq!(
        r.code,
        2,
        "{tag}\n{}",
        &r.context()[..r.context().len().min(3000)]
    );
    let errs = r.error_lines();
    assert!(
        errs.iter().any(|l| l.contains(msg)),
        "{tag}: want `{msg}`\n{}",
        &r.context()[..r.context().len().min(3000)]
    );
    r
}

/// Deep nesting used to overflow the stack (about 1,900 parentheses on a worker thread, a
/// 3,000-term `||` chain, deep `offset:` expressions); past 256 levels it is now an error.
#[test]
fn deep_nesting_in_pre_and_offsets_is_an_error_not_a_stack_overflow() {
    let body = "  ds_write_b32 %a, %x offset:%c\n=>\n  ds_write_b32 %a, %x offset:%c\n";
    for (tag, pre) in [
        (
            "parens-2000",
            format!("{}%c{} == 0", "(".repeat(2000), ")".repeat(2000)),
        ),
        (
            "parens-9000",
            format!("{}%c{} == 0", "(".repeat(9000), ")".repeat(9000)),
        ),
        ("or-chain-3000", vec!["%c == 1"; 3000].join(" || ")),
        ("not-chain-5000", format!("{}(%c == 1)", "!".repeat(5000))),
    ] {
        let text = format!("Name: deep\nTargets: gfx900\nPre: {pre}\n{body}");
        expect_error(tag, &text, "nested too deeply");
    }
    let deep = format!("{}%c{}", "(".repeat(3000), ")".repeat(3000));
    let text = format!(
        "Name: deep\nTargets: gfx900\n  ds_write_b32 %a, %x offset:{deep}\n=>\n  ds_write_b32 %a, %x offset:%c\n"
    );
    expect_error("offset-3000", &text, "nested too deeply");
}

/// Nesting within the bound still works: a 200-term `||` chain (its tree is 200 deep) whose
/// last term holds, so the rule is proved (a hand argument: the rewrite is the identity).
#[test]
fn nesting_within_the_bound_is_still_checked() {
    let dir = TempDir::new("within");
    let pre = format!("{} || %c == 4", vec!["%c == 1"; 199].join(" || "));
    let text = format!(
        "Name: within\nTargets: gfx900\nPre: {pre}\n  ds_write_b32 %a, %x offset:%c\n=>\n  ds_write_b32 %a, %x offset:%c\n"
    );
    let p = dir.write("w.rules", &text);
    let r = run(&["verify", p.to_str().unwrap(), "--no-matrix"]);
    assert_eq!(r.code, 0, "{}", r.context());
    assert!(r.stdout.contains("PROVED"), "{}", r.context());
}
