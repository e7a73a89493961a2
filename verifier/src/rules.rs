//! Rule files: the text format of `proofs/*.rules` (grammar in `proofs/README.md`).
//!
//! ```text
//! ; comment
//! Name: ds-read2-b32-merge
//! Source: LLVM SILoadStoreOptimizer.cpp (CombineInfo for DS_READ)
//! Targets: gfx6..gfx1250
//! Settings: alignment=DWORD
//! Pre: %o % 4 == 0 && %o / 4 + 1 <= 255
//! Dead: %t
//!   ds_read_b32 %x, %a offset:%o
//!   ds_read_b32 %y, %a offset:%o+4
//! =>
//!   ds_read2_b32 {%x, %y}, %a offset0:%o/4 offset1:%o/4+1
//! Expect: proved
//! ```

use gcnsmt_semantics::target::Target;
use std::fmt;

/// A position in a rule file: 1-based line and column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Loc {
    pub line: u32,
    pub col: u32,
}

/// An input error: `file:line:col: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    pub file: String,
    pub loc: Loc,
    pub msg: String,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: error: {}",
            self.file, self.loc.line, self.loc.col, self.msg
        )
    }
}

impl std::error::Error for InputError {}

/// What a rule expects to be found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    Proved,
    Refuted,
    Inapplicable,
    /// The rule is malformed on purpose (an input-error test kept beside the proofs).
    Error,
}

impl Expect {
    pub fn name(self) -> &'static str {
        match self {
            Expect::Proved => "proved",
            Expect::Refuted => "refuted",
            Expect::Inapplicable => "inapplicable",
            Expect::Error => "error",
        }
    }
}

/// One instruction line with its position.
#[derive(Clone, Debug)]
pub struct Line {
    pub text: String,
    pub loc: Loc,
}

/// A parsed rule, not yet checked against any target.
#[derive(Clone, Debug)]
pub struct Rule {
    pub file: String,
    pub name: String,
    pub loc: Loc,
    /// Explicit targets, if given (`Targets:`); otherwise every target that has the instructions.
    pub targets: Option<(Vec<Target>, Loc)>,
    /// `Settings: name=value, ...` with the position of each item.
    pub settings: Vec<(String, String, Loc)>,
    /// `Pre:` text and position.
    pub pre: Option<Line>,
    /// `Dead:` variables (without `%`) with positions.
    pub dead: Vec<(String, Loc)>,
    pub source: Vec<Line>,
    pub target: Vec<Line>,
    pub expect: Option<(Expect, Loc)>,
    /// `Source:` citations.
    pub cites: Vec<String>,
    /// `Tags:` words (for `--filter tag:NAME`).
    pub tags: Vec<String>,
    /// `Lanes: N [any|ascending]`: check with N lanes per instruction (see [`crate::lanes`]).
    pub lanes: Option<(crate::lane_mode::LaneMode, Loc)>,
}

impl Rule {
    pub fn error(&self, loc: Loc, msg: impl Into<String>) -> InputError {
        InputError {
            file: self.file.clone(),
            loc,
            msg: msg.into(),
        }
    }
}

const KEYS: [&str; 10] = [
    "Name", "Targets", "Settings", "Pre", "Dead", "Expect", "Source", "Cite", "Tags", "Lanes",
];

/// Parse a rule file. Errors: a malformed header, a rule without `=>` or without instructions,
/// an unknown target or verdict, a duplicated rule name; each at its line and column.
pub fn parse_rules(file: &str, text: &str) -> Result<Vec<Rule>, InputError> {
    let e = |line: usize, col: usize, msg: String| InputError {
        file: file.to_string(),
        loc: Loc {
            line: line as u32 + 1,
            col: col as u32 + 1,
        },
        msg,
    };
    let mut rules: Vec<Rule> = Vec::new();
    let mut cur: Option<(Rule, bool)> = None; // (rule, seen `=>`)
    let finish = |r: (Rule, bool), rules: &mut Vec<Rule>| -> Result<(), InputError> {
        let (rule, arrow) = r;
        if !arrow {
            return Err(rule.error(rule.loc, format!("rule `{}` has no `=>` line", rule.name)));
        }
        if rule.source.is_empty() {
            return Err(rule.error(
                rule.loc,
                format!("rule `{}` has no source instructions", rule.name),
            ));
        }
        if rule.target.is_empty() {
            return Err(rule.error(
                rule.loc,
                format!("rule `{}` has no target instructions", rule.name),
            ));
        }
        if let Some(prev) = rules.iter().find(|p| p.name == rule.name) {
            return Err(rule.error(
                rule.loc,
                format!(
                    "rule `{}` is already defined at line {}",
                    rule.name, prev.loc.line
                ),
            ));
        }
        rules.push(rule);
        Ok(())
    };
    for (i, raw) in text.lines().enumerate() {
        // Comments: `;` or `//` to the end of the line.
        let code = match (raw.find(';'), raw.find("//")) {
            (Some(a), Some(b)) => &raw[..a.min(b)],
            (Some(a), None) | (None, Some(a)) => &raw[..a],
            (None, None) => raw,
        };
        let trimmed = code.trim();
        if trimmed.is_empty() {
            continue;
        }
        let indent = code.len() - code.trim_start().len();
        let key = KEYS.iter().find(|k| {
            trimmed
                .strip_prefix(**k)
                .is_some_and(|r| r.trim_start().starts_with(':'))
        });
        if let Some(k) = key {
            let after = &trimmed[k.len()..];
            let colon = after.find(':').expect("checked above");
            let value = after[colon + 1..].trim();
            let vcol = indent
                + k.len()
                + colon
                + 1
                + (after[colon + 1..].len() - after[colon + 1..].trim_start().len());
            if *k == "Name" {
                if let Some(r) = cur.take() {
                    finish(r, &mut rules)?;
                }
                if value.is_empty() || value.contains(char::is_whitespace) {
                    return Err(e(i, vcol, "a rule name is one word".to_string()));
                }
                cur = Some((
                    Rule {
                        file: file.to_string(),
                        name: value.to_string(),
                        loc: Loc {
                            line: i as u32 + 1,
                            col: indent as u32 + 1,
                        },
                        targets: None,
                        settings: Vec::new(),
                        pre: None,
                        dead: Vec::new(),
                        source: Vec::new(),
                        target: Vec::new(),
                        expect: None,
                        cites: Vec::new(),
                        tags: Vec::new(),
                        lanes: None,
                    },
                    false,
                ));
                continue;
            }
            let Some((rule, _)) = cur.as_mut() else {
                return Err(e(i, indent, format!("`{k}:` before the first `Name:`")));
            };
            let vloc = Loc {
                line: i as u32 + 1,
                col: vcol as u32 + 1,
            };
            // Headers that shape the query come before the instructions; each at most once.
            let started = !rule.source.is_empty();
            if started && matches!(*k, "Targets" | "Settings" | "Pre" | "Dead" | "Lanes") {
                return Err(e(
                    i,
                    indent,
                    format!("`{k}:` must come before the rule's instructions"),
                ));
            }
            let again = match *k {
                "Targets" => rule.targets.is_some(),
                "Settings" => !rule.settings.is_empty(),
                "Pre" => rule.pre.is_some(),
                "Dead" => !rule.dead.is_empty(),
                "Expect" => rule.expect.is_some(),
                "Lanes" => rule.lanes.is_some(),
                _ => false,
            };
            if again {
                return Err(e(
                    i,
                    indent,
                    format!("a second `{k}:` in rule `{}`", rule.name),
                ));
            }
            match *k {
                "Targets" => {
                    let ts = Target::parse_list(value).map_err(|m| {
                        // Point at the offending item, or at the bad name within it.
                        let mut at = vcol;
                        let mut off = 0;
                        for item in value.split(',') {
                            if Target::parse_list(item).is_err() {
                                at = vcol + off + (item.len() - item.trim_start().len());
                                let name = m.split('`').nth(1).unwrap_or("").trim();
                                if let Some(p) = item.find(name).filter(|_| !name.is_empty()) {
                                    at = vcol + off + p;
                                }
                                break;
                            }
                            off += item.len() + 1;
                        }
                        e(i, at, m)
                    })?;
                    if ts.is_empty() {
                        return Err(e(i, vcol, "no targets listed".to_string()));
                    }
                    rule.targets = Some((ts, vloc));
                }
                "Settings" => {
                    let mut col = vcol;
                    for item in value.split(',') {
                        let lead = item.len() - item.trim_start().len();
                        let it = item.trim();
                        let Some((n, v)) = it.split_once('=') else {
                            return Err(e(
                                i,
                                col + lead,
                                format!("expected `name=value`, found `{it}`"),
                            ));
                        };
                        rule.settings.push((
                            n.trim().to_string(),
                            v.trim().to_string(),
                            Loc {
                                line: i as u32 + 1,
                                col: (col + lead) as u32 + 1,
                            },
                        ));
                        col += item.len() + 1;
                    }
                }
                "Pre" => {
                    if value.is_empty() {
                        return Err(e(i, vcol, "empty precondition".to_string()));
                    }
                    rule.pre = Some(Line {
                        text: value.to_string(),
                        loc: vloc,
                    });
                }
                "Dead" => {
                    let mut col = vcol;
                    for item in value.split(',') {
                        let lead = item.len() - item.trim_start().len();
                        let it = item.trim();
                        let Some(v) = it.strip_prefix('%') else {
                            return Err(e(
                                i,
                                col + lead,
                                format!("Dead lists %-variables, found `{it}`"),
                            ));
                        };
                        rule.dead.push((
                            v.to_string(),
                            Loc {
                                line: i as u32 + 1,
                                col: (col + lead) as u32 + 1,
                            },
                        ));
                        col += item.len() + 1;
                    }
                }
                "Lanes" => {
                    let mode = crate::lane_mode::LaneMode::parse(value)
                        .map_err(|(off, m)| e(i, vcol + off, m))?;
                    rule.lanes = Some((mode, vloc));
                }
                "Expect" => {
                    let ex = match value {
                        "proved" => Expect::Proved,
                        "refuted" => Expect::Refuted,
                        "inapplicable" => Expect::Inapplicable,
                        "error" => Expect::Error,
                        _ => {
                            return Err(e(
                                i,
                                vcol,
                                format!("unknown verdict `{value}` (proved, refuted, inapplicable or error)"),
                            ))
                        }
                    };
                    rule.expect = Some((ex, vloc));
                }
                "Tags" => rule.tags.extend(
                    value
                        .split([',', ' '])
                        .filter(|t| !t.is_empty())
                        .map(str::to_string),
                ),
                _ => rule.cites.push(value.to_string()),
            }
            continue;
        }
        let Some((rule, arrow)) = cur.as_mut() else {
            return Err(e(
                i,
                indent,
                "instruction before the first `Name:`".to_string(),
            ));
        };
        if trimmed == "=>" {
            if *arrow {
                return Err(e(i, indent, "a second `=>` in one rule".to_string()));
            }
            *arrow = true;
            continue;
        }
        if trimmed.starts_with(|c: char| c.is_ascii_uppercase()) && trimmed.contains(':') {
            let word: String = trimmed
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            return Err(e(
                i,
                indent,
                format!(
                    "unknown header `{word}:` (expected one of {})",
                    KEYS.join(", ")
                ),
            ));
        }
        let line = Line {
            text: code.to_string(),
            loc: Loc {
                line: i as u32 + 1,
                col: 1,
            },
        };
        if *arrow {
            rule.target.push(line);
        } else {
            rule.source.push(line);
        }
    }
    if let Some(r) = cur.take() {
        finish(r, &mut rules)?;
    }
    Ok(rules)
}
