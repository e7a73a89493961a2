//! What a check answers: the verdict on one rule and target, its counterexample as replayed on
//! the interpreter, and the outcome record the command line prints.

use crate::cache::StoredCex;
use crate::rules::Expect;
use gcnsmt_semantics::eval::PerSpace;
use gcnsmt_semantics::settings::Settings;
use gcnsmt_semantics::target::Target;
use std::time::Duration;

/// How a cross-target proof by identity of the lifted terms is noted (see `check/identity.rs`).
pub const IDENTITY_NOTE: &str = "proved by identity: both sides, each lifted on its own target \
     with its own settings, leave the same terms in every live register, memory store, \
     definedness and field check (the same semantics entry, the settings and V# bits it reads \
     read alike); no refinement query";
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
    /// Initial memory bytes the two sides read (address, value), per address space.
    pub mem: PerSpace<Vec<(u64, u8)>>,
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
    /// A cross-target rule's (source target, target target); `None` when both sides ran on one.
    pub targets: Option<(Target, Target)>,
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
            mem: self.mem.clone(),
        }
    }
}

/// One instruction of a replayed counterexample: its text and the values it produced (each
/// register it writes, and how many memory bytes it changed, by space).
#[derive(Clone, Debug)]
pub struct Step {
    /// The instruction as written; ` (inactive)` appended when its lane's EXEC bit is clear.
    pub text: String,
    /// Each register it writes (`v1`, `%x[1]`, `v0@lane1`) and the 32-bit value written; empty
    /// for an inactive lane.
    pub writes: Vec<(String, u32)>,
    /// For each memory space the instruction changed (its [`AddrSpace::label`]: `LDS`, `GDS`,
    /// `MEM`, `SCRATCH`), how many bytes now differ from before it.
    ///
    /// [`AddrSpace::label`]: gcnsmt_semantics::eval::AddrSpace::label
    pub mem_writes: Vec<(&'static str, usize)>,
}

/// The verdict on one rule and target.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// No input satisfying the precondition makes the target side differ from the source side.
    Proved,
    /// A counterexample: the inputs and initial memory, both sides' replayed steps, and the
    /// final values that differ.
    Refuted(Box<Cex>),
    /// The precondition (with the source's encodability and definedness) cannot hold.
    Inapplicable,
    /// The solver gave up or ran out of time.
    Unknown(String),
    /// An internal error (a semantics entry failed, or a counterexample did not replay).
    Error(String),
}

impl Verdict {
    /// The verdict's name in output: `proved`, `refuted`, `inapplicable`, `unknown` or `error`.
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
    /// The rule's `Name:`.
    pub rule: String,
    /// The rules file the rule is in.
    pub file: String,
    /// The target it was checked on.
    pub target: Target,
    /// The model settings the check used (the target's defaults or the command-line choices).
    pub settings: Settings,
    /// The verdict.
    pub verdict: Verdict,
    /// The rule's `Expect:` value, if it has one.
    pub expect: Option<Expect>,
    /// Wall time of elaboration and solving.
    pub time: Duration,
    /// How the verdict was reached when not by the usual solver query.
    pub note: Option<&'static str>,
    /// The rule uses buffer instructions (their settings are printed with the verdict).
    pub buffer: bool,
    /// The rule uses scalar buffer loads (`sbuffer_size` is printed with the verdict).
    pub sbuffer: bool,
    /// The rule uses FLAT instructions (`flat_aperture` is printed with the verdict).
    pub flat: bool,
    /// The rule uses an LDS DMA form (`... lds`; the `lds_dma_*` settings are printed).
    pub lds_dma: bool,
    /// The rule reads the f32 denormal mode (`fp32_denorm` is printed with the verdict).
    pub float: bool,
    /// The rule uses `v_max_f32` (`ieee_mode` is printed with the verdict).
    pub ieee: bool,
    /// The rule uses an ADDTID DS op (`addtid_m0` is printed with the verdict).
    pub addtid: bool,
    /// The rule uses `ds_append`/`ds_consume` (`append_addr` is printed with the verdict).
    pub append: bool,
    /// The rule uses a BVH stack op (`bvh_pop` and `bvh_invalid` are printed with the verdict).
    pub bvh: bool,
    /// The rule uses a D16 load or store (`d16_unused` is printed with the verdict).
    pub d16: bool,
    /// The lanes it was checked with (`None`: one lane).
    pub lanes: Option<crate::lanes::LaneMode>,
    /// A cross-target rule: the target its target side ran on, with that side's settings.
    pub to: Option<(Target, Settings)>,
    /// What a cross-target verdict assumes beyond the settings (V# fields the two layouts do
    /// not map onto each other); empty otherwise.
    pub assumptions: Vec<String>,
}

impl Outcome {
    /// The settings as printed with the verdict: the LDS ones, and the buffer ones when the
    /// rule uses buffer instructions.
    pub fn settings_text(&self) -> String {
        use gcnsmt_semantics::settings::groups;
        let read = [
            (true, groups::LDS),
            (self.buffer, groups::BUFFER),
            (self.sbuffer, groups::SBUFFER),
            (self.flat, groups::FLAT),
            (self.lds_dma, groups::LDS_DMA),
            (self.float, groups::FLOAT),
            (self.ieee, groups::IEEE),
            (self.addtid, groups::ADDTID),
            (self.append, groups::APPEND),
            // Only Southern Islands has the negative-base problem (LLVM isDSOffsetLegal).
            (
                self.target.gen() == gcnsmt_semantics::target::Gen::Gfx6,
                groups::DS_GFX6,
            ),
            (self.bvh, groups::BVH),
            (self.d16, groups::D16),
            // gfx1010-gfx1013's LDS-misalignment and FLAT-offset bugs.
            (self.target.gfx101x_bugs(), groups::GFX101X),
            // bufaudit: they choose between readings of the GCN/CDNA V# only.
            (self.buffer && self.gcn_vsharp(), groups::BUFFER_GCN),
            // SI/CI's SOFFSET clamping bug (LLVM splitMUBUFOffset).
            (self.buffer && self.sici(), groups::BUFFER_SICI),
        ];
        let names: Vec<&str> = read
            .iter()
            .filter(|(used, _)| *used)
            .flat_map(|(_, g)| g.iter().copied())
            .collect();
        let mut t = self.settings.text(&names);
        if let Some(m) = self.lanes {
            t.push_str(&format!(", lanes={} {}", m.lanes, m.order.name()));
        }
        if let Some((to, s)) = self.to.filter(|(_, s)| *s != self.settings) {
            let other = Outcome {
                settings: s,
                to: None,
                ..self.clone()
            };
            // Settings the rule's instructions do not use may differ unprinted (append_addr
            // on gfx11): only a different printed text is worth a second list.
            let other = other.settings_text();
            if other != t {
                t.push_str(&format!("; on {to}: {other}"));
            }
        }
        t
    }

    /// Either side runs on gfx6 or gfx7 (Southern or Sea Islands).
    fn sici(&self) -> bool {
        use gcnsmt_semantics::target::Gen;
        let sici = |t: Target| matches!(t.gen(), Gen::Gfx6 | Gen::Gfx7);
        sici(self.target) || self.to.is_some_and(|(t, _)| sici(t))
    }

    /// Either side runs on a target with the GCN/CDNA V# layout (gfx6-gfx950).
    fn gcn_vsharp(&self) -> bool {
        use gcnsmt_semantics::buffer::VsharpLayout;
        let gcn = |t: Target| VsharpLayout::of(t) == VsharpLayout::Gcn;
        gcn(self.target) || self.to.is_some_and(|(t, _)| gcn(t))
    }

    /// The target column: `gfx900`, or `gfx1030->gfx1100` for a cross-target rule.
    pub fn target_label(&self) -> String {
        match self.to {
            Some((to, _)) => format!("{}->{}", self.target, to),
            None => self.target.name().to_string(),
        }
    }
}
