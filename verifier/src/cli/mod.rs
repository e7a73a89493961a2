//! The command implementations behind `gcnsmt` (kept out of `main.rs` so tests can call
//! them), one file per command; `spec-check` and `atomics` live with their checks
//! ([`crate::spec::report::main`], [`crate::wave::table::atomics`]).

mod bench;
mod lift;
mod verify;
mod words;

pub use bench::bench;
pub use lift::lift;
pub use verify::{name_matches, verify, Format, VerifyArgs};
pub use words::{decode, encode};
// The runner's entry points, where callers found them before they left this module.
pub use crate::run::{run_rules, run_rules_cached, verify_rules};

use crate::exit::ExitStatus;
use std::path::{Path, PathBuf};

/// Print a usage error; the status is [`ExitStatus::InputError`].
pub fn usage_error(msg: &str) -> ExitStatus {
    eprintln!("error: {msg}");
    ExitStatus::InputError
}

/// Rule files under the given paths: files as given, directories searched for `*.rules`.
pub fn rule_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    fn walk(p: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
            .map_err(|e| format!("{}: {e}", p.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for e in entries {
            if e.is_dir() {
                walk(&e, out)?;
            } else if e.extension().is_some_and(|x| x == "rules") {
                out.push(e);
            }
        }
        Ok(())
    }
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out)?;
        } else if p.exists() {
            out.push(p.clone());
        } else {
            return Err(format!("{}: no such file or directory", p.display()));
        }
    }
    Ok(out)
}
