//! Reproducers of issue 19 (reliability): inputs that crashed, hung or silently checked nothing.
//! Each must now give one clear error (exit 2) or the right verdict, never a panic, a stack
//! overflow or a hang. Every run here has a time bound, so a regression fails instead of
//! hanging the test suite.

use gcnsmt_testkit::{Run, TempDir};
use std::process::Command;
use std::time::Duration;

/// Run the binary with `args`, killing it after `limit` (a hang is a test failure, not a stuck
/// suite).
fn run_for(args: &[&str], limit: Duration) -> Run {
    let r = gcnsmt_testkit::run_for(env!("CARGO_BIN_EXE_gcnsmt"), args, limit);
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

fn mkfifo(p: &std::path::Path) {
    let ok = Command::new("mkfifo").arg(p).status().expect("run mkfifo");
    assert!(ok.success(), "mkfifo {}", p.display());
}

/// A FIFO named `x.rules` in a directory used to block `verify DIR` forever: it is skipped
/// with a warning; named on the command line it is an error (exit 2), not a wait.
#[test]
fn a_fifo_is_skipped_in_a_directory_and_an_error_when_named() {
    let dir = TempDir::new("fifo");
    dir.write("a.rules", &trivial_rule("a"));
    let fifo = dir.path().join("x.rules");
    mkfifo(&fifo);
    let r = run_for(
        &["verify", dir.path().to_str().unwrap(), "--no-matrix"],
        Duration::from_secs(60),
    );
    assert_eq!(r.code, 0, "{}", r.context());
    assert!(
        r.stderr.contains("x.rules: skipped, not a regular file"),
        "{}",
        r.context()
    );
    for cmd in ["verify", "spec-check"] {
        let r = run_for(&[cmd, fifo.to_str().unwrap()], Duration::from_secs(60));
        assert_eq!(r.code, 2, "{cmd}\n{}", r.context());
        assert!(
            r.all().contains("not a regular file"),
            "{cmd}\n{}",
            r.context()
        );
    }
}

/// `verify /dev/zero` grew to gigabytes; devices are not read, and a regular file past the
/// documented 64 MiB limit is an error before it is read.
#[test]
fn devices_and_oversized_files_are_errors() {
    for cmd in ["verify", "spec-check"] {
        let r = run_for(&[cmd, "/dev/zero"], Duration::from_secs(60));
        assert_eq!(r.code, 2, "{cmd}\n{}", r.context());
        assert!(
            r.all().contains("not a regular file"),
            "{cmd}\n{}",
            r.context()
        );
    }
    let dir = TempDir::new("big");
    let big = dir.path().join("big.rules");
    // Sparse: 64 MiB + 1 byte costs no disk.
    std::fs::File::create(&big)
        .unwrap()
        .set_len((64 << 20) + 1)
        .unwrap();
    for cmd in ["verify", "spec-check"] {
        let r = run_for(&[cmd, big.to_str().unwrap()], Duration::from_secs(60));
        assert_eq!(r.code, 2, "{cmd}\n{}", r.context());
        assert!(
            r.all().contains("larger than the input limit of 64 MiB"),
            "{cmd}\n{}",
            r.context()
        );
    }
}

/// A symbolic link cycle (`sub/up -> ..`) made one rule run 41 times: each real directory and
/// file is read once. A link loop on the command line is reported as a loop, not as missing.
#[test]
fn a_symlink_cycle_reads_each_file_once() {
    let dir = TempDir::new("cycle");
    dir.write("one.rules", &trivial_rule("one"));
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    std::os::unix::fs::symlink("..", dir.path().join("sub/up")).unwrap();
    std::os::unix::fs::symlink("one.rules", dir.path().join("alias.rules")).unwrap();
    let r = run(&["verify", dir.path().to_str().unwrap(), "--format", "json"]);
    assert_eq!(r.code, 0, "{}", r.context());
    let verdicts = r
        .stdout
        .lines()
        .filter(|l| l.contains("\"type\":\"verdict\""))
        .count();
    assert_eq!(verdicts, 1, "one rule on one target\n{}", r.context());
    let looped = dir.path().join("loop.rules");
    std::os::unix::fs::symlink("loop.rules", &looped).unwrap();
    let r = run(&["verify", looped.to_str().unwrap()]);
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(
        !r.stderr.contains("no such file") && r.stderr.contains("symbolic links"),
        "{}",
        r.context()
    );
}

/// A UTF-8 byte order mark used to fail with "instruction before the first Name:"; invalid
/// UTF-8 was reported at 1:1 instead of at the bad byte.
#[test]
fn a_bom_is_accepted_and_bad_utf8_is_located() {
    let dir = TempDir::new("utf8");
    let p = dir.path().join("bom.rules");
    std::fs::write(&p, format!("\u{feff}{}", trivial_rule("bom"))).unwrap();
    let r = run(&["verify", p.to_str().unwrap(), "--no-matrix"]);
    assert_eq!(r.code, 0, "{}", r.context());
    let p = dir.path().join("bad.rules");
    let mut bytes = trivial_rule("bad").into_bytes();
    // After "Name: bad\nTargets: gfx900\n  ds_wr": line 3, after 7 characters (2 blanks and
    // `ds_wr`), so column 8 (a hand count).
    let at = "Name: bad\nTargets: gfx900\n  ds_wr".len();
    bytes.insert(at, 0xff);
    std::fs::write(&p, bytes).unwrap();
    let r = run(&["verify", p.to_str().unwrap(), "--no-matrix"]);
    assert_eq!(r.code, 2, "{}", r.context());
    let want = format!("{}:3:8: error: invalid UTF-8", p.display());
    assert!(r.all().contains(&want), "want `{want}`\n{}", r.context());
}

/// A target set that selects nothing used to check nothing and exit 0 without a word.
#[test]
fn a_target_set_that_selects_nothing_is_a_usage_error() {
    let dir = TempDir::new("no-target");
    let p = dir.write("t.rules", &trivial_rule("t"));
    for (t, msg) in [
        ("gfx1100", "--target gfx1100: no selected rule runs"),
        ("", "--target: names no target"),
        (" , ", "--target: names no target"),
    ] {
        let r = run(&["verify", p.to_str().unwrap(), "--target", t]);
        assert_eq!(r.code, 2, "--target `{t}`\n{}", r.context());
        assert!(r.stderr.contains(msg), "--target `{t}`\n{}", r.context());
    }
    // The rule's own target still runs.
    let r = run(&["verify", p.to_str().unwrap(), "--target", "gfx900"]);
    assert_eq!(r.code, 0, "{}", r.context());
}

/// An unwritable `--cache` (or `--emit-smt2`) directory was ignored silently; a regular file
/// there said "File exists". `/proc` takes no new files, even for root.
#[test]
fn an_unusable_output_directory_is_an_error() {
    let dir = TempDir::new("cache");
    let p = dir.write("t.rules", &trivial_rule("t"));
    let p = p.to_str().unwrap();
    for flag in ["--cache", "--emit-smt2"] {
        let r = run(&["verify", p, flag, "/proc"]);
        assert_eq!(r.code, 2, "{flag}\n{}", r.context());
        assert!(
            r.stderr.contains("cannot write there"),
            "{flag}\n{}",
            r.context()
        );
        let r = run(&["verify", p, flag, p]);
        assert_eq!(r.code, 2, "{flag}\n{}", r.context());
        assert!(
            r.stderr.contains("exists and is not a directory"),
            "{flag}\n{}",
            r.context()
        );
    }
}

/// A literal too wide for its type in `Pre:` is one error at its position, not one per target.
#[test]
fn a_too_wide_literal_is_one_located_error() {
    // 2^70 (a hand computation: 1180591620717411303424) does not fit in 64 bits.
    let text = "Name: wide\nPre: %c == 1180591620717411303424\n  ds_write_b32 %a, %x offset:%c\n=>\n  ds_write_b32 %a, %x offset:0\n";
    let r = expect_error("wide", text, "does not fit in .u64");
    assert_eq!(r.error_lines().len(), 1, "{}", r.context());
    assert!(
        r.error_lines()[0].contains("wide.rules:2:6: error:"),
        "{}",
        r.context()
    );
}

/// Terminal escapes in a rule name were written raw to the terminal.
#[test]
fn control_characters_in_rule_names_are_escaped_in_text_output() {
    let dir = TempDir::new("ctl");
    let p = dir.write("c.rules", &trivial_rule("a\u{1b}[2Jb\u{7}c"));
    let r = run(&["verify", p.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.context());
    assert!(
        !r.stdout.contains('\u{1b}') && !r.stdout.contains('\u{7}'),
        "{}",
        r.context()
    );
    // Verdict line and matrix row.
    assert_eq!(
        r.stdout.matches("a\\u{1b}[2Jb\\u{7}c").count(),
        2,
        "{}",
        r.context()
    );
}

/// `atomics --timeout 0` ran with unknown verdicts (exit 0) where `verify` rejects it (tested
/// above with the other commands); `bench` on an empty directory exited 0 where `verify`
/// exits 2; conflicting `--set` flags silently took the last.
#[test]
fn commands_agree_on_empty_inputs_and_conflicting_settings() {
    let dir = TempDir::new("empty");
    for cmd in ["verify", "bench"] {
        let r = run(&[cmd, dir.path().to_str().unwrap()]);
        assert_eq!(r.code, 2, "{cmd}\n{}", r.context());
        assert!(
            r.stderr.contains("no rules found"),
            "{cmd}\n{}",
            r.context()
        );
    }
    let p = dir.write("t.rules", &trivial_rule("t"));
    let p = p.to_str().unwrap();
    let r = run(&[
        "verify",
        p,
        "--set",
        "alignment=DWORD",
        "--set",
        "alignment=STRICT",
    ]);
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(r.stderr.contains("conflict"), "{}", r.context());
    // The same value twice is no conflict.
    let r = run(&[
        "verify",
        p,
        "--set",
        "alignment=DWORD",
        "--set",
        "alignment=DWORD",
    ]);
    assert_eq!(r.code, 0, "{}", r.context());
}

/// In `--format json|sarif` a tool-level error was plain text on stderr with an empty
/// stdout: stdout now holds an error record (JSON Lines, then a summary with exit code 2) or
/// a SARIF log of a failed run.
#[test]
fn machine_formats_get_an_error_record_for_a_tool_error() {
    let dir = TempDir::new("json-err");
    let p = dir.write("t.rules", &trivial_rule("t"));
    let p = p.to_str().unwrap();
    let r = run(&["verify", p, "--format", "json", "--timeout", "0"]);
    assert_eq!(r.code, 2, "{}", r.context());
    let lines: Vec<serde_json::Value> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON Lines"))
        .collect();
    assert_eq!(lines.len(), 2, "{}", r.context());
    assert_eq!(lines[0]["type"], "error");
    assert!(lines[0]["message"].as_str().unwrap().contains("--timeout"));
    assert_eq!(lines[1]["type"], "summary");
    assert_eq!(lines[1]["exit_code"], 2);
    let r = run(&["verify", p, "--format", "sarif", "--target", "gfx1100"]);
    assert_eq!(r.code, 2, "{}", r.context());
    let log: serde_json::Value = serde_json::from_str(&r.stdout).expect("one SARIF document");
    let inv = &log["runs"][0]["invocations"][0];
    assert_eq!(inv["executionSuccessful"], false, "{}", r.context());
    let note = inv["toolExecutionNotifications"][0]["message"]["text"]
        .as_str()
        .unwrap();
    assert!(note.contains("--target gfx1100"), "{note}");
}

/// Deep ISA XML (13,000 levels) overflowed the stack in spec-check; deep pseudocode in a
/// JSON collection too. The XML is an input error, the pseudocode an unchecked item, both
/// saying why. A flag error names the flag, not a `--timeout:0:0:` position.
#[test]
fn spec_check_bounds_deep_xml_and_pseudocode() {
    let dir = TempDir::new("spec-deep");
    let xml = format!(
        "<?xml version=\"1.0\"?>\n{}{}",
        "<a>".repeat(13_000),
        "</a>".repeat(13_000)
    );
    let p = dir.write("deep.xml", &xml);
    let r = run(&["spec-check", p.to_str().unwrap()]);
    assert_eq!(r.code, 2, "{}", r.context());
    // The 1,001st `<a>` starts on line 2 after 1,000 three-character tags: column 3001.
    let want = format!("{}:2:3001: elements nested too deeply", p.display());
    assert!(r.stderr.contains(&want), "want `{want}`\n{}", r.context());
    let pcode = format!(
        "MEM[ADDR].b32 = {}DATA.u32{};",
        "(".repeat(5000),
        ")".repeat(5000)
    );
    let json = serde_json::json!({"target": "gfx950", "PCODE": {"DSOp": {"DS_WRITE_B32": pcode}}});
    let p = dir.write("deep.json", &json.to_string());
    let r = run(&["spec-check", p.to_str().unwrap()]);
    assert!(r.code == 0 || r.code == 1, "{}", r.context());
    assert!(r.stdout.contains("nested too deeply"), "{}", r.context());
    let r = run(&["spec-check", p.to_str().unwrap(), "--timeout", "0"]);
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(
        r.stderr.starts_with("error: --timeout: "),
        "{}",
        r.context()
    );
}

/// Duplicate rule names within one file were exit 2, across files exit 0: now both are an
/// error at the second rule's `Name:` line.
#[test]
fn a_rule_name_used_in_two_files_is_an_error() {
    let dir = TempDir::new("dup");
    let a = dir.write("a.rules", &trivial_rule("same"));
    let b = dir.write("b.rules", &format!("; second\n{}", trivial_rule("same")));
    let r = run(&["verify", dir.path().to_str().unwrap(), "--no-matrix"]);
    assert_eq!(r.code, 2, "{}", r.context());
    let want = format!(
        "{}:2:1: error: rule `same` is already defined at {}:1",
        b.display(),
        a.display()
    );
    assert!(r.stdout.contains(&want), "want `{want}`\n{}", r.context());
    assert_eq!(r.stdout.matches("PROVED").count(), 1, "{}", r.context());
}

/// Errors echoed 100 KB tokens in full; text output keeps a line's start (the position) and
/// end, and says how much it left out.
#[test]
fn an_error_quoting_a_huge_token_is_shortened_in_text_output() {
    let token = "x".repeat(100_000);
    let text =
        format!("Name: big\n  ds_write_b32 %a, %x offset:{token}\n=>\n  ds_write_b32 %a, %x\n");
    let r = expect_error("big-token", &text, "characters left out");
    let line = &r.error_lines()[0];
    assert!(line.len() < 2000, "{} characters", line.len());
    assert!(line.contains("big-token.rules:2:"), "{line}");
}

/// Division by zero in `Pre:` follows SMT-LIB, as docs/cli.md says: `x % 0 == x`, so
/// `%c % 0 == 0` holds exactly when `%c` is 0, and the rewrite of `offset:%c` to `offset:0`
/// is proved. (Were `x % 0` 0, the precondition would always hold and the rule be refuted.)
#[test]
fn remainder_by_zero_in_pre_is_the_dividend() {
    let dir = TempDir::new("rem0");
    let text = "Name: rem0\nTargets: gfx900\nPre: %c % 0 == 0\n  ds_write_b32 %a, %x offset:%c\n=>\n  ds_write_b32 %a, %x offset:0\n";
    let p = dir.write("r.rules", text);
    let r = run(&["verify", p.to_str().unwrap(), "--no-matrix"]);
    assert_eq!(r.code, 0, "{}", r.context());
    assert!(r.stdout.contains("PROVED"), "{}", r.context());
}

/// A cached `proved` is believed as it is: an entry forged with a valid check line (what
/// anyone who can write the cache can do, README trust model) turns a refuted rule PROVED.
/// `--cache-audit N` re-proves cached proofs without the cache and fails (exit 2) on it.
#[test]
fn cache_audit_catches_a_forged_proof() {
    let dir = TempDir::new("audit");
    let p = dir.write(
        "r.rules",
        "Name: moved\nTargets: gfx900\n  ds_write_b32 %a, %v\n=>\n  ds_write_b32 %a, %v offset:4\n",
    );
    let p = p.to_str().unwrap();
    let cache = dir.path().join("cache");
    let c = cache.to_str().unwrap();
    let r = run(&["verify", p, "--cache", c, "--no-matrix"]);
    assert_eq!(r.code, 1, "refuted\n{}", r.context());
    let entry = std::fs::read_dir(&cache)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let key = entry.file_stem().unwrap().to_str().unwrap().to_string();
    // The check line as docs/cli.md specifies it.
    let mut h = blake3::Hasher::new();
    h.update(b"gcnsmt cache entry\0");
    h.update(key.as_bytes());
    h.update(b"\0proved");
    std::fs::write(&entry, format!("proved\ncheck {}\n", h.finalize().to_hex())).unwrap();
    let r = run(&["verify", p, "--cache", c, "--no-matrix"]);
    assert_eq!(r.code, 0, "the forged entry is believed\n{}", r.context());
    assert!(
        r.stdout.contains("from the result cache"),
        "{}",
        r.context()
    );
    let r = run(&[
        "verify",
        p,
        "--cache",
        c,
        "--no-matrix",
        "--cache-audit",
        "5",
    ]);
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(
        r.stdout.contains(
            "cache audit: the cache says `moved` is proved on gfx900, a fresh check says refuted"
        ),
        "{}",
        r.context()
    );
    assert!(
        r.stderr
            .contains("re-checked 1 of the run's 1 cached proofs, 1 disagree"),
        "{}",
        r.context()
    );
    let r = run(&["verify", p, "--cache-audit", "1"]);
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(
        r.stderr.contains("--cache-audit needs --cache"),
        "{}",
        r.context()
    );
}

/// Issue 33: a result-cache entry that is a FIFO blocked `verify --cache` and
/// `--cache-read-only` forever (reading a FIFO waits for a writer). Only regular files are
/// read, so it is a miss: the rule is checked afresh (refuted: the store moved by 4 bytes).
#[test]
fn a_fifo_cache_entry_is_a_miss_not_a_hang() {
    let dir = TempDir::new("cache-fifo");
    let p = dir.write(
        "r.rules",
        "Name: moved\nTargets: gfx900\n  ds_write_b32 %a, %v\n=>\n  ds_write_b32 %a, %v offset:4\n",
    );
    let p = p.to_str().unwrap();
    let cache = dir.path().join("cache");
    let c = cache.to_str().unwrap();
    let r = run(&["verify", p, "--cache", c, "--no-matrix"]);
    assert_eq!(r.code, 1, "refuted\n{}", r.context());
    let entry = std::fs::read_dir(&cache)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    std::fs::remove_file(&entry).unwrap();
    let ok = Command::new("mkfifo").arg(&entry).status().expect("mkfifo");
    assert!(ok.success());
    // Read-only: the entry is a miss, which read-only mode reports (exit 2), without waiting.
    let r = run_for(
        &[
            "verify",
            p,
            "--cache",
            c,
            "--cache-read-only",
            "--no-matrix",
        ],
        Duration::from_secs(60),
    );
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(
        r.stdout.contains("not in the read-only result cache"),
        "{}",
        r.context()
    );
    // Writable: a miss, checked afresh and stored over the FIFO.
    let r = run_for(
        &["verify", p, "--cache", c, "--no-matrix"],
        Duration::from_secs(60),
    );
    assert_eq!(r.code, 1, "checked afresh\n{}", r.context());
    assert!(
        !r.stdout.contains("from the result cache"),
        "{}",
        r.context()
    );
    assert!(std::fs::metadata(&entry).unwrap().is_file());
}
