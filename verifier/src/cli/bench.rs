//! `gcnsmt bench`: read the rule files, then time them ([`crate::bench`]).

use super::{rule_files, usage_error};
use crate::exit::ExitStatus;
use crate::rules::parse_rules;
use std::path::PathBuf;

/// `gcnsmt bench`.
pub fn bench(paths: &[PathBuf], timeout: f64) -> ExitStatus {
    let timeout = match crate::limits::timeout(timeout) {
        Ok(t) => t,
        Err(e) => return usage_error(&e),
    };
    let files = match rule_files(paths) {
        Ok(f) => f,
        Err(e) => return usage_error(&e),
    };
    let mut rules = Vec::new();
    for f in files {
        let name = f.display().to_string();
        match std::fs::read_to_string(&f)
            .map_err(|e| e.to_string())
            .and_then(|t| parse_rules(&name, &t).map_err(|e| e.to_string()))
        {
            Ok(r) => rules.extend(r),
            Err(e) => return usage_error(&e),
        }
    }
    crate::bench::bench(&rules, timeout)
}
