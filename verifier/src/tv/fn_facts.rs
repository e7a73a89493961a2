//! The facts of a function that are not instructions, checked once on every verdict `tv`
//! gives (breaker 24's 00 and 06): the frame objects, `frameInfo:`, `machineFunctionInfo:`
//! (`argumentInfo`, `ldsSize`, `mode`, ...), the other header keys (`frame_meta.rs`), and the
//! embedded IR module (globals and their initializers, function attributes, metadata). llc
//! emits code from them (a global's initializer is the data a `SI_PC_ADD_REL_OFFSET` load
//! reads; `amdgpu-no-dispatch-ptr` removes a user SGPR and moves the kernarg pointer), but the
//! checkers compare instructions: the register-allocation and renaming checkers, the block
//! checks and the si-insert-waitcnts path each prove blocks on their own. So the comparison is
//! made here, after all of them, on the files as read: a function whose facts differ in a
//! way no machine pass makes has every `proved` or `unchanged` verdict replaced by one
//! `unsupported` verdict naming the field (refuted, unknown and error verdicts are kept).
//!
//! The IR module must be equal line by line but for whole-line comments, blank lines and the
//! numbering of attribute groups (resolved to their contents); an IR-less file matches only the
//! stub module llc-22 makes up for it (`stub_module`). On
//! the kernels measured (docs/tv.md, "Function facts") llc-22 prints it byte-identically at
//! every stop point of the machine pipeline, so no machine pass changes it.

use super::cmd::{self, BlockVerdict, TvArgs};
use super::mir::MirFile;
use crate::check::Options;
use gcnsmt_semantics::target::Target;
use std::time::Duration;

/// The files' IR lines that count: no whole-line comment (`; ModuleID`, `; Function Attrs`),
/// no blank line, no trailing blanks, no `source_filename` (the path llc was given, which no
/// AMDGPU pass reads), and attribute groups resolved: llc numbers them afresh each time it
/// reads MIR and drops unused ones (`declare ... #3` before is `#1` after `-run-pass`), so a
/// reference `#N` is replaced by the group's contents and the `attributes #N = ...` lines go.
fn ir_lines(f: &MirFile) -> Vec<(usize, String)> {
    let text = f.ir.as_deref().unwrap_or("");
    let first = 2; // the IR starts on the line after `--- |`, the file's first line
    let counts = |l: &str| {
        let l = l.trim();
        !l.is_empty() && !l.starts_with(';') && !l.starts_with("source_filename")
    };
    // `"target-cpu"`/`"target-features"`: llc `-run-pass -mcpu=..` adds them to every
    // function it reads; the target is the one tv checks (`--target`, `targets.rs`).
    let target_attr =
        |t: &&str| t.starts_with("\"target-cpu\"=") || t.starts_with("\"target-features\"=");
    let groups: std::collections::BTreeMap<String, String> = (text.lines())
        .filter_map(|l| {
            let (name, body) = l.trim().strip_prefix("attributes ")?.split_once(" = ")?;
            let kept: Vec<&str> = body
                .split_whitespace()
                .filter(|t| !target_attr(t))
                .collect();
            Some((name.to_string(), kept.join(" ")))
        })
        .collect();
    (text.lines().enumerate())
        .filter(|(_, l)| counts(l) && !l.trim().starts_with("attributes #"))
        .map(|(n, l)| (n + first, resolve(l.trim_end(), &groups)))
        .collect()
}

/// `l` with every attribute-group reference `#N` replaced by the group's contents.
fn resolve(l: &str, groups: &std::collections::BTreeMap<String, String>) -> String {
    let mut out = String::with_capacity(l.len());
    let mut rest = l;
    while let Some(i) = rest.find('#') {
        out.push_str(&rest[..i]);
        let digits = rest[i + 1..]
            .chars()
            .take_while(char::is_ascii_digit)
            .count();
        let name = &rest[i..i + 1 + digits];
        match groups.get(name) {
            Some(body) if digits > 0 => out.push_str(body),
            _ => out.push_str(name),
        }
        rest = &rest[i + 1 + digits..];
    }
    out.push_str(rest);
    out
}

/// Whether `lines` are only the module llc makes up for MIR that embeds none: the target,
/// one `define void @f() { entry: unreachable }` per function, attributes naming only the
/// target CPU and features. Anything else (a global, a declaration, another attribute such
/// as `amdgpu-no-dispatch-ptr`) is a fact the other file does not have.
fn stub_module(lines: &[(usize, String)]) -> bool {
    lines.iter().all(|(_, l)| {
        let l = l.trim();
        let attrs_only_target = |a: &str| {
            a.trim_matches(|c| c == '{' || c == '}' || c == ' ')
                .split("\" \"")
                .all(|kv| {
                    let kv = kv.trim_matches('"');
                    if kv.is_empty() {
                        return true;
                    }
                    kv.starts_with("target-cpu\"=") || kv.starts_with("target-features\"=")
                })
        };
        l.starts_with("target datalayout")
            || l.starts_with("target triple")
            || matches!(l, "entry:" | "unreachable" | "}")
            || l.strip_prefix("define void @").is_some_and(|r| {
                r.split_once("() ")
                    .is_some_and(|(_, a)| attrs_only_target(a.trim_end_matches('{').trim()))
            })
    })
}

/// How the embedded IR module differs between the files, if it does.
pub fn ir_change(before: &MirFile, after: &MirFile) -> Option<String> {
    let (b, a) = (ir_lines(before), ir_lines(after));
    if before.ir.is_some() != after.ir.is_some() {
        let (which, other) = match after.ir.is_some() {
            true => ("after", &a),
            false => ("before", &b),
        };
        // llc-22 `-run-pass` on MIR without IR prints the module it made up.
        if stub_module(other) {
            return None;
        }
        return Some(format!("only the {which}-file embeds an IR module"));
    }
    let first = (b.iter().zip(&a)).find(|(x, y)| x.1 != y.1);
    match first {
        Some(((_, lb), (n, l))) => Some(format!(
            "the embedded IR module differs, at its line `{}` (about line {n} of {}; {})",
            short(l),
            after.path,
            words_changed(lb, l)
        )),
        None if b.len() != a.len() => Some(format!(
            "the embedded IR module differs: {} lines before, {} after",
            b.len(),
            a.len()
        )),
        None => None,
    }
}

/// The words only one of two IR lines has (an attribute group resolved into a line makes it
/// long: the words say what differs).
fn words_changed(before: &str, after: &str) -> String {
    let only = |x: &str, y: &str| -> Vec<String> {
        let ys: std::collections::BTreeSet<&str> = y.split_whitespace().collect();
        (x.split_whitespace().filter(|w| !ys.contains(w)))
            .take(4)
            .map(String::from)
            .collect()
    };
    format!(
        "before only: {}; after only: {}",
        only(before, after).join(" "),
        only(after, before).join(" ")
    )
}

fn short(l: &str) -> String {
    let l = l.trim();
    match l.char_indices().nth(100) {
        Some((i, _)) => format!("{}...", &l[..i]),
        None => l.to_string(),
    }
}

/// Why function `name`'s facts keep no verdict of its blocks, if they do not.
fn why(before: &MirFile, after: &MirFile, name: &str) -> Option<String> {
    let fb = before.functions.iter().find(|f| f.name == name)?;
    let fa = after.functions.iter().find(|f| f.name == name)?;
    if let Some(ir) = ir_change(before, after) {
        return Some(format!(
            "{ir}: llc reads the globals, their initializers and the function attributes \
             (`amdgpu-no-*`, `amdgpu-lds-size`, ...) from it, which no checker compares"
        ));
    }
    let mentions = |r: &str| super::diff::mentions(fa, r);
    super::frame_meta::change(&fb.meta, &fa.meta, &mentions).map(|w| {
        format!(
            "the pass changed the frame or function info of `{name}` ({w}): prologepilog and \
             later passes emit other code for it, which the block checks do not see"
        )
    })
}

/// Replace the verdicts of each function whose facts differ ([`why`]) as the module doc says.
pub fn gate(
    before: &MirFile,
    after: &MirFile,
    shard: Option<crate::shard::Shard>,
    out: &mut Vec<BlockVerdict>,
) {
    let mut names: Vec<(String, String)> = Vec::new();
    for v in out.iter().filter(|v| !v.function.is_empty()) {
        let k = (v.function.clone(), v.target.clone());
        if !names.contains(&k) {
            names.push(k);
        }
    }
    for (name, t) in names {
        let Some(reason) = why(before, after, &name) else {
            continue;
        };
        let mine = |v: &BlockVerdict| v.function == name && v.target == t;
        let Some(at) = out.iter().position(mine) else {
            continue;
        };
        out.retain(|v| !(mine(v) && matches!(v.verdict, "proved" | "unchanged")));
        // The block path already refused it for the same reason (`diff.rs`).
        let known = (out.iter().filter(|v| mine(v))).any(|v| {
            v.verdict == "unsupported" && v.reason.as_ref().is_some_and(|r| r.contains(&reason))
        });
        let key = blake3::hash(format!("{name}\0{t}\0facts").as_bytes()).to_hex();
        if known || shard.is_some_and(|s| !s.owns(key.as_str())) {
            continue;
        }
        let fa = after.functions.iter().find(|f| f.name == name);
        let (num, loc) = fa
            .and_then(|f| f.blocks.first().map(|b| (b.num, b.loc)))
            .or(fa.map(|f| (0, f.loc)))
            .unwrap_or_default();
        let v = BlockVerdict {
            function: name.clone(),
            block: num,
            target: t.clone(),
            verdict: "unsupported",
            changed: true,
            time: Duration::ZERO,
            reason: Some(format!("{}:{}:{}: {reason}", after.path, loc.line, loc.col)),
            counterexample: None,
            counterexample_data: None,
            settings: None,
            file: after.path.clone(),
            line: loc.line,
            col: loc.col,
        };
        out.insert(at.min(out.len()), v);
    }
}

/// Every path that gives verdicts for a pair of files goes through here: the checkers
/// (`cmd::validate`), the si-insert-waitcnts verdicts (`wait_pass.rs`), then [`gate`].
/// `pass`: the pass named with `--pass` (`None` for two files or `--pipeline`);
/// `after_text`: the after-file's text.
pub fn validate_pair(
    (b, f, after_text): (&MirFile, &MirFile, &str),
    a: &TvArgs,
    pass: Option<&str>,
    targets: Option<&[Target]>,
    opts: &Options,
    shard: Option<crate::shard::Shard>,
) -> Result<Vec<BlockVerdict>, String> {
    let mut v = cmd::validate(b, f, &a.functions, targets, opts, a.unmodelled, shard)?;
    super::wait_pass::apply(pass, (b, f), after_text, &mut v);
    gate(b, f, shard, &mut v);
    Ok(v)
}
