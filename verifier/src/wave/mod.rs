//! Wavefront atomics: what happens when every active lane of a wave runs one DS or buffer
//! (MUBUF/VBUFFER) atomic on one address, and whether LLVM's AMDGPUAtomicOptimizer rewrite
//! (reduce, one atomic, rebuild each lane's return from a scan) is correct for every
//! serialization order, EXEC mask and input, on wave32 and wave64.
//!
//! The ops and the optimizer's treatment of each are in [`ops`]; one lane's memory function is
//! its semantics entry run at one address ([`lanes`]). Verdicts for any lane count come from
//! lemmas about that function, decided by z3 on the same `semantics/pcode/` entries the
//! verifier uses ([`lemmas`]), and from running the optimizer's schedules on lane sets
//! ([`optimizer`]). Refutations carry a concrete lane count, EXEC mask, data and memory value,
//! replayed on the interpreter ([`concrete`]); every verdict is cross-checked by brute force
//! over all orders of up to four lanes ([`brute`]).

pub mod analyze;
pub mod brute;
pub mod concrete;
pub mod expect;
pub mod lanes;
pub mod lemmas;
pub mod ops;
pub mod optimizer;
pub mod props;
pub mod row;
pub mod table;

/// A concrete counterexample: a wave, its EXEC mask, each active lane's data and the memory
/// value, with what goes wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Witness {
    /// The wave size: 32 or 64 lanes.
    pub lanes: u32,
    /// The EXEC mask: bit `i` set when lane `i` is active (only the low `lanes` bits used).
    pub exec: u64,
    /// `(lane, data0, data1)` for the active lanes.
    pub data: Vec<(usize, u128, u128)>,
    /// The memory value at the shared address before the wave runs (the op's width in bits).
    pub mem: u128,
    /// What goes wrong, in words with the values (the orders compared and what each leaves or
    /// returns).
    pub detail: String,
}

/// The answer to one question about one op.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Holds for every order, EXEC mask and input, with the reason.
    Proved(String),
    /// False: a concrete wave shows it, replayed on the interpreter.
    Refuted(Witness),
    /// Not decided (z3 gave up or hit the time limit), with the reason.
    Unknown(String),
    /// The question does not arise (the optimizer leaves the op alone), with the reason.
    NotApplicable(String),
}

impl Verdict {
    /// The short word printed in the table.
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::Proved(_) => "proved",
            Verdict::Refuted(_) => "refuted",
            Verdict::Unknown(_) => "unknown",
            Verdict::NotApplicable(_) => "n/a",
        }
    }
}
