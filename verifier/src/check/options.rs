//! How to check: the command line's time and memory limits, setting overrides, lanes and
//! solver hooks, as one value every check takes.

use std::time::Duration;

/// How to check.
#[derive(Clone, Debug)]
pub struct Options {
    /// Time limit per solver query.
    pub timeout: Duration,
    /// `name=value` settings from the command line; they override the rule's.
    pub settings: Vec<(String, String)>,
    /// Memory limit per solver query, in megabytes (`--memory`); a query that hits it is
    /// `unknown`.
    pub memory_mb: Option<u32>,
    /// `--emit-smt2` and `--cross-check`: what else happens to each query's text.
    pub hooks: crate::crosscheck::Hooks,
    /// Prove rules whose sides are identical after egg normalisation, or whose outputs meet
    /// in one e-class after the e-graph pass ([`crate::egg_domain`]), without a refinement
    /// query (on by default; off only to measure what it saves).
    pub egg: bool,
    /// `--lanes N [--lane-order ...]`: check every rule with N lanes (overrides a rule's
    /// `Lanes:`); see [`LaneMode`](crate::LaneMode).
    pub lanes: Option<crate::lanes::LaneMode>,
    /// `--lane-order`: replaces the order of rules' `Lanes:` too.
    pub lane_order: Option<crate::lanes::LaneOrder>,
    /// Prove a cross-target rule whose two sides lift to the very same terms without a
    /// refinement query (`gcnsmt equiv`; off elsewhere so `verify` output stays as it was).
    pub identity: bool,
    /// Shrink a counterexample toward small inputs and readable bytes (on by default; `equiv
    /// --all` turns it off: its data file keeps no witness). Off, the solver's model, replayed
    /// on the interpreter like a shrunk one, is the counterexample.
    pub shrink: bool,
    /// `gcnsmt tv --set hazards=CHECK|LATER`: whether LLVM's hazard recognizer
    /// (`post-RA-hazard-rec`) still runs after the checked pass (docs/tv.md, "Hazards, WWM and
    /// flat scratch").
    pub hazards: Hazards,
}

/// `--set NAME=VALUE` arguments as (name, value) pairs, as `verify` and `tv` take them.
///
/// Errors: an argument without `=`, and two different values for one name (which would
/// otherwise silently keep the last; a repeat of the same value is fine).
pub fn parse_set(set: &[String]) -> Result<Vec<(String, String)>, String> {
    let mut settings: Vec<(String, String)> = Vec::new();
    for s in set {
        match s.split_once('=') {
            Some((n, v)) => settings.push((n.trim().to_string(), v.trim().to_string())),
            None => return Err(format!("--set expects NAME=VALUE, got `{s}`")),
        }
    }
    for (i, (n, v)) in settings.iter().enumerate() {
        if let Some((_, w)) = settings[..i].iter().find(|(m, w)| m == n && w != v) {
            return Err(format!("--set {n}={w} and --set {n}={v} conflict"));
        }
    }
    Ok(settings)
}

/// Whether the wait states of hardware hazards (AMD's "Manually Inserted Wait States" tables)
/// are the checked pass's business.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Hazards {
    /// The hazard recognizer has run: a post-RA pair whose blocks bring a hazard-sensitive
    /// instruction closer to a writer of its registers, or move or drop an `S_NOP`, is
    /// `unsupported` (the default: two files do not say where in the pipeline they are).
    Check,
    /// The hazard recognizer runs after the pass and inserts what the order needs.
    Later,
}

impl Hazards {
    /// `--set hazards=VALUE` (case-insensitive).
    pub fn parse(v: &str) -> Result<Hazards, String> {
        match v.to_ascii_uppercase().as_str() {
            "CHECK" => Ok(Hazards::Check),
            "LATER" => Ok(Hazards::Later),
            _ => Err(format!("unknown hazards `{v}` (CHECK or LATER)")),
        }
    }

    /// The value as `--set` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Hazards::Check => "CHECK",
            Hazards::Later => "LATER",
        }
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            timeout: Duration::from_secs(20),
            settings: Vec::new(),
            memory_mb: None,
            hooks: Default::default(),
            egg: true,
            lanes: None,
            lane_order: None,
            identity: false,
            shrink: true,
            hazards: Hazards::Check,
        }
    }
}
