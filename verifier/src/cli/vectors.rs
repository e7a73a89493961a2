//! `gcnsmt vectors` (test vectors for emulators) and `gcnsmt vectors --check FILE` (run a
//! vector file on the current semantics).

use super::usage_error;
use crate::check::Options;
use crate::exit::ExitStatus;
use crate::vectors::{emit, generate, recheck};
use gcnsmt_semantics::target::Target;
use std::path::Path;
use std::time::Duration;

/// The options of `gcnsmt vectors` (without `--check`).
pub struct VectorsArgs {
    /// Only these mnemonics (all when empty).
    pub only: Vec<String>,
    /// At most this many vectors per line and settings variant.
    pub n: usize,
    /// `--format tinygrad-py`.
    pub python: bool,
    /// Per solver query, seconds.
    pub timeout: f64,
    /// `--defaults-only`: no settings variants.
    pub defaults_only: bool,
}

/// `gcnsmt vectors --target T [INSTR...] [-n N] [--format json|tinygrad-py]`: print the
/// vectors. Exit 0; 2 for an unknown instruction.
pub fn vectors(target: Target, a: &VectorsArgs) -> ExitStatus {
    let (only, n, python, timeout) = (&a.only, a.n, a.python, a.timeout);
    let opts = Options {
        timeout: Duration::from_secs_f64(timeout),
        ..Options::default()
    };
    let vs = match generate(target, only, n, !a.defaults_only, &opts) {
        Ok(v) => v,
        Err(e) => return usage_error(&e),
    };
    if python {
        print!("{}", emit::to_python(&vs));
    } else {
        println!(
            "{}",
            serde_json::to_string_pretty(&emit::to_json(&vs)).unwrap_or_default()
        );
    }
    eprintln!(
        "{} vectors for {} instructions on {target}; {} opcodes skipped; {} edges unreachable, {} undecided",
        vs.vectors.len(),
        vs.vectors.iter().map(|v| &v.mnemonic).collect::<std::collections::BTreeSet<_>>().len(),
        vs.skipped.len(),
        vs.unreachable,
        vs.unknown
    );
    ExitStatus::Proved
}

/// `gcnsmt vectors --check FILE [INSTR...]`: exit 0 when every (selected) vector gives its
/// expected values, 1 when one does not (each printed), 2 for an unreadable file.
pub fn check(path: &Path, only: &[String]) -> ExitStatus {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => return usage_error(&format!("{}: {e}", path.display())),
    };
    match recheck::check_text(&text, only) {
        Err(e) => {
            eprintln!("{}:1:1: error: {e}", path.display());
            ExitStatus::InputError
        }
        Ok((n, bad)) => {
            for b in &bad {
                println!("{b}");
            }
            println!("{n} vectors checked, {} differ", bad.len());
            if bad.is_empty() {
                ExitStatus::Proved
            } else {
                ExitStatus::Refuted
            }
        }
    }
}
