//! `gcnsmt bench`: read the rule files, then time them ([`crate::bench`]); or run the
//! generated families ([`crate::bench::goals`]).

use super::{rule_files, usage_error};
use crate::exit::ExitStatus;
use crate::rules::parse_rules;
use std::path::{Path, PathBuf};

/// `gcnsmt bench`.
/// `plots`: write the growth curves there instead of timing the corpus four ways;
/// `families`: run the generated memory-encoding families instead of rule files.
pub fn bench(
    paths: &[PathBuf],
    timeout: f64,
    plots: Option<&Path>,
    families: Option<&str>,
) -> ExitStatus {
    let timeout = match crate::limits::timeout(timeout) {
        Ok(t) => t,
        Err(e) => return usage_error(&format!("--timeout: {e}")),
    };
    if let Some(select) = families {
        return crate::bench::goals::bench(select, timeout);
    }
    let files = match rule_files(paths) {
        Ok(f) => f,
        Err(e) => return usage_error(&e),
    };
    let mut rules = Vec::new();
    for f in files {
        let name = f.display().to_string();
        match crate::limits::read_text(&f)
            .map_err(|e| format!("{name}:{}:{}: error: {}", e.line, e.col, e.msg))
            .and_then(|t| parse_rules(&name, &t).map_err(|e| e.to_string()))
        {
            Ok(r) => rules.extend(r),
            Err(e) => return usage_error(&e),
        }
    }
    if rules.is_empty() {
        // As `verify`: nothing to time is an input error, not a benchmark of nothing.
        return usage_error(
            "no rules found (rule files end in .rules; each rule starts with `Name:`)",
        );
    }
    match plots {
        Some(dir) => crate::bench::growth_plots(&rules, timeout, dir),
        None => crate::bench::bench(&rules, timeout),
    }
}
