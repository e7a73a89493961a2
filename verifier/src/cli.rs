//! The command implementations behind `gcnsmt` (kept out of `main.rs` so tests can call them).

use crate::check::{check, targets_of, Options, Verdict};
use crate::report;
use crate::rules::{parse_rules, Rule};
use gcnsmt_lifter::{decode_bytes, encode_bytes, parse_asm};
use gcnsmt_semantics::print::def_to_string;
use gcnsmt_semantics::target::Target;
use std::io::Read;
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

/// Verify rules; prints one line per rule x target and a summary; returns the run's summary.
pub fn verify_rules(
    rules: &[Rule],
    filter: Option<&[Target]>,
    opts: &Options,
    out: &mut dyn std::io::Write,
) -> Summary {
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
        if targets.is_empty() && filter.is_none() {
            // No target has every instruction: report the binding error on the first target
            // that has the first instruction (or gfx900).
            let first = rule
                .source
                .first()
                .map(|l| l.text.split_whitespace().next().unwrap_or("").to_string());
            let t = Target::ALL
                .into_iter()
                .find(|t| {
                    first
                        .as_deref()
                        .is_some_and(|m| gcnsmt_lifter::ds_lookup(*t, m).is_some())
                })
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
            let r = check(&rules[*i], *t, opts);
            bar.set_message(format!("{} {t}", rules[*i].name));
            bar.inc(1);
            r
        })
        .collect();
    bar.finish_and_clear();

    let mut s = Summary::default();
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
                if rule.expect.map(|e| e.0) == Some(crate::rules::Expect::Error) {
                    let _ = writeln!(out, "{:<40} {:<8} ERROR (as expected)  {e}", rule.name, "");
                    s.errors_expected += 1;
                } else {
                    let _ = writeln!(out, "{e}");
                    s.errors += 1;
                }
            }
            Ok(o) => {
                let _ = write!(out, "{}", report::outcome(&o));
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

/// `gcnsmt verify`.
pub fn verify(paths: &[PathBuf], target: Option<&str>, timeout: f64, set: &[String]) -> u8 {
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
    };
    let files = match rule_files(paths) {
        Ok(f) => f,
        Err(e) => return usage_error(&e),
    };
    let mut parse_errors = 0;
    let mut rules = Vec::new();
    for f in files {
        let name = f.display().to_string();
        let text = match std::fs::read_to_string(&f) {
            Ok(t) => t,
            Err(e) => {
                println!("{name}: error: {e}");
                parse_errors += 1;
                continue;
            }
        };
        match parse_rules(&name, &text) {
            Ok(r) => rules.extend(r),
            Err(e) => {
                println!("{e}");
                parse_errors += 1;
            }
        }
    }
    if rules.is_empty() && parse_errors == 0 {
        return usage_error(
            "no rules found (rule files end in .rules; each rule starts with `Name:`)",
        );
    }
    let mut all = verify_rules(&rules, filter.as_deref(), &opts, &mut std::io::stdout());
    all.errors += parse_errors;
    println!(
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
    all.exit_code()
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
    if bytes.len() % 8 != 0 || bytes.is_empty() {
        return usage_error(&format!(
            "DS instructions are 8 bytes; got {} bytes",
            bytes.len()
        ));
    }
    let mut code = 0;
    for chunk in bytes.chunks(8) {
        match decode_bytes(target, chunk) {
            Ok(i) => println!("{i}"),
            Err(e) => {
                println!("{e}");
                code = 2;
            }
        }
    }
    code
}

/// `gcnsmt encode`.
pub fn encode(target: Target, asm: &str) -> u8 {
    match parse_asm(target, asm) {
        Ok(i) => {
            let b = encode_bytes(&i);
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
