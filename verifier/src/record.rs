//! What a verify run yields, for every writer (text, matrix, JSON Lines, SARIF, bench): one
//! [`Record`] per rule x target verdict or rule input error, and the [`Summary`] counts.
//! Kept apart from the command line so output writers do not depend on it.

use crate::check::{Outcome, Verdict};
use crate::exit::ExitStatus;
use crate::rules::{Expect, InputError};

/// One line of a run's result: a verdict on a rule x target, or a rule's input error.
#[derive(Clone, Debug)]
pub enum Record {
    /// A verdict on one rule and target.
    Verdict {
        /// The check's result.
        outcome: Outcome,
        /// The line of the rule's `Name:`.
        line: u32,
    },
    /// An input error in a rule (for one of its targets): the rule gets no verdict there.
    Error {
        /// The rule's `Name:`.
        rule: String,
        /// The error, with file:line:col.
        error: InputError,
        /// The rule says `Expect: error`.
        expected: bool,
    },
}

/// Counts of one run.
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    /// Rules x targets proved.
    pub proved: usize,
    /// Rules x targets refuted, expected or not.
    pub refuted: usize,
    /// Of `refuted`, those whose rule says `Expect: refuted`.
    pub refuted_expected: usize,
    /// Rules x targets the solver could not decide (time limit, memory limit, gave up).
    pub unknown: usize,
    /// Rules x targets whose precondition cannot hold.
    pub inapplicable: usize,
    /// Input errors in rules that do not expect them, plus internal errors (`Verdict::Error`).
    pub errors: usize,
    /// Input errors in rules that expect them (`Expect: error`).
    pub errors_expected: usize,
    /// Verdicts that contradict the rule's `Expect:` (unknown verdicts excluded).
    pub mismatches: usize,
}

impl Summary {
    /// The run's status: errors, else refuted-unexpectedly or mismatch, else unknown.
    pub fn exit_code(&self) -> ExitStatus {
        if self.errors > 0 {
            ExitStatus::InputError
        } else if self.mismatches > 0 || self.refuted > self.refuted_expected {
            ExitStatus::Refuted
        } else if self.unknown > 0 {
            ExitStatus::Inconclusive
        } else {
            ExitStatus::Proved
        }
    }

    /// Count a run's records.
    pub fn of(records: &[Record]) -> Summary {
        let mut s = Summary::default();
        for r in records {
            match r {
                Record::Error { expected: true, .. } => s.errors_expected += 1,
                Record::Error {
                    expected: false, ..
                } => s.errors += 1,
                Record::Verdict { outcome: o, .. } => {
                    match &o.verdict {
                        Verdict::Proved => s.proved += 1,
                        Verdict::Refuted(_) => {
                            s.refuted += 1;
                            if o.expect == Some(Expect::Refuted) {
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
}
