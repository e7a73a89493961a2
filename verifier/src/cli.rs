//! The command implementations behind `gcnsmt` (kept out of `main.rs` so tests can call them).

use crate::check::{check, targets_of, Options, Verdict};
use crate::report;
use crate::rules::{parse_rules, Rule};
use gcnsmt_lifter::{decode_bytes, encode_bytes, parse_asm};
use gcnsmt_semantics::print::def_to_string;
use gcnsmt_semantics::target::Target;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Print a usage error and return exit code 2.
pub fn usage_error(msg: &str) -> u8 {
    eprintln!("error: {msg}");
    2
}

/// Rule files under the given paths: files as given, directories searched for `*.rules`.
pub fn rule_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    fn walk(p: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
            .map_err(|e| format!("{}: {e}", p.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for e in entries {
            if e.is_dir() {
                walk(&e, out)?;
            } else if e.extension().is_some_and(|x| x == "rules") {
                out.push(e);
            }
        }
        Ok(())
    }
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out)?;
        } else if p.exists() {
            out.push(p.clone());
        } else {
            return Err(format!("{}: no such file or directory", p.display()));
        }
    }
    Ok(out)
}

/// Counts of one run.
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    pub proved: usize,
    pub refuted: usize,
    pub refuted_expected: usize,
    pub unknown: usize,
    pub inapplicable: usize,
    pub errors: usize,
    /// Input errors in rules that expect them (`Expect: error`).
    pub errors_expected: usize,
    pub mismatches: usize,
}

impl Summary {
    /// The exit code: 2 errors, 1 refuted-unexpectedly or mismatch, 3 unknown, else 0.
    pub fn exit_code(&self) -> u8 {
        if self.errors > 0 {
            2
        } else if self.mismatches > 0 || self.refuted > self.refuted_expected {
            1
        } else if self.unknown > 0 {
            3
        } else {
            0
        }
    }
}

/// Check every rule on each target it binds on (all targets, or those in `filter`), in
/// parallel and without a result cache. Prints nothing but the progress bar on stderr; returns
/// one [`Record`] per rule x target, in rule order (a rule that binds on no target gets one
/// error record). Printing and the summary are the caller's ([`print_text`], [`Summary::of`]).
pub fn run_rules(rules: &[Rule], filter: Option<&[Target]>, opts: &Options) -> Vec<Record> {
    run_rules_cached(rules, filter, opts, None)
}

/// A proved or inapplicable verdict taken from the cache, with the settings the rule would run
/// under.
fn cached_outcome(
    rule: &Rule,
    t: Target,
    opts: &Options,
    verdict: Verdict,
) -> crate::check::Outcome {
    // A cached verdict came from a run whose settings were valid.
    let settings = crate::check::settings_for(rule, t, opts)
        .unwrap_or_else(|_| gcnsmt_semantics::settings::Settings::default_for(t));
    crate::check::Outcome {
        rule: rule.name.clone(),
        file: rule.file.clone(),
        target: t,
        settings,
        verdict,
        expect: rule.expect.map(|e| e.0),
        time: Duration::ZERO,
        note: Some("from the result cache (rule, semantics, tables and solver unchanged)"),
        buffer: crate::check::uses_buffer(rule),
        lanes: crate::check::lane_mode(rule, opts),
    }
}

/// [`run_rules`] with a result cache: proved and inapplicable verdicts are looked up and
/// stored, refutations stored as counterexamples and replayed on a hit.
pub fn run_rules_cached(
    rules: &[Rule],
    filter: Option<&[Target]>,
    opts: &Options,
    cache: Option<&crate::cache::Cache>,
) -> Vec<Record> {
    use rayon::prelude::*;
    // Plan every rule x target first, run them in parallel (each worker thread has its own z3
    // context; nothing z3 crosses threads), then print in rule order.
    let mut jobs: Vec<(usize, Target)> = Vec::new();
    for (i, rule) in rules.iter().enumerate() {
        if let Some((ts, loc)) = &rule.targets {
            if let Some(f) = filter {
                if !ts.iter().any(|t| f.contains(t)) {
                    tracing::debug!(rule = %rule.name, "no selected target at {}:{}", loc.line, loc.col);
                    continue;
                }
            }
        }
        let mut targets = targets_of(rule, filter);
        // A rule that binds on no target at all is broken, selected targets or not: skipping
        // it under --target would drop an input error silently (exit 0).
        if targets.is_empty() && (filter.is_none() || targets_of(rule, None).is_empty()) {
            // No target has every instruction: report the binding error on the first
            // (selected, if any has it) target that has the first instruction (or gfx900).
            let first = rule
                .source
                .first()
                .map(|l| l.text.split_whitespace().next().unwrap_or("").to_string());
            let has = |t: &Target| {
                first
                    .as_deref()
                    .is_some_and(|m| gcnsmt_lifter::ds_lookup(*t, m).is_some())
            };
            let t = filter
                .and_then(|f| f.iter().copied().find(has))
                .or_else(|| Target::ALL.into_iter().find(has))
                .unwrap_or(Target::Gfx900);
            targets.push(t);
        }
        jobs.extend(targets.into_iter().map(|t| (i, t)));
    }
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(jobs.len() as u64),
        indicatif::ProgressDrawTarget::stderr(),
    );
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} rule x target  {elapsed}  {msg}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let results: Vec<_> = jobs
        .par_iter()
        .map(|(i, t)| {
            // Each solver run in a z3 context of its own (see `smt::with_fresh_context`); cache
            // hits need none.
            let check = |rule, t, opts| crate::smt::with_fresh_context(|| check(rule, t, opts));
            let r = match cache {
                None => check(&rules[*i], *t, opts),
                Some(c) => {
                    // The lane mode changes the question: part of the key.
                    let mut overrides = opts.settings.clone();
                    if let Some(m) = crate::check::lane_mode(&rules[*i], opts) {
                        overrides.push(("lanes".into(), m.describe()));
                    }
                    let key = crate::cache::Cache::key(&rules[*i], *t, &overrides);
                    let hit = match c.get(&key) {
                        Some(crate::cache::Cached::Refuted(s)) => {
                            // The replay is the evidence; one that does not reproduce is a miss.
                            crate::check::replay_stored(&rules[*i], *t, opts, &s)
                        }
                        Some(crate::cache::Cached::Proved) => {
                            Some(cached_outcome(&rules[*i], *t, opts, Verdict::Proved))
                        }
                        Some(crate::cache::Cached::Inapplicable) => {
                            Some(cached_outcome(&rules[*i], *t, opts, Verdict::Inapplicable))
                        }
                        None => None,
                    };
                    match hit {
                        Some(o) => Ok(o),
                        None => {
                            let r = check(&rules[*i], *t, opts);
                            if let Ok(o) = &r {
                                match &o.verdict {
                                    Verdict::Proved => c.put(&key, &crate::cache::Cached::Proved),
                                    Verdict::Inapplicable => {
                                        c.put(&key, &crate::cache::Cached::Inapplicable)
                                    }
                                    Verdict::Refuted(cex) => c.put(
                                        &key,
                                        &crate::cache::Cached::Refuted(
                                            crate::cache::StoredCex::of(cex),
                                        ),
                                    ),
                                    Verdict::Unknown(_) | Verdict::Error(_) => {}
                                }
                            }
                            r
                        }
                    }
                }
            };
            bar.set_message(format!("{} {t}", rules[*i].name));
            bar.inc(1);
            r
        })
        .collect();
    bar.finish_and_clear();

    let mut records = Vec::new();
    let mut errored: Vec<bool> = vec![false; rules.len()];
    for ((i, _), r) in jobs.iter().zip(results) {
        let rule = &rules[*i];
        match r {
            Err(e) => {
                // One report per rule: the same input error usually repeats on every target.
                if errored[*i] {
                    continue;
                }
                errored[*i] = true;
                let expected = rule.expect.map(|e| e.0) == Some(crate::rules::Expect::Error);
                records.push(Record::Error {
                    rule: rule.name.clone(),
                    error: e,
                    expected,
                });
            }
            Ok(o) => records.push(Record::Verdict {
                outcome: o,
                line: rule.loc.line,
            }),
        }
    }
    records
}

/// One line of a run's result: a verdict on a rule x target, or a rule's input error.
#[derive(Clone, Debug)]
pub enum Record {
    Verdict {
        outcome: crate::check::Outcome,
        /// The line of the rule's `Name:`.
        line: u32,
    },
    Error {
        rule: String,
        error: crate::rules::InputError,
        /// The rule says `Expect: error`.
        expected: bool,
    },
}

impl Summary {
    /// Count a run's records.
    pub fn of(records: &[Record]) -> Summary {
        let mut s = Summary::default();
        for r in records {
            match r {
                Record::Error { expected: true, .. } => s.errors_expected += 1,
                Record::Error {
                    expected: false, ..
                } => s.errors += 1,
                Record::Verdict { outcome: o, .. } => {
                    match &o.verdict {
                        Verdict::Proved => s.proved += 1,
                        Verdict::Refuted(_) => {
                            s.refuted += 1;
                            if o.expect == Some(crate::rules::Expect::Refuted) {
                                s.refuted_expected += 1;
                            }
                        }
                        Verdict::Unknown(_) => s.unknown += 1,
                        Verdict::Inapplicable => s.inapplicable += 1,
                        Verdict::Error(_) => s.errors += 1,
                    }
                    if let Some(e) = o.expect {
                        if !o.verdict.matches(e) && !matches!(o.verdict, Verdict::Unknown(_)) {
                            s.mismatches += 1;
                        }
                    }
                }
            }
        }
        s
    }
}

/// Print records as text (one verdict block per rule x target).
pub fn print_text(records: &[Record], out: &mut dyn std::io::Write) {
    for r in records {
        match r {
            Record::Error {
                rule,
                error,
                expected: true,
            } => {
                let _ = writeln!(out, "{rule:<40} {:<8} ERROR (as expected)  {error}", "");
            }
            Record::Error { error, .. } => {
                let _ = writeln!(out, "{error}");
            }
            Record::Verdict { outcome, .. } => {
                let _ = write!(out, "{}", report::outcome(outcome));
            }
        }
    }
}

/// Verify rules, print text verdicts to `out`, and return the counts.
pub fn verify_rules(
    rules: &[Rule],
    filter: Option<&[Target]>,
    opts: &Options,
    out: &mut dyn std::io::Write,
) -> Summary {
    let records = run_rules(rules, filter, opts);
    print_text(&records, out);
    Summary::of(&records)
}

/// `gcnsmt verify`.
/// Output format of `gcnsmt verify`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    /// Human-readable verdict blocks and a summary line.
    #[default]
    Text,
    /// JSON Lines: one object per rule x target or error, then a summary object.
    Json,
    /// SARIF 2.1.0 (one JSON document).
    Sarif,
}

/// Arguments of `gcnsmt verify` beyond the paths.
#[derive(Clone, Debug, Default)]
pub struct VerifyArgs {
    /// `--target`: comma-separated targets or ranges.
    pub target: Option<String>,
    /// `--timeout`: seconds per solver query.
    pub timeout: f64,
    /// `--set NAME=VALUE` overrides.
    pub set: Vec<String>,
    /// `--filter`: only rules whose name contains one of these substrings (`*` matches any text).
    pub filter: Vec<String>,
    pub format: Format,
    /// `--emit-smt2 DIR`: write each solver query there as a standalone SMT-LIB 2 file.
    pub emit_smt2: Option<PathBuf>,
    /// `--cross-check SOLVER`: re-decide each query with this cvc5 binary.
    pub cross_check: Option<String>,
    /// `--memory MB`: memory limit per solver query.
    pub memory: Option<u32>,
    /// `--cache DIR`: reuse verdicts stored there (refutations are replayed).
    pub cache: Option<PathBuf>,
    /// `--no-matrix`: leave out the rule-by-target matrix of text output.
    pub no_matrix: bool,
    /// `--lanes N`: check with N lanes (see [`crate::lanes`]).
    pub lanes: Option<u32>,
    /// `--lane-order any|ascending`.
    pub lane_order: Option<String>,
}

/// Whether a rule name matches a `--filter` pattern: a substring, where `*` matches any text.
pub fn name_matches(name: &str, pattern: &str) -> bool {
    // Unanchored: the pieces between `*`s appear in order anywhere in the name.
    let mut rest = name;
    for p in pattern.split('*').filter(|p| !p.is_empty()) {
        match rest.find(p) {
            Some(k) => rest = &rest[k + p.len()..],
            None => return false,
        }
    }
    true
}

/// `gcnsmt verify`.
pub fn verify(paths: &[PathBuf], args: &VerifyArgs) -> u8 {
    let (target, timeout, set) = (args.target.as_deref(), args.timeout, &args.set);
    let start = Instant::now();
    let filter = match target.map(Target::parse_list).transpose() {
        Ok(f) => f,
        Err(e) => return usage_error(&format!("--target: {e}")),
    };
    if !(timeout > 0.0 && timeout.is_finite()) {
        return usage_error("--timeout must be a positive number of seconds");
    }
    let mut settings = Vec::new();
    for s in set {
        match s.split_once('=') {
            Some((n, v)) => settings.push((n.trim().to_string(), v.trim().to_string())),
            None => return usage_error(&format!("--set expects NAME=VALUE, got `{s}`")),
        }
    }
    // An unknown name or value is one usage error, not one error per rule. (A value only some
    // targets have, like alignment=UNALIGNED, is checked per rule and target.)
    for (n, v) in &settings {
        let ts = filter.clone().unwrap_or_else(|| Target::ALL.to_vec());
        let errs: Vec<String> = ts
            .iter()
            .filter_map(|t| {
                gcnsmt_semantics::settings::Settings::default_for(*t)
                    .set(*t, n, v)
                    .err()
            })
            .collect();
        if errs.len() == ts.len() {
            if let Some(e) = errs.first() {
                return usage_error(&format!("--set {n}={v}: {e}"));
            }
        }
    }
    let opts = Options {
        timeout: Duration::from_secs_f64(timeout),
        settings,
        memory_mb: args.memory,
        hooks: crate::crosscheck::Hooks {
            emit_dir: args.emit_smt2.clone(),
            solver: args.cross_check.clone(),
        },
        egg: true,
        lanes: None,
        lane_order: None,
    };
    let mut opts = opts;
    if let Some(o) = &args.lane_order {
        match crate::lanes::LaneOrder::parse(o) {
            Ok(o) => opts.lane_order = Some(o),
            Err(e) => return usage_error(&format!("--lane-order: {e}")),
        }
    }
    if let Some(n) = args.lanes {
        match crate::lanes::LaneMode::parse(&n.to_string()) {
            Ok(mut m) => {
                m.order = opts.lane_order.unwrap_or(m.order);
                opts.lanes = Some(m);
            }
            Err((_, e)) => return usage_error(&format!("--lanes: {e}")),
        }
    }
    if args.memory == Some(0) {
        return usage_error("--memory must be a positive number of megabytes");
    }
    if let Some(dir) = &args.emit_smt2 {
        if let Err(e) = crate::crosscheck::prepare_dir(dir) {
            return usage_error(&e);
        }
    }
    if let Some(s) = &args.cross_check {
        // Only cvc5's command line is known (its flags for time limits differ from others').
        let base = Path::new(s)
            .file_name()
            .and_then(|f| f.to_str())
            .unwrap_or("");
        if !base.starts_with("cvc5") {
            return usage_error(&format!(
                "--cross-check {s}: only cvc5 is supported (a `cvc5` binary name or path)"
            ));
        }
        if !crate::crosscheck::available(s) {
            return usage_error(&format!(
                "--cross-check {s}: cannot run `{s} --version` (apt-get install cvc5)"
            ));
        }
        // Counts are per process; start from zero for this run.
        crate::crosscheck::take_stats();
    }
    let files = match rule_files(paths) {
        Ok(f) => f,
        Err(e) => return usage_error(&e),
    };
    // File-level errors become records too, so JSON and SARIF output stay well-formed.
    let mut file_errors: Vec<Record> = Vec::new();
    let mut rules = Vec::new();
    for f in files {
        let name = f.display().to_string();
        let text = match std::fs::read_to_string(&f) {
            Ok(t) => t,
            Err(e) => {
                file_errors.push(Record::Error {
                    rule: String::new(),
                    error: crate::rules::InputError {
                        file: name,
                        loc: crate::rules::Loc { line: 1, col: 1 },
                        msg: e.to_string(),
                    },
                    expected: false,
                });
                continue;
            }
        };
        match parse_rules(&name, &text) {
            Ok(r) => rules.extend(r),
            Err(e) => file_errors.push(Record::Error {
                rule: String::new(),
                error: e,
                expected: false,
            }),
        }
    }
    let parse_errors = file_errors.len();
    if rules.is_empty() && parse_errors == 0 {
        return usage_error(
            "no rules found (rule files end in .rules; each rule starts with `Name:`)",
        );
    }
    if !args.filter.is_empty() {
        rules.retain(|r| {
            args.filter.iter().any(|p| match p.strip_prefix("tag:") {
                Some(tag) => r.tags.iter().any(|t| name_matches(t, tag)),
                None => name_matches(&r.name, p),
            })
        });
        if rules.is_empty() {
            return usage_error(&format!(
                "--filter {}: no rule matches",
                args.filter.join(",")
            ));
        }
    }
    let cache = match args
        .cache
        .as_deref()
        .map(crate::cache::Cache::open)
        .transpose()
    {
        Ok(c) => c,
        Err(e) => return usage_error(&format!("--cache: {e}")),
    };
    let mut records = file_errors;
    records.extend(run_rules_cached(
        &rules,
        filter.as_deref(),
        &opts,
        cache.as_ref(),
    ));
    let all = Summary::of(&records);
    let cross = args
        .cross_check
        .as_ref()
        .map(|s| format!("cross-check ({s}): {}", crate::crosscheck::take_stats()));
    if args.format != Format::Text {
        // Machine-readable stdout stays one format; the cross-check counts go to stderr.
        if let Some(c) = &cross {
            eprintln!("{c}");
        }
    }
    match args.format {
        Format::Text => print_text(&records, &mut std::io::stdout()),
        // A closed pipe (`| head`) is not an error worth a panic: ignore write failures.
        Format::Json => {
            let text = crate::output::json_lines(&records, &all, start.elapsed());
            let _ = std::io::stdout().write_all(text.as_bytes());
            return all.exit_code();
        }
        Format::Sarif => {
            let text = format!("{:#}\n", crate::output::sarif(&records));
            let _ = std::io::stdout().write_all(text.as_bytes());
            return all.exit_code();
        }
    }
    if !args.no_matrix {
        let _ = write!(std::io::stdout(), "\n{}\n", crate::matrix::matrix(&records));
    }
    let _ = writeln!(
        std::io::stdout(),
        "summary: {} proved, {} refuted ({} as expected), {} unknown, {} inapplicable, {} errors ({} as expected), {} expectation mismatches  [{:.1?}]",
        all.proved,
        all.refuted,
        all.refuted_expected,
        all.unknown,
        all.inapplicable,
        all.errors,
        all.errors_expected,
        all.mismatches,
        start.elapsed()
    );
    if let Some(c) = &cross {
        let _ = writeln!(std::io::stdout(), "{c}");
    }
    all.exit_code()
}

/// `gcnsmt bench`.
pub fn bench(paths: &[PathBuf], timeout: f64) -> u8 {
    if !(timeout > 0.0 && timeout.is_finite()) {
        return usage_error("--timeout must be a positive number of seconds");
    }
    let files = match rule_files(paths) {
        Ok(f) => f,
        Err(e) => return usage_error(&e),
    };
    let mut rules = Vec::new();
    for f in files {
        let name = f.display().to_string();
        match std::fs::read_to_string(&f)
            .map_err(|e| e.to_string())
            .and_then(|t| parse_rules(&name, &t).map_err(|e| e.to_string()))
        {
            Ok(r) => rules.extend(r),
            Err(e) => return usage_error(&e),
        }
    }
    crate::bench::bench(&rules, Duration::from_secs_f64(timeout))
}

/// Bytes from hex arguments: 8-digit dwords (`0xd86c0000`, little-endian) or 2-digit bytes
/// (`0x00`, `[0x00,0x00,...]`).
fn parse_words(args: &[String]) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    for a in args {
        for tok in a
            .split(|c: char| c == ',' || c == '[' || c == ']' || c.is_whitespace())
            .filter(|t| !t.is_empty())
        {
            let h = tok.trim_start_matches("0x").trim_start_matches("0X");
            let v =
                u64::from_str_radix(h, 16).map_err(|_| format!("`{tok}` is not a hex number"))?;
            match h.len() {
                1 | 2 => bytes.push(v as u8),
                3..=8 => bytes.extend_from_slice(&(v as u32).to_le_bytes()),
                9..=16 => {
                    return Err(format!(
                        "`{tok}` is wider than a dword; give 32-bit words or bytes (as llvm-objdump and llvm-mc print them)"
                    ))
                }
                _ => return Err(format!("`{tok}` is too long")),
            }
        }
    }
    Ok(bytes)
}

fn stdin_words() -> Vec<String> {
    let mut s = String::new();
    let _ = std::io::stdin().read_to_string(&mut s);
    // llvm-mc -show-encoding: `; encoding: [0x..,...]`; llvm-objdump -d: `// 000000: D86C0000 02000014`.
    let mut out = Vec::new();
    for line in s.lines() {
        if let Some(i) = line.find("encoding: [") {
            let rest = &line[i + 11..];
            if let Some(j) = rest.find(']') {
                out.push(rest[..j].to_string());
            }
        } else if let Some(i) = line.find("// ") {
            let rest = &line[i + 3..];
            if let Some((_, words)) = rest.split_once(':') {
                for w in words.split_whitespace() {
                    out.push(format!("0x{w}"));
                }
            }
        }
    }
    out
}

/// `gcnsmt decode`.
pub fn decode(target: Target, words: &[String]) -> u8 {
    let args = if words.is_empty() {
        stdin_words()
    } else {
        words.to_vec()
    };
    let bytes = match parse_words(&args) {
        Ok(b) => b,
        Err(e) => return usage_error(&e),
    };
    if bytes.is_empty() {
        return usage_error(
            "no instruction words given (DS and MUBUF instructions are 8 bytes, VBUFFER 12)",
        );
    }
    // DS and MUBUF words are 8 bytes, gfx12/gfx1250 VBUFFER words 12 (bits 31:26 of the
    // first dword decide); an unknown first dword is reported and skipped.
    let mut code = 0;
    let mut at = 0;
    while at < bytes.len() {
        let rest = &bytes[at..];
        if rest.len() < 4 {
            return usage_error(&format!(
                "instructions are 8 bytes (12 for gfx12 VBUFFER); got {} trailing byte(s)",
                rest.len()
            ));
        }
        let first = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]);
        let len = gcnsmt_lifter::inst_len(target, first).unwrap_or(4);
        if rest.len() < len {
            return usage_error(&format!(
                "instruction at byte {at} needs {len} bytes; only {} left",
                rest.len()
            ));
        }
        match gcnsmt_lifter::decode_any(target, &rest[..len]) {
            Ok(i) => println!("{i}"),
            Err(e) => {
                println!("{e}");
                code = 2;
            }
        }
        at += len;
    }
    code
}

/// `gcnsmt encode`.
pub fn encode(target: Target, asm: &str) -> u8 {
    match gcnsmt_lifter::parse_any(target, asm) {
        Ok(i) => {
            let b = match &i {
                gcnsmt_lifter::Inst::Ds(d) => encode_bytes(d).to_vec(),
                gcnsmt_lifter::Inst::Mubuf(_) => gcnsmt_lifter::encode_any(&i),
            };
            let s: Vec<String> = b.iter().map(|x| format!("0x{x:02x}")).collect();
            println!("{i:<50} ; encoding: [{}]", s.join(","));
            0
        }
        Err(e) => {
            eprintln!("<argument>:1:{}: error: {}", e.col, e.msg);
            2
        }
    }
}

/// `gcnsmt lift`.
pub fn lift(target: Target, input: &[String]) -> u8 {
    let text = input.join(" ");
    let first = text.split_whitespace().next().unwrap_or("");
    if first.is_empty() {
        return usage_error(
            "lift takes one DS instruction: assembly (`ds_add_u32 v1, v2`) or its words",
        );
    }
    let is_buf = crate::buffer_ops::is_buffer_line(first);
    if is_buf || (!first.starts_with("ds_") && first.starts_with(|c: char| c.is_ascii_digit())) {
        // MUBUF/VBUFFER (assembly or words): decoded, then the buffer entry is printed.
        let inst = if is_buf {
            gcnsmt_lifter::parse_any(target, &text)
                .map_err(|e| format!("<argument>:1:{}: error: {}", e.col, e.msg))
        } else {
            parse_words(input)
                .and_then(|b| gcnsmt_lifter::decode_any(target, &b).map_err(|e| e.to_string()))
        };
        match inst {
            Ok(gcnsmt_lifter::Inst::Mubuf(m)) => {
                println!("// {target}: {m}");
                let mut binds = Vec::new();
                if let Some(r) = m.vdata {
                    binds.push(format!("VDATA = {r}"));
                }
                if let Some(r) = m.vaddr {
                    binds.push(format!("VADDR = {r}"));
                }
                binds.push(format!("OFFSET = {}", m.offset));
                let mode: Vec<&str> =
                    [("offen", m.offen), ("idxen", m.idxen), ("addr64", m.addr64)]
                        .iter()
                        .filter(|x| x.1)
                        .map(|x| x.0)
                        .collect();
                binds.push(format!(
                    "MEM = global memory through the V# ({})",
                    mode.join(" ")
                ));
                println!("// {}", binds.join(", "));
                let name = m.mnemonic.to_ascii_uppercase();
                return match gcnsmt_semantics::defs::Library::builtin().get(&name) {
                    Some(def) => {
                        print!("{}", def_to_string(def));
                        0
                    }
                    None => {
                        eprintln!(
                            "error: semantics of {} are not modelled (format conversions and cache-control ops are not)",
                            m.mnemonic
                        );
                        2
                    }
                };
            }
            Ok(gcnsmt_lifter::Inst::Ds(_)) => {} // DS words: lifted below
            Err(e) => {
                eprintln!("{e}");
                return 2;
            }
        }
    }
    if first.starts_with(|c: char| c.is_ascii_alphabetic())
        && !first.starts_with("ds_")
        && !first.starts_with("0x")
    {
        return usage_error(&format!(
            "lift takes a DS instruction (ds_*); `{first}` is not one (VALU/SALU semantics are in semantics/pcode/alu.pcode)"
        ));
    }
    let inst = if first.starts_with("ds_") {
        parse_asm(target, &text).map_err(|e| format!("<argument>:1:{}: error: {}", e.col, e.msg))
    } else {
        parse_words(input).and_then(|b| decode_bytes(target, &b).map_err(|e| e.to_string()))
    };
    let inst = match inst {
        Ok(i) => i,
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    println!("// {target}: {inst}");
    let mut binds = Vec::new();
    for (name, r) in [
        ("RETURN_DATA", inst.vdst),
        ("ADDR", inst.addr),
        ("DATA0", inst.data0),
        ("DATA1", inst.data1),
    ] {
        if let Some(r) = r {
            binds.push(format!("{name} = {r}"));
        }
    }
    binds.push(format!(
        "OFFSET = {} (OFFSET0 = {}, OFFSET1 = {})",
        inst.offset16(),
        inst.offset0,
        inst.offset1
    ));
    binds.push(format!("MEM = {}", if inst.gds { "GDS" } else { "LDS" }));
    println!("// {}", binds.join(", "));
    match gcnsmt_lifter::lift::ds_semantics(inst.mnemonic) {
        Some((name, def)) => {
            if let Some(a) = def.aliases_for(&name) {
                for (x, y) in a {
                    println!("// {x} = {y}");
                }
            }
            print!("{}", def_to_string(def));
            0
        }
        None => {
            eprintln!("error: semantics of {} are not modelled yet", inst.mnemonic);
            2
        }
    }
}
