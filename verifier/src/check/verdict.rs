//! What a check answers: the verdict on one rule and target, its counterexample as replayed on
//! the interpreter, and the outcome record the command line prints.

use crate::cache::StoredCex;
use crate::rules::Expect;
use gcnsmt_semantics::settings::Settings;
use gcnsmt_semantics::target::Target;
use std::time::Duration;

/// The verdict note of a rule proved by [`crate::egg_domain::egg_proves`].
pub const EGG_NOTE: &str = "proved by egg e-graph rewriting (rules: bv-identity, address, \
extract-concat, ite, memory), no refinement query";

/// The verdict note of a refutation rebuilt from the result cache by `replay_stored`.
pub const CACHED_REFUTATION_NOTE: &str =
    "counterexample from the result cache, replayed on the concrete interpreter";

/// A counterexample, as replayed on the concrete interpreter.
#[derive(Clone, Debug)]
pub struct Cex {
    /// Input name, value, width in bits.
    pub inputs: Vec<(String, u128, u32)>,
    /// Initial LDS bytes the two sides read (address, value).
    pub lds: Vec<(u32, u8)>,
    /// Initial GDS bytes the two sides read.
    pub gds: Vec<(u32, u8)>,
    /// Initial global-memory bytes (buffer instructions) the two sides read.
    pub global: Vec<(u64, u8)>,
    /// Each V# (buffer resource) a buffer instruction read: its registers and decoded fields.
    pub vsharp: Vec<(String, Vec<(&'static str, u128)>)>,
    /// The source's and the target's instructions with the values each produced.
    pub steps: (Vec<Step>, Vec<Step>),
    /// Final register values: name, source value, target value.
    pub regs: Vec<(String, u32, u32)>,
    /// Final memory bytes that differ: space, address, source byte, target byte.
    pub mem_diffs: Vec<(&'static str, u64, u8, u8)>,
    /// The first difference, in words.
    pub first_difference: String,
    /// Under `--lanes N`: the lane count and order, the target's serialization, and how many
    /// source serializations were all shown to differ.
    pub lanes: Option<String>,
}

impl Cex {
    /// What the result cache stores of this counterexample: its inputs and the initial memory
    /// bytes, all a replay needs (`replay_stored`).
    pub fn stored(&self) -> StoredCex {
        StoredCex {
            inputs: self
                .inputs
                .iter()
                .map(|(n, v, _)| (n.clone(), *v))
                .collect(),
            lds: self.lds.clone(),
            gds: self.gds.clone(),
            global: self.global.clone(),
        }
    }
}

/// One instruction of a replayed counterexample: its text and the values it produced (each
/// register it writes, and how many memory bytes it changed, by space).
#[derive(Clone, Debug)]
pub struct Step {
    pub text: String,
    pub writes: Vec<(String, u32)>,
    pub mem_writes: Vec<(&'static str, usize)>,
}

/// The verdict on one rule and target.
#[derive(Clone, Debug)]
pub enum Verdict {
    Proved,
    Refuted(Box<Cex>),
    /// The precondition (with the source's encodability and definedness) cannot hold.
    Inapplicable,
    /// The solver gave up or ran out of time.
    Unknown(String),
    /// An internal error (a semantics entry failed, or a counterexample did not replay).
    Error(String),
}

impl Verdict {
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Proved => "proved",
            Verdict::Refuted(_) => "refuted",
            Verdict::Inapplicable => "inapplicable",
            Verdict::Unknown(_) => "unknown",
            Verdict::Error(_) => "error",
        }
    }
    /// Whether this matches an expectation.
    pub fn matches(&self, e: Expect) -> bool {
        matches!(
            (self, e),
            (Verdict::Proved, Expect::Proved)
                | (Verdict::Refuted(_), Expect::Refuted)
                | (Verdict::Inapplicable, Expect::Inapplicable)
        )
    }
}

/// The result for one rule and target.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub rule: String,
    pub file: String,
    pub target: Target,
    pub settings: Settings,
    pub verdict: Verdict,
    pub expect: Option<Expect>,
    pub time: Duration,
    /// How the verdict was reached when not by the usual solver query.
    pub note: Option<&'static str>,
    /// The rule uses buffer instructions (their settings are printed with the verdict).
    pub buffer: bool,
    /// The lanes it was checked with (`None`: one lane).
    pub lanes: Option<crate::lanes::LaneMode>,
}

impl Outcome {
    /// The settings as printed with the verdict: the LDS ones, and the buffer ones when the
    /// rule uses buffer instructions.
    pub fn settings_text(&self) -> String {
        let mut t = if self.buffer {
            format!("{}, {}", self.settings, self.settings.buffer_text())
        } else {
            self.settings.to_string()
        };
        if let Some(m) = self.lanes {
            t.push_str(&format!(", lanes={} {}", m.lanes, m.order.name()));
        }
        t
    }
}
