//! A result cache: a proved or inapplicable verdict is stored under a hash of everything it
//! depends on, so an unchanged rule is not re-proved. The key covers the rule's text (name,
//! targets, settings, precondition, dead registers, instructions), the target, the command-line
//! setting overrides, every semantics file, the lifter's opcode data, gcnsmt's version and z3's
//! version. Refutations (cheap to find, and their counterexamples are printed) and unknowns
//! (which depend on the time limit) are never cached.

use crate::rules::Rule;
use gcnsmt_semantics::target::Target;
use std::path::{Path, PathBuf};

/// A cache directory.
#[derive(Clone, Debug)]
pub struct Cache {
    dir: PathBuf,
}

/// What a cache entry holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cached {
    Proved,
    Inapplicable,
}

impl Cache {
    /// Use (and create if needed) `dir`.
    ///
    /// Errors: the directory cannot be created.
    pub fn open(dir: &Path) -> std::io::Result<Cache> {
        std::fs::create_dir_all(dir)?;
        Ok(Cache {
            dir: dir.to_path_buf(),
        })
    }

    /// The key of one rule x target under the given setting overrides (hex BLAKE3).
    pub fn key(rule: &Rule, target: Target, overrides: &[(String, String)]) -> String {
        let mut h = blake3::Hasher::new();
        let mut field = |s: &str| {
            h.update(&(s.len() as u64).to_le_bytes());
            h.update(s.as_bytes());
        };
        field(env!("CARGO_PKG_VERSION"));
        field(crate::smt::solver_version());
        // The semantics actually in use (GCNSMT_PCODE_DIR may replace built-in files).
        for (name, text) in &gcnsmt_semantics::defs::Library::builtin().sources {
            field(name);
            field(text);
        }
        // The DS opcode and shape tables (data files compiled into the lifter).
        for t in Target::ALL {
            for m in gcnsmt_lifter::ds_mnemonics(t) {
                if let Some((op, shape)) = gcnsmt_lifter::ds_lookup(t, m) {
                    field(&format!("{t} {m} {op} {shape:?}"));
                }
            }
        }
        field(&rule.name);
        field(target.name());
        if let Some((ts, _)) = &rule.targets {
            field(&ts.iter().map(|t| t.name()).collect::<Vec<_>>().join(","));
        }
        for (n, v, _) in &rule.settings {
            field(&format!("{n}={v}"));
        }
        for (n, v) in overrides {
            field(&format!("--set {n}={v}"));
        }
        field(rule.pre.as_ref().map_or("", |p| p.text.as_str()));
        for (d, _) in &rule.dead {
            field(d);
        }
        for l in &rule.source {
            field(l.text.trim());
        }
        field("=>");
        for l in &rule.target {
            field(l.text.trim());
        }
        h.finalize().to_hex().to_string()
    }

    fn path(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.verdict"))
    }

    /// A stored verdict, if any.
    pub fn get(&self, key: &str) -> Option<Cached> {
        match std::fs::read_to_string(self.path(key)).ok()?.trim() {
            "proved" => Some(Cached::Proved),
            "inapplicable" => Some(Cached::Inapplicable),
            _ => None,
        }
    }

    /// Store a verdict (best effort: a write failure only costs a re-proof next time).
    pub fn put(&self, key: &str, v: Cached) {
        let text = match v {
            Cached::Proved => "proved\n",
            Cached::Inapplicable => "inapplicable\n",
        };
        let tmp = self.dir.join(format!("{key}.tmp{}", std::process::id()));
        if std::fs::write(&tmp, text).is_ok() {
            let _ = std::fs::rename(&tmp, self.path(key));
        }
    }
}
