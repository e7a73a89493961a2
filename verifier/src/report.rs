//! Text output of verdicts and counterexamples.

use crate::check::{Cex, Outcome, Verdict};
use std::borrow::Cow;
use std::fmt::Write;

/// `s` with control characters other than newline written as Rust escapes (`\u{1b}`, `\t`),
/// so a rule name or message holding terminal escapes (ESC[2J, BEL) cannot act on the
/// terminal. JSON and SARIF escape them already.
pub fn escape_controls(s: &str) -> Cow<'_, str> {
    if !s.chars().any(|c| c.is_control() && c != '\n') {
        return Cow::Borrowed(s);
    }
    Cow::Owned(
        s.chars()
            .map(|c| {
                if c.is_control() && c != '\n' {
                    c.escape_default().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect(),
    )
}

/// A value of `w` bits as hex, decimal and (when negative) signed decimal.
pub(crate) fn num(v: u128, w: u32) -> String {
    let hex = format!("0x{:0width$x}", v, width = (w as usize).div_ceil(4));
    let s = gcnsmt_semantics::interp::sign_extend(v, w);
    if s < 0 {
        format!("{hex} ({v}, {s})")
    } else {
        format!("{hex} ({v})")
    }
}

/// Memory bytes as runs of up to 16 consecutive addresses, one line each.
pub(crate) fn bytes(label: &str, bs: &[(u64, u8)], out: &mut String) {
    let mut i = 0;
    while i < bs.len() {
        let mut j = i;
        while j + 1 < bs.len() && bs[j + 1].0 == bs[j].0.wrapping_add(1) && j + 1 - i < 16 {
            j += 1;
        }
        let vals: Vec<String> = bs[i..=j].iter().map(|(_, v)| format!("{v:02x}")).collect();
        let range = if i == j {
            format!("{label}[0x{:x}]", bs[i].0)
        } else {
            format!("{label}[0x{:x}..0x{:x}]", bs[i].0, bs[j].0)
        };
        let _ = writeln!(out, "           {range} = {}", vals.join(" "));
        i = j + 1;
    }
}

/// The longest error line text output prints whole, in characters; a longer one (a message
/// quoting a 100 KB token) keeps its first and last 480 characters. JSON and SARIF keep it.
const MAX_ERROR_LINE: usize = 1000;

/// `s` shortened to about [`MAX_ERROR_LINE`] characters, the middle replaced by a note of how
/// much was left out (the `FILE:LINE:COL:` start stays).
fn elide(s: &str) -> Cow<'_, str> {
    let n = s.chars().count();
    if n <= MAX_ERROR_LINE {
        return Cow::Borrowed(s);
    }
    let head: String = s.chars().take(480).collect();
    let tail: String = s.chars().skip(n - 480).collect();
    Cow::Owned(format!(
        "{head} ... ({} characters left out) ... {tail}",
        n - 960
    ))
}

/// Render a counterexample, indented under its verdict line.
pub fn cex(c: &Cex) -> String {
    let mut out = String::new();
    for (i, (name, v, w)) in c.inputs.iter().enumerate() {
        let lead = if i == 0 { "  inputs:  " } else { "           " };
        let _ = writeln!(out, "{lead}{name} = {}", num(*v, *w));
    }
    for (name, fields) in &c.vsharp {
        let _ = writeln!(out, "  V#:      {name}");
        let fs: Vec<String> = fields.iter().map(|(n, v)| format!("{n}=0x{v:x}")).collect();
        for chunk in fs.chunks(6) {
            let _ = writeln!(out, "           {}", chunk.join(" "));
        }
    }
    if c.mem.values().any(|b| !b.is_empty()) {
        let _ = writeln!(out, "  memory (initial bytes):");
    }
    for (space, b) in c.mem.iter() {
        bytes(space.label(), b, &mut out);
    }
    for (i, (label, steps)) in [("source", &c.steps.0), ("target", &c.steps.1)]
        .into_iter()
        .enumerate()
    {
        if steps.is_empty() {
            continue;
        }
        match c.targets {
            Some(ts) => {
                let on = if i == 0 { ts.0 } else { ts.1 };
                let _ = writeln!(out, "  {label} steps (on {on}):");
            }
            None => {
                let _ = writeln!(out, "  {label} steps:");
            }
        }
        let w = steps
            .iter()
            .map(|s| s.text.len())
            .max()
            .unwrap_or(0)
            .min(48);
        for (i, st) in steps.iter().enumerate() {
            let mut vals: Vec<String> = st
                .writes
                .iter()
                .map(|(n, v)| format!("{n} = 0x{v:08x}"))
                .collect();
            vals.extend(
                st.mem_writes
                    .iter()
                    .map(|(sp, n)| format!("{sp}: {n} byte(s) changed")),
            );
            if vals.is_empty() {
                vals.push("(no change)".into());
            }
            let _ = writeln!(
                out,
                "    {:>2}  {:<w$}  {}",
                i + 1,
                st.text,
                vals.join("  ")
            );
        }
    }
    let src: Vec<String> = c
        .regs
        .iter()
        .map(|(n, s, _)| format!("{n} = 0x{s:08x}"))
        .collect();
    let tgt: Vec<String> = c
        .regs
        .iter()
        .map(|(n, _, t)| format!("{n} = 0x{t:08x}"))
        .collect();
    if !src.is_empty() {
        let _ = writeln!(out, "  source:  {}", src.join("  "));
        let _ = writeln!(out, "  target:  {}", tgt.join("  "));
    }
    for (space, a, s, t) in &c.mem_diffs {
        let _ = writeln!(
            out,
            "  {space}[0x{a:x}]: source 0x{s:02x}, target 0x{t:02x}"
        );
    }
    let _ = writeln!(out, "  first difference: {}", c.first_difference);
    if let Some(l) = &c.lanes {
        let _ = writeln!(out, "  lanes: {l}");
    }
    out
}

/// One verdict line (and details below it), control characters escaped.
pub fn outcome(o: &Outcome) -> String {
    let v = o.verdict.name().to_ascii_uppercase();
    let exp = match o.expect {
        Some(e) if o.verdict.matches(e) => " (as expected)".to_string(),
        Some(e) => format!(" (EXPECTED {})", e.name().to_ascii_uppercase()),
        None => String::new(),
    };
    let mut s = format!(
        "{:<40} {:<8} {}{}  [{}]  {:.0?}\n",
        o.rule,
        o.target_label(),
        v,
        exp,
        o.settings_text(),
        o.time
    );
    if let Some(n) = o.note {
        let _ = writeln!(s, "  note: {n}");
    }
    for a in &o.assumptions {
        let _ = writeln!(s, "  assumes: {a}");
    }
    match &o.verdict {
        Verdict::Refuted(c) => s.push_str(&cex(c)),
        Verdict::Unknown(r) => {
            let _ = writeln!(s, "  reason: {r}");
        }
        Verdict::Error(e) => {
            let _ = writeln!(s, "  error: {e}");
        }
        _ => {}
    }
    // The rule name, notes and error texts may echo input bytes.
    escape_controls(&s).into_owned()
}

/// Print a run's records as text: one verdict block per rule x target, one line per input
/// error (write failures, as on a closed pipe, are ignored).
pub fn print_text(records: &[crate::record::Record], out: &mut dyn std::io::Write) {
    use crate::record::Record;
    for r in records {
        let _ = match r {
            Record::Error {
                rule,
                error,
                expected: true,
            } => writeln!(
                out,
                "{:<40} {:<8} ERROR (as expected)  {}",
                escape_controls(rule),
                "",
                escape_controls(&elide(&error.to_string()))
            ),
            Record::Error { error, .. } => {
                writeln!(out, "{}", escape_controls(&elide(&error.to_string())))
            }
            Record::Verdict { outcome, .. } => write!(out, "{}", self::outcome(outcome)),
        };
    }
}
