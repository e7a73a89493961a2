//! `verify --shard K/N`, `merge`, `verify --list` and the shared result cache: a small corpus
//! sharded 4 ways and merged gives the unsharded run's records, summary and exit code;
//! processes writing one cache at once leave only whole entries; `--cache-read-only` fails on
//! a miss.

use gcnsmt_testkit::{workspace_path, Run, TempDir};
use serde_json::Value;

fn run(args: &[&str]) -> Run {
    let r = gcnsmt_testkit::run(env!("CARGO_BIN_EXE_gcnsmt"), args, None, &[]);
    r.assert_no_panic();
    r
}

/// An unexpected refutation (exit 1) beside the corpus's expected verdicts and errors.
const REFUTED_RULE: &str = "\
Name: max-signed-is-not-unsigned
Targets: gfx900
  ds_max_i32 %a, %v
=>
  ds_max_u32 %a, %v
";

/// The corpus: two `proofs/` files (proved, refuted as expected, expected errors), the
/// refutation above and a file that does not parse (a file error every shard reports).
fn corpus(dir: &TempDir) -> Vec<String> {
    let bad = dir.write("bad.rules", "Name: broken\n  ds_write_b32 %a,\n=>\n");
    let refuted = dir.write("refuted.rules", REFUTED_RULE);
    let mut v: Vec<String> = ["proofs/ds_split.rules", "proofs/ds_errors.rules"]
        .iter()
        .map(|p| workspace_path(p).display().to_string())
        .collect();
    v.push(refuted.display().to_string());
    v.push(bad.display().to_string());
    v
}

const TARGETS: &str = "gfx803,gfx900,gfx90a,gfx1030,gfx1100,gfx1200";

/// JSON Lines as values, the run-dependent `time_ms` removed.
fn lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            v.as_object_mut().unwrap().remove("time_ms");
            v
        })
        .collect()
}

#[test]
fn four_shards_merge_to_the_unsharded_run() {
    let dir = TempDir::new("shard4");
    let files = corpus(&dir);
    let mut base: Vec<&str> = vec!["verify"];
    base.extend(files.iter().map(String::as_str));
    base.extend(["--target", TARGETS, "--format", "json"]);
    let whole = run(&base);
    // The refutation is not expected and the bad file is an error: exit 2 wins.
    assert_eq!(whole.code, 2, "{}", whole.context());
    let mut outs = Vec::new();
    for k in 1..=4 {
        let shard = format!("{k}/4");
        let mut args = base.clone();
        args.extend(["--shard", &shard]);
        let r = run(&args);
        let p = dir.write(&format!("shard{k}.jsonl"), &r.stdout);
        outs.push(p.display().to_string());
    }
    let mut margs = vec!["merge"];
    // Shards in any order.
    margs.extend(outs.iter().rev().map(String::as_str));
    let merged = run(&margs);
    assert_eq!(merged.code, whole.code, "{}", merged.context());
    let (w, m) = (lines(&whole.stdout), lines(&merged.stdout));
    assert_eq!(
        w, m,
        "merged records and summary differ from the unsharded run"
    );
    let verdicts = w.iter().filter(|v| v["type"] == "verdict").count();
    assert!(verdicts >= 12, "the corpus has {verdicts} verdicts");

    // Each check is in exactly one shard's list, and the lists together are the whole list.
    let mut listed: Vec<String> = Vec::new();
    for k in 1..=4 {
        let shard = format!("{k}/4");
        let mut args = vec!["verify"];
        args.extend(files.iter().map(String::as_str));
        args.extend([
            "--target", TARGETS, "--list", "--format", "json", "--shard", &shard,
        ]);
        let r = run(&args);
        assert_eq!(r.code, 0, "{}", r.context());
        listed.extend(
            lines(&r.stdout)
                .iter()
                .map(|v| v["key"].as_str().unwrap().to_string()),
        );
    }
    let mut args = vec!["verify"];
    args.extend(files.iter().map(String::as_str));
    args.extend(["--target", TARGETS, "--list", "--format", "json"]);
    let all = run(&args);
    let mut keys: Vec<String> = lines(&all.stdout)
        .iter()
        .map(|v| v["key"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(keys.len(), listed.len());
    keys.sort();
    listed.sort();
    assert_eq!(keys, listed);

    // A missing shard is an error, not a smaller run.
    let r = run(&["merge", &outs[0], &outs[1], &outs[2]]);
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(r.stderr.contains("missing shard(s) 4/4"), "{}", r.context());
}

#[test]
fn concurrent_writers_and_read_only_cache() {
    let dir = TempDir::new("cache_conc");
    let cache = dir.path().join("cache");
    let rules = workspace_path("proofs/ds_split.rules")
        .display()
        .to_string();
    let c = cache.display().to_string();
    let args = [
        "verify", &rules, "--target", TARGETS, "--format", "json", "--cache", &c,
    ];
    // A miss in read-only mode (the cache is empty): an error, exit 2, nothing checked.
    std::fs::create_dir_all(&cache).unwrap();
    let mut ro: Vec<&str> = args.to_vec();
    ro.push("--cache-read-only");
    let r = run(&ro);
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(
        r.stdout.contains("not in the read-only result cache"),
        "{}",
        r.context()
    );
    assert_eq!(
        std::fs::read_dir(&cache).unwrap().count(),
        0,
        "read-only wrote"
    );
    // Four processes fill the same keys at once.
    let bin = env!("CARGO_BIN_EXE_gcnsmt");
    let children: Vec<_> = (0..4)
        .map(|_| {
            std::process::Command::new(bin)
                .args(args)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut ch in children {
        assert!(ch.wait().unwrap().code() == Some(0));
    }
    // No temporary file is left, and every entry is whole: the read-only run finds all.
    for e in std::fs::read_dir(&cache).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        assert!(name.ends_with(".verdict"), "{name} left behind");
    }
    let r = run(&ro);
    assert_eq!(r.code, 0, "{}", r.context());
    let v = lines(&r.stdout);
    let hits = v.iter().filter(|v| v["type"] == "verdict").count();
    assert!(hits > 0);
    assert!(
        v.iter()
            .filter(|v| v["type"] == "verdict")
            .all(|v| v["note"].as_str().is_some_and(|n| n.contains("cache"))),
        "{}",
        r.stdout
    );
}

/// Issue 33: a shard whose verdict lines were deleted merged into a smaller run with exit 0.
/// Each shard's records must be the ones its own summary counts, and the shards together must
/// report every check of the plan once (`plan_checks`, the positions `seq`).
#[test]
fn a_shard_that_lost_records_is_an_error() {
    let dir = TempDir::new("shard-lost");
    let rules = workspace_path("proofs/ds_split.rules")
        .display()
        .to_string();
    // One shard of one: which checks a shard of several gets depends on the build (the keys
    // include its fingerprint), so a shard of several may hold no two proofs to lose.
    let r = run(&[
        "verify", &rules, "--target", TARGETS, "--format", "json", "--shard", "1/1",
    ]);
    assert_eq!(r.code, 0, "{}", r.context());
    let outs = [r.stdout];
    let ok = dir.write("s1.jsonl", &outs[0]);
    assert_eq!(run(&["merge", ok.to_str().unwrap()]).code, 0);
    // Two proved verdicts deleted from the shard; its summary still counts them.
    let mut gone = 0;
    let cut: String = outs[0]
        .lines()
        .filter(|l| {
            let drop = gone < 2 && l.contains("\"verdict\":\"proved\"");
            gone += usize::from(drop);
            !drop
        })
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(gone, 2, "the shard has two proofs to lose");
    let cut_path = dir.write("s1-cut.jsonl", &cut);
    let r = run(&["merge", cut_path.to_str().unwrap()]);
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(
        r.stderr.contains("records were lost or added"),
        "{}",
        r.context()
    );
    // The summary edited to match (proved lowered by two): the plan still misses two checks.
    let fixed: String = cut
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            if v["type"] == "summary" {
                v["proved"] = (v["proved"].as_u64().unwrap() - 2).into();
            }
            format!("{v}\n")
        })
        .collect();
    let fixed_path = dir.write("s1-fixed.jsonl", &fixed);
    let r = run(&["merge", fixed_path.to_str().unwrap()]);
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(r.stderr.contains("of the plan's"), "{}", r.context());
}
