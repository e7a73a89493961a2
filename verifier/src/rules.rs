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
    /// Line, 1-based.
    pub line: u32,
    /// Column in characters, 1-based.
    pub col: u32,
}

/// An input error: `file:line:col: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// The file as named on the command line (or `<argument>`).
    pub file: String,
    /// Where the problem starts.
    pub loc: Loc,
    /// What is wrong, without the position.
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
    /// `Expect: proved`.
    Proved,
    /// `Expect: refuted`: a counterexample is the expected outcome.
    Refuted,
    /// `Expect: inapplicable`: no input meets the precondition.
    Inapplicable,
    /// The rule is malformed on purpose (an input-error test kept beside the proofs).
    Error,
}

impl Expect {
    /// The word as written after `Expect:`.
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
    /// The whole source line (columns count from its first character).
    pub text: String,
    /// The line's position (column 1).
    pub loc: Loc,
}

/// A parsed rule, not yet checked against any target.
#[derive(Clone, Debug)]
pub struct Rule {
    /// The file the rule came from, as named on the command line.
    pub file: String,
    /// `Name:`.
    pub name: String,
    /// Position of the `Name:` line.
    pub loc: Loc,
    /// Explicit targets, if given (`Targets:`); otherwise every target that has the instructions.
    pub targets: Option<(Vec<Target>, Loc)>,
    /// `Targets: T1 -> T2`: the target the rule's target side runs on (the source side runs on
    /// each of `targets`); `None` when both sides run on the same target.
    pub to: Option<(Target, Loc)>,
    /// `Settings: name=value, ...` with the position of each item.
    pub settings: Vec<(String, String, Loc)>,
    /// `Pre:` text and position.
    pub pre: Option<Line>,
    /// `Dead:` variables (without `%`) with positions.
    pub dead: Vec<(String, Loc)>,
    /// `Dead:` concrete registers (`m0`, `vcc`, `v1`, `s2`, as written) with positions.
    pub dead_regs: Vec<(String, Loc)>,
    /// The instructions before `=>` (what the rewrite starts from).
    pub source: Vec<Line>,
    /// The instructions after `=>` (what must refine the source).
    pub target: Vec<Line>,
    /// `Expect:` and its position.
    pub expect: Option<(Expect, Loc)>,
    /// `Source:` citations.
    pub cites: Vec<String>,
    /// `Tags:` words (for `--filter tag:NAME`).
    pub tags: Vec<String>,
    /// `Lanes: N [any|ascending]`: check with N lanes per instruction (see [`LaneMode`](crate::LaneMode)).
    pub lanes: Option<(crate::lane_mode::LaneMode, Loc)>,
    /// Its lines are assembly a user wrote (a rules file), bound only when llvm-mc-22 would
    /// encode them (`machine/vop_legal.rs`); tv's rules are lowered from MIR, whose operands
    /// `tv/vop_bus.rs` checks, into lines of its own (`v_dpp_flags_b32`, ...).
    pub written: bool,
}

impl Rule {
    /// An input error of this rule's file at `loc`.
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

/// One line of a rule file being read: the file name and the 0-based line index, for errors
/// and positions (columns passed in are 0-based too).
#[derive(Clone, Copy)]
struct At<'a> {
    file: &'a str,
    line: usize,
}

impl At<'_> {
    fn loc(self, col: usize) -> Loc {
        Loc {
            line: self.line as u32 + 1,
            col: col as u32 + 1,
        }
    }

    fn err(self, col: usize, msg: impl Into<String>) -> InputError {
        InputError {
            file: self.file.to_string(),
            loc: self.loc(col),
            msg: msg.into(),
        }
    }
}

/// A header line split up: the key, its value (trimmed) and the value's 0-based column.
struct Header<'t> {
    key: &'static str,
    value: &'t str,
    vcol: usize,
}

/// Parse a rule file. Errors: a malformed header, a rule without `=>` or without source
/// instructions, an unknown target or verdict, a duplicated rule name; each at its line and
/// column. The first error is returned; [`parse_rules_each`] keeps going past it.
pub fn parse_rules(file: &str, text: &str) -> Result<Vec<Rule>, InputError> {
    let (rules, mut errors) = parse_rules_each(file, text);
    if errors.is_empty() {
        Ok(rules)
    } else {
        Err(errors.remove(0).1)
    }
}

/// Parse a rule file, one error per malformed rule: a rule with an error is dropped with its
/// error (and its name, empty before the first `Name:`), and reading resumes at the next
/// `Name:` line, so one bad rule does not hide the others. Errors come in file order.
pub fn parse_rules_each(file: &str, text: &str) -> (Vec<Rule>, Vec<(String, InputError)>) {
    let mut rules: Vec<Rule> = Vec::new();
    let mut errors: Vec<(String, InputError)> = Vec::new();
    let mut cur: Option<(Rule, bool)> = None; // (rule, seen `=>`)
                                              // After an error, the lines up to the next `Name:` belong to the dropped rule.
    let mut skipping = false;
    for (i, raw) in text.lines().enumerate() {
        let at = At { file, line: i };
        let code = strip_comment(raw);
        let trimmed = code.trim();
        if trimmed.is_empty() {
            continue;
        }
        let indent = code.len() - code.trim_start().len();
        let header = split_header(trimmed, indent);
        if let Some(h) = header.as_ref().filter(|h| h.key == "Name") {
            if let Some((rule, arrow)) = cur.take() {
                let name = rule.name.clone();
                if let Err(e) = finish(rule, arrow, &mut rules) {
                    errors.push((name, e));
                }
            }
            skipping = false;
            match new_rule(at, indent, h) {
                Ok(r) => cur = Some((r, false)),
                Err(e) => {
                    errors.push((h.value.to_string(), e));
                    skipping = true;
                }
            }
            continue;
        }
        if skipping {
            continue;
        }
        if let Err(e) = rule_line(&mut cur, at, code, indent, header.as_ref()) {
            let name = cur.take().map(|(r, _)| r.name).unwrap_or_default();
            errors.push((name, e));
            skipping = true;
        }
    }
    if let Some((rule, arrow)) = cur.take() {
        let name = rule.name.clone();
        if let Err(e) = finish(rule, arrow, &mut rules) {
            errors.push((name, e));
        }
    }
    (rules, errors)
}

/// One line after a rule's `Name:` (a header or an instruction) into the current rule.
/// Errors: a line before the first `Name:`, a misplaced or malformed header, a bad instruction
/// line.
fn rule_line(
    cur: &mut Option<(Rule, bool)>,
    at: At,
    code: &str,
    indent: usize,
    header: Option<&Header>,
) -> Result<(), InputError> {
    let Some((rule, arrow)) = cur.as_mut() else {
        return Err(match header {
            Some(h) => at.err(indent, format!("`{}:` before the first `Name:`", h.key)),
            None => at.err(indent, "instruction before the first `Name:`"),
        });
    };
    match header {
        Some(h) => {
            check_header_place(rule, at, indent, h.key)?;
            apply_header(rule, at, h)
        }
        None => instruction_line(rule, arrow, at, code, indent),
    }
}

/// The code part of a line: comments are `;` or `//` to the end of the line.
fn strip_comment(raw: &str) -> &str {
    match (raw.find(';'), raw.find("//")) {
        (Some(a), Some(b)) => &raw[..a.min(b)],
        (Some(a), None) | (None, Some(a)) => &raw[..a],
        (None, None) => raw,
    }
}

/// `Key: value` with a known key, or `None` (an instruction, `=>`, or an unknown header).
fn split_header(trimmed: &str, indent: usize) -> Option<Header<'_>> {
    let key = KEYS.iter().find(|k| {
        trimmed
            .strip_prefix(**k)
            .is_some_and(|r| r.trim_start().starts_with(':'))
    })?;
    let after = &trimmed[key.len()..];
    let colon = after.find(':').expect("checked above");
    let rest = &after[colon + 1..];
    Some(Header {
        key,
        value: rest.trim(),
        vcol: indent + key.len() + colon + 1 + (rest.len() - rest.trim_start().len()),
    })
}

/// A new rule from its `Name:` line. Errors: a name that is not one word.
fn new_rule(at: At, indent: usize, h: &Header) -> Result<Rule, InputError> {
    if h.value.is_empty() || h.value.contains(char::is_whitespace) {
        return Err(at.err(h.vcol, "a rule name is one word"));
    }
    Ok(Rule {
        file: at.file.to_string(),
        name: h.value.to_string(),
        loc: at.loc(indent),
        targets: None,
        to: None,
        settings: Vec::new(),
        pre: None,
        dead: Vec::new(),
        dead_regs: Vec::new(),
        source: Vec::new(),
        target: Vec::new(),
        expect: None,
        cites: Vec::new(),
        tags: Vec::new(),
        lanes: None,
        written: true,
    })
}

/// Close a rule. Errors: no `=>`, no source instructions, a name already used. An empty
/// target side is a rule that deletes the source instructions.
fn finish(rule: Rule, arrow: bool, rules: &mut Vec<Rule>) -> Result<(), InputError> {
    if !arrow {
        return Err(rule.error(rule.loc, format!("rule `{}` has no `=>` line", rule.name)));
    }
    if rule.source.is_empty() {
        return Err(rule.error(
            rule.loc,
            format!("rule `{}` has no source instructions", rule.name),
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
}

/// Headers that shape the query come before the instructions; each at most once.
fn check_header_place(rule: &Rule, at: At, indent: usize, k: &str) -> Result<(), InputError> {
    let started = !rule.source.is_empty();
    if started && matches!(k, "Targets" | "Settings" | "Pre" | "Dead" | "Lanes") {
        return Err(at.err(
            indent,
            format!("`{k}:` must come before the rule's instructions"),
        ));
    }
    let again = match k {
        "Targets" => rule.targets.is_some(),
        "Settings" => !rule.settings.is_empty(),
        "Pre" => rule.pre.is_some(),
        "Dead" => !rule.dead.is_empty() || !rule.dead_regs.is_empty(),
        "Expect" => rule.expect.is_some(),
        "Lanes" => rule.lanes.is_some(),
        _ => false,
    };
    if again {
        return Err(at.err(indent, format!("a second `{k}:` in rule `{}`", rule.name)));
    }
    Ok(())
}

/// Store one header (other than `Name:`) in the rule.
fn apply_header(rule: &mut Rule, at: At, h: &Header) -> Result<(), InputError> {
    let (value, vcol) = (h.value, h.vcol);
    let vloc = at.loc(vcol);
    match h.key {
        "Targets" => match value.split_once("->") {
            None => rule.targets = Some((parse_targets(at, value, vcol)?, vloc)),
            Some((from, to)) => {
                rule.targets = Some((parse_targets(at, from.trim_end(), vcol)?, vloc));
                let tcol = vcol + from.len() + 2 + (to.len() - to.trim_start().len());
                let ts = parse_targets(at, to.trim(), tcol)?;
                let [t] = ts[..] else {
                    return Err(at.err(tcol, "the target side of `->` names one target"));
                };
                rule.to = Some((t, at.loc(tcol)));
            }
        },
        "Settings" => {
            for (it, col) in list_items(value, vcol) {
                let Some((n, v)) = it.split_once('=') else {
                    return Err(at.err(col, format!("expected `name=value`, found `{it}`")));
                };
                let item = (n.trim().to_string(), v.trim().to_string(), at.loc(col));
                rule.settings.push(item);
            }
        }
        "Pre" => {
            if value.is_empty() {
                return Err(at.err(vcol, "empty precondition"));
            }
            rule.pre = Some(Line {
                text: value.to_string(),
                loc: vloc,
            });
        }
        "Dead" => {
            for (it, col) in list_items(value, vcol) {
                match it.strip_prefix('%') {
                    Some(v) => rule.dead.push((v.to_string(), at.loc(col))),
                    None if is_register_name(it) => {
                        rule.dead_regs.push((it.to_ascii_lowercase(), at.loc(col)))
                    }
                    None => {
                        return Err(at.err(
                            col,
                            format!(
                                "Dead lists %-variables and registers (m0, vcc, scc, v1, s2), \
                                 found `{it}`"
                            ),
                        ))
                    }
                }
            }
        }
        "Lanes" => {
            let mode = crate::lane_mode::LaneMode::parse(value)
                .map_err(|(off, m)| at.err(vcol + off, m))?;
            rule.lanes = Some((mode, vloc));
        }
        "Expect" => rule.expect = Some((parse_expect(at, value, vcol)?, vloc)),
        "Tags" => rule.tags.extend(
            value
                .split([',', ' '])
                .filter(|t| !t.is_empty())
                .map(str::to_string),
        ),
        _ => rule.cites.push(value.to_string()),
    }
    Ok(())
}

/// Whether `s` names one 32-bit register, `vcc` or `scc` (`m0`, `vcc`, `scc`, `vN`, `sN`,
/// `aN`), any case.
pub fn is_register_name(s: &str) -> bool {
    let l = s.to_ascii_lowercase();
    if l == "m0" || l == "vcc" || l == "scc" {
        return true;
    }
    let mut cs = l.chars();
    matches!(cs.next(), Some('v' | 's' | 'a'))
        && !cs.as_str().is_empty()
        && cs.as_str().bytes().all(|b| b.is_ascii_digit())
}

/// The comma-separated items of a header value, each trimmed, with its 0-based column.
fn list_items(value: &str, vcol: usize) -> Vec<(&str, usize)> {
    let mut col = vcol;
    let mut out = Vec::new();
    for item in value.split(',') {
        let lead = item.len() - item.trim_start().len();
        out.push((item.trim(), col + lead));
        col += item.len() + 1;
    }
    out
}

/// A `Targets:` list. Errors: an unknown target, at the offending item or the bad name
/// within it; an empty list.
fn parse_targets(at: At, value: &str, vcol: usize) -> Result<Vec<Target>, InputError> {
    let ts = Target::parse_list(value).map_err(|m| {
        let mut col = vcol;
        let mut off = 0;
        for item in value.split(',') {
            if Target::parse_list(item).is_err() {
                col = vcol + off + (item.len() - item.trim_start().len());
                let name = m.split('`').nth(1).unwrap_or("").trim();
                if let Some(p) = item.find(name).filter(|_| !name.is_empty()) {
                    col = vcol + off + p;
                }
                break;
            }
            off += item.len() + 1;
        }
        at.err(col, m)
    })?;
    if ts.is_empty() {
        return Err(at.err(vcol, "no targets listed"));
    }
    Ok(ts)
}

/// An `Expect:` verdict. Errors: an unknown word.
fn parse_expect(at: At, value: &str, vcol: usize) -> Result<Expect, InputError> {
    Ok(match value {
        "proved" => Expect::Proved,
        "refuted" => Expect::Refuted,
        "inapplicable" => Expect::Inapplicable,
        "error" => Expect::Error,
        _ => {
            return Err(at.err(
                vcol,
                format!("unknown verdict `{value}` (proved, refuted, inapplicable or error)"),
            ))
        }
    })
}

/// A line that is not a known header: `=>`, or an instruction of the source or target side.
/// Errors: a second `=>`, an unknown `Word:` header.
fn instruction_line(
    rule: &mut Rule,
    arrow: &mut bool,
    at: At,
    code: &str,
    indent: usize,
) -> Result<(), InputError> {
    let trimmed = code.trim();
    if trimmed == "=>" {
        if *arrow {
            return Err(at.err(indent, "a second `=>` in one rule"));
        }
        *arrow = true;
        return Ok(());
    }
    if trimmed.starts_with(|c: char| c.is_ascii_uppercase()) && trimmed.contains(':') {
        let word: String = trimmed
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        return Err(at.err(
            indent,
            format!(
                "unknown header `{word}:` (expected one of {})",
                KEYS.join(", ")
            ),
        ));
    }
    let line = Line {
        text: code.to_string(),
        loc: at.loc(0),
    };
    if *arrow {
        rule.target.push(line);
    } else {
        rule.source.push(line);
    }
    Ok(())
}
