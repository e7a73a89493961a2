//! `gcnsmt verify --format json` is JSON Lines with the documented fields, and
//! `--format sarif` validates against the SARIF 2.1.0 schema (tests/data, from OASIS), as does
//! `spec-check --format sarif`.

use std::path::Path;

fn gcnsmt(args: &[&str]) -> (i32, String) {
    let r = gcnsmt_testkit::run(env!("CARGO_BIN_EXE_gcnsmt"), args, None, &[]);
    (r.code, r.stdout)
}

fn proofs(file: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../proofs")
        .join(file)
        .display()
        .to_string()
}

#[test]
fn json_lines_have_the_documented_fields() {
    let (code, out) = gcnsmt(&[
        "verify",
        &proofs("ds_split.rules"),
        &proofs("ds_errors.rules"),
        "--target",
        "gfx900",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{out}");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    // Two verdicts (split rules on gfx900), one expected error, one summary.
    let kinds: Vec<&str> = lines.iter().map(|v| v["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["verdict", "verdict", "error", "summary"], "{out}");
    let refuted = lines
        .iter()
        .find(|v| v["verdict"] == "refuted")
        .expect("one refuted");
    assert_eq!(
        refuted["rule"],
        "ds-read2-b64-split-address-clobbered-first"
    );
    assert_eq!(refuted["target"], "gfx900");
    assert_eq!(refuted["as_expected"], true);
    assert_eq!(refuted["settings"]["alignment"], "UNALIGNED");
    assert!(refuted["line"].as_u64().unwrap() > 0);
    assert!(refuted["counterexample"]["first_difference"].is_string());
    assert!(!refuted["counterexample"]["registers"]
        .as_array()
        .unwrap()
        .is_empty());
    let err = &lines[2];
    assert_eq!(err["expected"], true);
    // The offending line, computed from the file rather than hard-coded.
    let text = std::fs::read_to_string(proofs("ds_errors.rules")).unwrap();
    let want = text
        .lines()
        .position(|l| l.contains("offset1:256"))
        .unwrap()
        + 1;
    assert_eq!(
        err["line"], want as u64,
        "offset1:256 is on line {want} of ds_errors.rules"
    );
    let summary = &lines[3];
    assert_eq!(summary["proved"], 1);
    assert_eq!(summary["refuted"], 1);
    assert_eq!(summary["errors_expected"], 1);
    assert_eq!(summary["exit_code"], 0);
}

/// A validator for the OASIS SARIF 2.1.0 schema in tests/data.
fn sarif_validator() -> jsonschema::Validator {
    let schema_path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/sarif-schema-2.1.0.json");
    let mut schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(schema_path).unwrap()).unwrap();
    // The published 2.1.0 schema's `language` patterns have a stray `]`, which a strict
    // meta-schema check rejects as a regex; use the intended pattern (two letters, optionally
    // `-` and two more). Our output never sets `language`.
    fn fix(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(m) => {
                for (k, x) in m.iter_mut() {
                    if k == "pattern" && *x == "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$" {
                        *x = serde_json::json!("^[a-zA-Z]{2}(-[a-zA-Z]{2})?$");
                    } else {
                        fix(x);
                    }
                }
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(fix),
            _ => {}
        }
    }
    fix(&mut schema);
    jsonschema::validator_for(&schema).expect("the schema compiles")
}

fn schema_violations(validator: &jsonschema::Validator, log: &serde_json::Value) -> Vec<String> {
    validator
        .iter_errors(log)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect()
}

#[test]
fn sarif_validates_against_the_schema() {
    let validator = sarif_validator();
    let tmp = gcnsmt_testkit::TempDir::new("sarif");
    let dir = tmp.path().to_path_buf();
    // A refuted rule without expectation (an error-level result), and a malformed rule.
    let file = dir.join("s.rules");
    std::fs::write(
        &file,
        "Name: swap\nTargets: gfx900\n  ds_sub_u32 %a, %v\n=>\n  ds_rsub_u32 %a, %v\n\nName: bad\n  ds_read_b32 %x, %a offset:70000\n=>\n  ds_read_b32 %x, %a\n",
    )
    .unwrap();
    let (code, out) = gcnsmt(&["verify", file.to_str().unwrap(), "--format", "sarif"]);
    assert_eq!(code, 2, "an input error dominates: {out}");
    let log: serde_json::Value = serde_json::from_str(&out).expect("one JSON document");
    let errors = schema_violations(&validator, &log);
    assert!(
        errors.is_empty(),
        "SARIF schema violations: {errors:#?}\n{out}"
    );
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 2, "{out}");
    assert!(results.iter().all(|r| r["level"] == "error"), "{out}");
    assert_eq!(
        results[0]["locations"][0]["physicalLocation"]["region"]["startLine"],
        1
    );
    // The schema check itself can fail: a result without a message is rejected.
    let mut broken = log.clone();
    broken["runs"][0]["results"][0]
        .as_object_mut()
        .unwrap()
        .remove("message");
    assert!(
        validator.iter_errors(&broken).next().is_some(),
        "the validator accepts a result without a message"
    );
}

/// `spec-check --format sarif` is a SARIF 2.1.0 log (it used to print the JSON report), and
/// `--format json` one JSON object on one line (JSON Lines of one line).
#[test]
fn spec_check_sarif_validates_and_json_is_one_line() {
    let validator = sarif_validator();
    let seed = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/spec/seed003_ds_load_2addr_stride64_b64.txt")
        .display()
        .to_string();
    let (code, out) = gcnsmt(&["spec-check", "--format", "sarif", &seed]);
    assert_eq!(code, 1, "the seed page has findings: {out}");
    assert!(
        out.lines()
            .any(|l| serde_json::from_str::<serde_json::Value>(l).is_err()),
        "a pretty-printed document, not JSON Lines: {out}"
    );
    let log: serde_json::Value = serde_json::from_str(&out).expect("one JSON document");
    assert_eq!(log["version"], "2.1.0");
    assert!(
        log.get("findings").is_none(),
        "the JSON report, not SARIF: {out}"
    );
    let errors = schema_violations(&validator, &log);
    assert!(
        errors.is_empty(),
        "SARIF schema violations: {errors:#?}\n{out}"
    );
    // Line 65 of the page says a stride of 64 b64 elements is 256 bytes; 64 * 8 = 512.
    let results = log["runs"][0]["results"].as_array().unwrap();
    let size = results
        .iter()
        .find(|r| r["ruleId"] == "size")
        .unwrap_or_else(|| panic!("no size finding: {out}"));
    assert_eq!(size["level"], "error");
    let region = &size["locations"][0]["physicalLocation"]["region"];
    assert_eq!(region["startLine"], 65, "{out}");
    assert!(size["message"]["text"].as_str().unwrap().contains("512"));

    let (code, out) = gcnsmt(&["spec-check", "--format", "json", &seed]);
    assert_eq!(code, 1);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("every line one JSON object"))
        .collect();
    assert_eq!(lines.len(), 1, "{out}");
    assert!(lines[0]["findings"]
        .as_array()
        .is_some_and(|f| !f.is_empty()));

    // An unreadable input under sarif: still a valid log, of a failed run, exit 2.
    let (code, out) = gcnsmt(&["spec-check", "--format", "sarif", "no-such-page.txt"]);
    assert_eq!(code, 2);
    let log: serde_json::Value = serde_json::from_str(&out).expect("one JSON document");
    let errors = schema_violations(&validator, &log);
    assert!(
        errors.is_empty(),
        "SARIF schema violations: {errors:#?}\n{out}"
    );
    assert_eq!(
        log["runs"][0]["invocations"][0]["executionSuccessful"],
        false
    );
}

/// `--cache DIR` reuses a proved verdict for an unchanged rule and re-proves a changed one.
#[test]
fn cache_reuses_unchanged_rules_only() {
    let tmp = gcnsmt_testkit::TempDir::new("cache");
    let dir = tmp.path().to_path_buf();
    let file = dir.join("c.rules");
    let cache = dir.join("cache");
    let rule = |off: u32| {
        format!("Name: dse\nTargets: gfx900\n  ds_write_b32 %a, %v offset:{off}\n  ds_write_b32 %a, %w offset:{off}\n=>\n  ds_write_b32 %a, %w offset:{off}\nExpect: proved\n")
    };
    std::fs::write(&file, rule(8)).unwrap();
    let args = |f: &Path| {
        vec![
            "verify".to_string(),
            f.display().to_string(),
            "--cache".into(),
            cache.display().to_string(),
        ]
    };
    let run = |a: Vec<String>| {
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        gcnsmt(&a)
    };
    let (code, first) = run(args(&file));
    assert_eq!(code, 0, "{first}");
    assert!(!first.contains("result cache"), "{first}");
    let (code, second) = run(args(&file));
    assert_eq!(code, 0, "{second}");
    assert!(
        second.contains("PROVED (as expected)") && second.contains("from the result cache"),
        "{second}"
    );
    // A changed offset is a different rule: proved afresh, not from the cache.
    std::fs::write(&file, rule(12)).unwrap();
    let (code, third) = run(args(&file));
    assert_eq!(code, 0, "{third}");
    assert!(!third.contains("result cache"), "{third}");
}

/// `--cache DIR` stores a refutation as its counterexample and replays it on the next run (the
/// same counterexample, no solver); an entry that does not replay, or whose inputs break the
/// precondition, is a miss and the rule is checked afresh.
#[test]
fn cache_replays_refutations() {
    let tmp = gcnsmt_testkit::TempDir::new("cache-ref");
    let dir = tmp.path().to_path_buf();
    let file = dir.join("r.rules");
    let cache = dir.join("cache");
    std::fs::write(
        &file,
        "Name: moved\nTargets: gfx900\nPre: %v == 5\n  ds_write_b32 %a, %v\n=>\n  ds_write_b32 %a, %v offset:4\nExpect: refuted\n",
    )
    .unwrap();
    let run = || {
        let (code, out) = gcnsmt(&[
            "verify",
            &file.display().to_string(),
            "--cache",
            &cache.display().to_string(),
            "--format",
            "json",
        ]);
        assert_eq!(code, 0, "{out}");
        let v: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
        assert_eq!(v["verdict"], "refuted", "{out}");
        v
    };
    let cached = |v: &serde_json::Value| v["note"].as_str().is_some_and(|n| n.contains("cache"));
    let first = run();
    assert!(!cached(&first), "{first}");
    let second = run();
    assert!(cached(&second), "{second}");
    assert_eq!(first["counterexample"], second["counterexample"]);
    assert_eq!(first["counterexample"]["inputs"][1]["name"], "%v");
    let entries: Vec<_> = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(entries.len(), 1, "{entries:?}");
    let stored = std::fs::read_to_string(&entries[0]).unwrap();
    assert!(stored.contains("\"verdict\":\"refuted\""), "{stored}");
    // Entries that must not be believed: %v = 5 over LDS that already holds 5 at both
    // addresses shows no difference; %v = 7 differs but breaks `Pre: %v == 5`; a missing
    // input; text that is not an entry at all.
    // Each entry carries the check line docs/cli.md specifies, so that what is tested here is
    // the replay, not the check (a_flipped_byte... in cache.rs tests the check).
    let key = entries[0]
        .file_stem()
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    let signed = |body: &str| {
        let mut h = blake3::Hasher::new();
        h.update(b"gcnsmt cache entry\0");
        h.update(key.as_bytes());
        h.update(b"\0");
        h.update(body.as_bytes());
        format!("{body}\ncheck {}\n", h.finalize().to_hex())
    };
    let entry = |v: u32, lds: &str| {
        signed(&format!(
            "{{\"verdict\":\"refuted\",\"inputs\":{{\"%a\":\"0x0\",\"%v\":\"{v:#x}\",\"m0\":\"0xffffffff\",\
             \"LDS_SIZE\":\"0x10000\",\"LANE_ID\":\"0x0\"}},\"lds\":[{lds}],\"gds\":[],\"global\":[]}}"
        ))
    };
    let same = "[0,5],[1,0],[2,0],[3,0],[4,5],[5,0],[6,0],[7,0]";
    for bad in [
        entry(5, same),
        entry(7, ""),
        signed(
            &entry(5, "")
                .lines()
                .next()
                .unwrap()
                .replace("\"%a\":\"0x0\",", ""),
        ),
        signed("{\"verdict\":"),
    ] {
        std::fs::write(&entries[0], &bad).unwrap();
        let again = run();
        assert!(!cached(&again), "{bad}: {again}");
        assert_eq!(
            again["counterexample"]["inputs"][1]["value"], "0x5",
            "{again}"
        );
        // The fresh refutation replaces the bad entry.
        assert!(cached(&run()), "{bad}");
    }
    // The same entry over zero LDS is a counterexample, and believed.
    std::fs::write(&entries[0], entry(5, "")).unwrap();
    let good = run();
    assert!(cached(&good), "{good}");
    assert_eq!(
        good["counterexample"]["first_difference"], "LDS[0x0]",
        "{good}"
    );
}
