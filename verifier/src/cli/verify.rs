//! `gcnsmt verify`: check the options, read and filter the rules, run them (through the
//! result cache if asked) and print text, JSON Lines or SARIF.

use super::{rule_files, usage_error};
use crate::check::Options;
use crate::exit::ExitStatus;
use crate::record::{Record, Summary};
use crate::rules::parse_rules_each;
use crate::rules::{InputError, Loc};
use gcnsmt_semantics::target::Target;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Output format of `gcnsmt verify`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    /// Human-readable verdict blocks and a summary line.
    #[default]
    Text,
    /// JSON Lines: one object per rule x target or error, then a summary object.
    Json,
    /// SARIF 2.1.0 (one JSON document).
    Sarif,
}

/// Arguments of `gcnsmt verify` beyond the paths: the command line's options, as clap reads
/// them (the doc comments are the `--help` text).
#[derive(clap::Args, Clone, Debug)]
pub struct VerifyArgs {
    /// Only these targets (comma-separated -mcpu names or ranges: gfx900,gfx11..).
    #[arg(long)]
    pub target: Option<String>,
    /// Time limit per solver query, in seconds.
    #[arg(long, default_value_t = 20.0)]
    pub timeout: f64,
    /// `--set NAME=VALUE` overrides (the help lists every setting from
    /// `gcnsmt_semantics::settings::SETTINGS`).
    #[arg(long = "set", value_name = "NAME=VALUE", help = set_help())]
    pub set: Vec<String>,
    /// Only rules whose name contains PATTERN (`*` matches any text), or with a tag
    /// matching it when written `tag:PATTERN`; repeatable (any match selects a rule).
    #[arg(long, value_name = "PATTERN")]
    pub filter: Vec<String>,
    /// Reuse verdicts stored in DIR (created if needed); a rule whose text, target,
    /// settings, semantics, tables and solver are unchanged is not re-proved, and a stored
    /// refutation's counterexample is replayed on the interpreter instead of re-solved.
    #[arg(long, value_name = "DIR")]
    pub cache: Option<std::path::PathBuf>,
    /// With --cache: re-prove N randomly chosen proofs that came from the cache, without
    /// it; a disagreement is an error (exit 2).
    #[arg(long, value_name = "N")]
    pub cache_audit: Option<usize>,
    /// With --cache: take verdicts from the cache only; a check it does not hold is an
    /// error (exit 2) instead of being checked, and nothing is written (for CI that must not
    /// re-prove).
    #[arg(long)]
    pub cache_read_only: bool,
    /// Only the checks of shard K of N (1 <= K <= N), by each check's content hash; the
    /// shards' `--format json` outputs combine with `gcnsmt merge`.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Print the checks (rule, target, content hash) instead of running them.
    #[arg(long)]
    pub list: bool,
    /// Output: text, json (JSON Lines) or sarif (SARIF 2.1.0).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Write each solver query to DIR as <rule>.<target>.<pre|refine>.smt2 (SMT-LIB 2).
    #[arg(long, value_name = "DIR")]
    pub emit_smt2: Option<std::path::PathBuf>,
    /// Re-decide every query with a second solver (cvc5); a sat/unsat disagreement with
    /// z3 is an internal error.
    #[arg(long, value_name = "SOLVER")]
    pub cross_check: Option<String>,
    /// Memory limit per solver query, in megabytes (a query that hits it is unknown).
    #[arg(long, value_name = "MB")]
    pub memory: Option<u32>,
    /// Text output: leave out the rule-by-target matrix printed before the summary.
    #[arg(long)]
    pub no_matrix: bool,
    /// Check every rule with N lanes per instruction (1..=8), overriding a rule's
    /// `Lanes:`; vector registers per lane, EXEC an input, cross-lane ops allowed.
    #[arg(long, value_name = "N")]
    pub lanes: Option<u32>,
    /// Serialization of the lanes of an instruction that writes memory: any (every order,
    /// the default) or ascending (lane 0 first).
    #[arg(long, value_name = "ORDER")]
    pub lane_order: Option<String>,
    /// With --to: run every rule's source side on this target (instead of `Targets:`).
    #[arg(
        long,
        value_name = "TARGET",
        requires = "to",
        conflicts_with = "target"
    )]
    pub from: Option<String>,
    /// With --from: run every rule's target side on this target (docs/cross-target.md).
    #[arg(long, value_name = "TARGET", requires = "from")]
    pub to: Option<String>,
}

/// `--set`'s help: every setting and its values (repeatable).
fn set_help() -> String {
    format!(
        "Override a machine setting for every rule (repeatable): {}",
        gcnsmt_semantics::settings::settings_help()
    )
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

/// A usage or tool error that stops the run before any rule is checked: `error: MSG` on
/// stderr, and in `--format json|sarif` also a well-formed document on stdout (an error record
/// and a summary; a SARIF log of a failed run), so a consumer sees why nothing came. The status
/// is [`ExitStatus::InputError`].
fn tool_error(format: Format, msg: &str) -> ExitStatus {
    let status = usage_error(msg);
    let rec = Record::Error {
        rule: String::new(),
        error: InputError {
            file: String::new(),
            loc: Loc { line: 0, col: 0 },
            msg: msg.to_string(),
        },
        expected: false,
    };
    let text = match format {
        Format::Text => return status,
        Format::Json => {
            let recs = [rec];
            crate::output::json_lines(&recs, &Summary::of(&recs), Duration::ZERO)
        }
        Format::Sarif => {
            let f = crate::sarif::Failure {
                text: msg.to_string(),
                file: None,
                line: 0,
                col: 0,
            };
            format!("{:#}\n", crate::sarif::log(&[], &[], Some(&f)))
        }
    };
    crate::exit::write_stdout(&text);
    status
}

/// `gcnsmt verify`.
pub fn verify(paths: &[PathBuf], args: &VerifyArgs) -> ExitStatus {
    let start = Instant::now();
    let (filter, opts) = match options(args) {
        Ok(x) => x,
        Err(e) => return tool_error(args.format, &e),
    };
    let (file_errors, mut rules) = match load(paths, &args.filter) {
        Ok(x) => x,
        Err(e) => return tool_error(args.format, &e),
    };
    if let Err(e) = cross_targets(args, &mut rules) {
        return tool_error(args.format, &e);
    }
    // A target set that selects nothing would check nothing and exit 0: as with --filter,
    // say so.
    if !rules.is_empty() && crate::run::plan(&rules, filter.as_deref()).is_empty() {
        let t = args.target.as_deref().unwrap_or("");
        return tool_error(
            args.format,
            &format!("--target {t}: no selected rule runs on these targets"),
        );
    }
    if args.cache_read_only && args.cache.is_none() {
        return tool_error(args.format, "--cache-read-only needs --cache DIR");
    }
    if let Some(dir) = args.cache.as_ref().filter(|_| !args.cache_read_only) {
        if let Err(e) = crate::limits::writable_dir(dir) {
            return tool_error(args.format, &format!("--cache {}: {e}", dir.display()));
        }
    }
    let open = |d: &Path| match args.cache_read_only {
        true => crate::cache::Cache::open_read_only(d),
        false => crate::cache::Cache::open(d),
    };
    let cache = match args.cache.as_deref().map(open).transpose() {
        Ok(c) => c,
        Err(e) => return tool_error(args.format, &format!("--cache: {e}")),
    };
    if args.cache_audit.is_some() && args.cache.is_none() {
        return tool_error(args.format, "--cache-audit needs --cache DIR");
    }
    let shard = match args
        .shard
        .as_deref()
        .map(crate::shard::Shard::parse)
        .transpose()
    {
        Ok(s) => s,
        Err(e) => return tool_error(args.format, &format!("--shard {e}")),
    };
    let jobs = crate::run::jobs(&rules, filter.as_deref(), &opts);
    if args.list {
        return super::shard_io::list(&rules, &jobs, shard, args.format);
    }
    let plan = super::shard_io::Plan::of(&jobs, shard);
    let mine: Vec<_> = jobs
        .into_iter()
        .filter(|j| shard.is_none_or(|s| s.owns(&j.key)))
        .collect();
    let mut seqs: Vec<Option<usize>> = vec![None; file_errors.len()];
    let mut records = file_errors;
    for (seq, r) in crate::run::run_jobs(&rules, &mine, &opts, cache.as_ref()) {
        seqs.push(Some(seq));
        records.push(r);
    }
    if let Some(n) = args.cache_audit {
        let disagreements = super::audit::audit(&records, &rules, &opts, n);
        records.extend(disagreements);
    }
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
        Format::Text => crate::report::print_text(&records, &mut std::io::stdout()),
        // A closed pipe (`| head`) is not an error worth a panic: ignore write failures.
        Format::Json => {
            let text = match &plan {
                Some(p) => p.json_lines(&records, &seqs, &all, start.elapsed()),
                None => crate::output::json_lines(&records, &all, start.elapsed()),
            };
            crate::exit::write_stdout(&text);
            return all.exit_code();
        }
        Format::Sarif => {
            let text = format!("{:#}\n", crate::output::sarif(&records));
            crate::exit::write_stdout(&text);
            return all.exit_code();
        }
    }
    if !args.no_matrix {
        crate::exit::write_stdout(&format!("\n{}\n", crate::matrix::matrix(&records)));
    }
    crate::exit::write_stdout(&format!(
        "summary: {} proved, {} refuted ({} as expected), {} unknown, {} inapplicable, {} errors ({} as expected), {} expectation mismatches  [{:.1?}]\n",
        all.proved,
        all.refuted,
        all.refuted_expected,
        all.unknown,
        all.inapplicable,
        all.errors,
        all.errors_expected,
        all.mismatches,
        start.elapsed()
    ));
    if let Some(c) = &cross {
        crate::exit::write_stdout(&format!("{c}\n"));
    }
    all.exit_code()
}

/// `--from T1 --to T2`: every rule's source side on T1 and its target side on T2, as if each
/// rule said `Targets: T1 -> T2`. Errors (usage): a name that is not exactly one target.
fn cross_targets(args: &VerifyArgs, rules: &mut [crate::rules::Rule]) -> Result<(), String> {
    let one = |flag: &str, v: &str| match Target::parse_list(v).as_deref() {
        Ok([t]) => Ok(*t),
        Ok(_) => Err(format!("{flag} {v}: name exactly one target")),
        Err(e) => Err(format!("{flag}: {e}")),
    };
    let (Some(f), Some(t)) = (&args.from, &args.to) else {
        return Ok(());
    };
    let (from, to) = (one("--from", f)?, one("--to", t)?);
    for r in rules {
        r.targets = Some((vec![from], r.loc));
        r.to = (from != to).then_some((to, r.loc));
    }
    Ok(())
}

/// The selected targets and the checking options of `args`; an error is a usage error's text.
fn options(args: &VerifyArgs) -> Result<(Option<Vec<Target>>, Options), String> {
    let (target, timeout, set) = (args.target.as_deref(), args.timeout, &args.set);
    let filter = match target.map(Target::parse_list).transpose() {
        Ok(f) => f,
        Err(e) => return Err(format!("--target: {e}")),
    };
    if filter.as_ref().is_some_and(|f| f.is_empty()) {
        return Err(
            "--target: names no target (give -mcpu names or ranges: gfx900,gfx11..)".into(),
        );
    }
    let timeout = crate::limits::timeout(timeout).map_err(|e| format!("--timeout: {e}"))?;
    let settings = crate::check::parse_set(set)?;
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
                return Err(format!("--set {n}={v}: {e}"));
            }
        }
    }
    let opts = Options {
        timeout,
        settings,
        memory_mb: args.memory,
        hooks: crate::crosscheck::Hooks {
            emit_dir: args.emit_smt2.clone(),
            solver: args.cross_check.clone(),
        },
        egg: true,
        lanes: None,
        lane_order: None,
        identity: false,
        shrink: true,
        hazards: crate::check::Hazards::Check,
    };
    let mut opts = opts;
    if let Some(o) = &args.lane_order {
        match crate::lanes::LaneOrder::parse(o) {
            Ok(o) => opts.lane_order = Some(o),
            Err(e) => return Err(format!("--lane-order: {e}")),
        }
    }
    if let Some(n) = args.lanes {
        match crate::lanes::LaneMode::parse(&n.to_string()) {
            Ok(mut m) => {
                m.order = opts.lane_order.unwrap_or(m.order);
                opts.lanes = Some(m);
            }
            Err((_, e)) => return Err(format!("--lanes: {e}")),
        }
    }
    if args.memory == Some(0) {
        return Err("--memory must be a positive number of megabytes".into());
    }
    if let Some(dir) = &args.emit_smt2 {
        crate::crosscheck::prepare_dir(dir)?;
    }
    if let Some(s) = &args.cross_check {
        // Only cvc5's command line is known (its flags for time limits differ from others').
        let base = Path::new(s)
            .file_name()
            .and_then(|f| f.to_str())
            .unwrap_or("");
        if !base.starts_with("cvc5") {
            return Err(format!(
                "--cross-check {s}: only cvc5 is supported (a `cvc5` binary name or path)"
            ));
        }
        if !crate::crosscheck::available(s) {
            return Err(format!(
                "--cross-check {s}: cannot run `{s} --version` (apt-get install cvc5)"
            ));
        }
        // Counts are per process; start from zero for this run.
        crate::crosscheck::take_stats();
    }
    Ok((filter, opts))
}

/// The rules of `paths` whose name or tag matches a `--filter` pattern (all when none is
/// given), and a record per file that cannot be read or parsed and per rule whose name an
/// earlier file's rule has; an error is a usage error's text.
fn load(
    paths: &[PathBuf],
    filter: &[String],
) -> Result<(Vec<Record>, Vec<crate::rules::Rule>), String> {
    let files = rule_files(paths)?;
    // File-level errors become records too, so JSON and SARIF output stay well-formed.
    let mut file_errors: Vec<Record> = Vec::new();
    let mut rules = Vec::new();
    let mut names: std::collections::HashMap<String, (String, u32)> = Default::default();
    for f in files {
        let name = f.display().to_string();
        let text = match crate::limits::read_text(&f) {
            Ok(t) => t,
            Err(e) => {
                file_errors.push(Record::Error {
                    rule: String::new(),
                    error: crate::rules::InputError {
                        file: name,
                        loc: crate::rules::Loc {
                            line: e.line,
                            col: e.col,
                        },
                        msg: e.msg,
                    },
                    expected: false,
                });
                continue;
            }
        };
        // A malformed rule is one error record; the file's other rules still run.
        let (parsed, errors) = parse_rules_each(&name, &text);
        for (rule, error) in errors {
            file_errors.push(Record::Error {
                rule,
                error,
                expected: false,
            });
        }
        for rule in parsed {
            // As within one file: one name, one rule (names key the matrix and the cache's
            // reports). The later rule is the error.
            if let Some((file, line)) = names.get(&rule.name) {
                let msg = format!("rule `{}` is already defined at {file}:{line}", rule.name);
                file_errors.push(Record::Error {
                    rule: String::new(),
                    error: rule.error(rule.loc, msg),
                    expected: false,
                });
                continue;
            }
            names.insert(rule.name.clone(), (rule.file.clone(), rule.loc.line));
            rules.push(rule);
        }
    }
    let parse_errors = file_errors.len();
    if rules.is_empty() && parse_errors == 0 {
        return Err(
            "no rules found (rule files end in .rules; each rule starts with `Name:`)".into(),
        );
    }
    if !filter.is_empty() {
        rules.retain(|r| {
            filter.iter().any(|p| match p.strip_prefix("tag:") {
                Some(tag) => r.tags.iter().any(|t| name_matches(t, tag)),
                None => name_matches(&r.name, p),
            })
        });
        if rules.is_empty() {
            return Err(format!("--filter {}: no rule matches", filter.join(",")));
        }
    }
    Ok((file_errors, rules))
}
