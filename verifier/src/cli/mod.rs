//! The command implementations behind `gcnsmt` (kept out of `main.rs` so tests can call
//! them), one file per command; `spec-check` and `atomics` live with their checks
//! ([`crate::spec::report::main`], [`crate::wave::table::atomics`]).

mod audit;
mod bench;
mod coverage;
mod equiv;
mod lift;
mod merge;
mod shard_io;
mod vectors;
mod verify;
mod words;
mod words_input;

pub use bench::bench;
pub use coverage::coverage;
pub use equiv::{equiv, EquivArgs};
pub use lift::lift;
pub use merge::{merge, MergeFormat};
pub use vectors::{check as check_vectors, vectors, VectorsArgs};
pub use verify::{name_matches, verify, Format, VerifyArgs};
pub use words::{decode, encode};
// The runner's entry points, where callers found them before they left this module.
pub use crate::run::{run_rules, run_rules_cached, verify_rules};

use crate::exit::ExitStatus;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Print a usage error; the status is [`ExitStatus::InputError`].
pub fn usage_error(msg: &str) -> ExitStatus {
    eprintln!("error: {msg}");
    ExitStatus::InputError
}

/// Rule files under the given paths: files as given, directories searched for `*.rules`.
///
/// A directory is entered once per real path (a symbolic link cycle such as `sub/up -> ..`
/// does not repeat its files), and a file once per real path. In a directory, a `*.rules`
/// entry that is not a regular file (a FIFO, a device) is skipped with a warning on stderr,
/// since reading it could block forever; named on the command line it is read and reported.
/// Errors: a path that does not exist or cannot be looked at, or an unreadable directory.
pub fn rule_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    let mut seen: HashSet<PathBuf> = HashSet::new();
    for p in paths {
        let meta = std::fs::metadata(p).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound if std::fs::symlink_metadata(p).is_err() => {
                format!("{}: no such file or directory", p.display())
            }
            _ => format!("{}: {e}", p.display()),
        })?;
        if meta.is_dir() {
            walk(p, &mut out, &mut seen)?;
        } else if first_visit(p, &mut seen) {
            out.push(p.clone());
        }
    }
    Ok(out)
}

/// Whether `p`'s real path is seen for the first time (a path that cannot be resolved counts
/// as new, so its error is reported when it is read).
fn first_visit(p: &Path, seen: &mut HashSet<PathBuf>) -> bool {
    match std::fs::canonicalize(p) {
        Ok(real) => seen.insert(real),
        Err(_) => true,
    }
}

fn walk(p: &Path, out: &mut Vec<PathBuf>, seen: &mut HashSet<PathBuf>) -> Result<(), String> {
    if !first_visit(p, seen) {
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
        .map_err(|e| format!("{}: {e}", p.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for e in entries {
        if e.is_dir() {
            walk(&e, out, seen)?;
        } else if e.extension().is_some_and(|x| x == "rules") {
            match std::fs::metadata(&e) {
                Err(err) => eprintln!("warning: {}: skipped: {err}", e.display()),
                Ok(m) if !m.is_file() => eprintln!(
                    "warning: {}: skipped, not a regular file (FIFOs and devices are not read)",
                    e.display()
                ),
                Ok(_) => {
                    if first_visit(&e, seen) {
                        out.push(e);
                    }
                }
            }
        }
    }
    Ok(())
}
