//! `gcnsmt vectors` (test vectors for emulators) and `gcnsmt vectors --check FILE` (run a
//! vector file on the current semantics).

use super::usage_error;
use crate::check::Options;
use crate::exit::ExitStatus;
use crate::vectors::{emit, generate, recheck};
use gcnsmt_semantics::target::Target;
use std::path::Path;

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
    let (only, n, python) = (&a.only, a.n, a.python);
    let timeout = match crate::limits::timeout(a.timeout) {
        Ok(t) => t,
        Err(e) => return usage_error(&format!("--timeout: {e}")),
    };
    if n == 0 {
        return usage_error("-n: at least 1 vector per line");
    }
    let opts = Options {
        timeout,
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
    let text = match crate::limits::read_text(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{}:{}:{}: error: {}", path.display(), e.line, e.col, e.msg);
            return ExitStatus::InputError;
        }
    };
    match recheck::check_text(&text, only) {
        Err((line, col, e)) => {
            eprintln!("{}:{line}:{col}: error: {e}", path.display());
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
