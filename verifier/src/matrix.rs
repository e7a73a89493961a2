//! The rule-by-target matrix printed after a text-mode `verify` run: one row per rule, one
//! column per target, one letter per verdict, so a whole corpus reads at a glance.

use crate::check::Verdict;
use crate::record::Record;
use gcnsmt_semantics::target::Target;
use std::collections::BTreeMap;
use std::fmt::Write;

/// The cell for one verdict: `P` proved, `R` refuted, `I` inapplicable, `U` unknown, `E`
/// error, followed by `!` when it differs from the rule's `Expect:` line. (`.`, for a target
/// the rule does not run on, is filled in by [`matrix`].)
fn cell(v: &Verdict, as_expected: Option<bool>) -> String {
    let c = match v {
        Verdict::Proved => "P",
        Verdict::Refuted(_) => "R",
        Verdict::Inapplicable => "I",
        Verdict::Unknown(_) => "U",
        Verdict::Error(_) => "E",
    };
    match as_expected {
        Some(false) => format!("{c}!"),
        _ => c.to_string(),
    }
}

/// Render the matrix of `records` (verdicts and input errors), rules in first-seen order.
pub fn matrix(records: &[Record]) -> String {
    let mut rows: Vec<String> = Vec::new();
    let mut cells: BTreeMap<(String, Target), String> = BTreeMap::new();
    let mut row_errors: BTreeMap<String, String> = BTreeMap::new();
    for r in records {
        match r {
            Record::Verdict { outcome: o, .. } => {
                if !rows.contains(&o.rule) {
                    rows.push(o.rule.clone());
                }
                let ok = o.expect.map(|e| o.verdict.matches(e));
                cells.insert((o.rule.clone(), o.target), cell(&o.verdict, ok));
            }
            Record::Error { rule, expected, .. } if !rule.is_empty() => {
                if !rows.contains(rule) {
                    rows.push(rule.clone());
                }
                row_errors.insert(
                    rule.clone(),
                    if *expected {
                        "E (input error, as expected)"
                    } else {
                        "E! (input error)"
                    }
                    .to_string(),
                );
            }
            _ => {}
        }
    }
    if rows.is_empty() {
        return String::new();
    }
    // Padding by hand: `{:<width$}` panics past 65,535 ("Formatting argument out of range"),
    // and a rule name may be longer than that.
    let width = rows
        .iter()
        .map(|r| crate::report::escape_controls(r).chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let pad = |out: &mut String, s: &str| {
        out.push_str(s);
        out.extend(std::iter::repeat_n(
            ' ',
            width.saturating_sub(s.chars().count()),
        ));
    };
    let short = |t: Target| t.name().trim_start_matches("gfx").to_string();
    let mut out = String::new();
    pad(&mut out, "rule x target");
    for t in Target::ALL {
        let _ = write!(out, " {:>4}", short(t));
    }
    out.push('\n');
    for r in &rows {
        pad(&mut out, &crate::report::escape_controls(r));
        if let Some(e) = row_errors.get(r) {
            if !Target::ALL
                .iter()
                .any(|t| cells.contains_key(&(r.clone(), *t)))
            {
                let _ = writeln!(out, " {e}");
                continue;
            }
        }
        for t in Target::ALL {
            let c = cells
                .get(&(r.clone(), t))
                .cloned()
                .unwrap_or_else(|| ".".into());
            let _ = write!(out, " {c:>4}");
        }
        out.push('\n');
    }
    out.push_str(
        "P proved, R refuted, I inapplicable, U unknown, E error, ! not as expected, . not run there\n",
    );
    out
}
