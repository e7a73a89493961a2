//! A result cache: a proved, inapplicable or refuted verdict is stored under a hash of
//! everything it depends on, so an unchanged rule is not re-checked. The key covers the rule's
//! text (name, targets, settings, precondition, dead registers, instructions), the target, the
//! command-line setting overrides, every semantics file, the lifter's opcode data, gcnsmt's
//! version and z3's version.
//!
//! A refutation is stored as its counterexample's inputs and initial memory bytes (JSON), not
//! as a verdict: on a hit they are replayed on the concrete interpreter, precondition
//! included ([`crate::check::replay_stored`]), and that replay, not the cache, is the evidence
//! for the refutation; if it does not show a difference (a damaged or foreign entry), the
//! entry counts as a miss and the rule is checked afresh. Unknowns (which depend on the time
//! limit and the machine's load) are never cached.
//!
//! Entry files (`<key>.verdict`): `proved` or `inapplicable` (one line), or a JSON object
//! `{"verdict":"refuted","inputs":{NAME:"0x...",...},"lds":[[ADDR,BYTE],...],"gds":[...],
//! "global":[[ADDR,BYTE],...]}` with the input names of the counterexample (`%a`, `%r[1]`,
//! `m0`, `LDS_SIZE`, `LANE_ID`).

use crate::rules::Rule;
use gcnsmt_semantics::target::Target;
use std::path::{Path, PathBuf};

/// A cache directory.
#[derive(Clone, Debug)]
pub struct Cache {
    dir: PathBuf,
}

/// What a cache entry holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cached {
    Proved,
    Inapplicable,
    /// A refutation: the counterexample to replay.
    Refuted(StoredCex),
}

/// A counterexample as stored: what a replay needs to rebuild it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StoredCex {
    /// Input name (as printed: `%a`, `%r[1]`, `m0`, `LDS_SIZE`, `LANE_ID`) and value.
    pub inputs: Vec<(String, u128)>,
    /// Initial LDS, GDS and global-memory bytes the replay read (address, byte).
    pub lds: Vec<(u32, u8)>,
    pub gds: Vec<(u32, u8)>,
    pub global: Vec<(u64, u8)>,
}

impl StoredCex {
    fn to_json(&self) -> serde_json::Value {
        let pairs = |xs: Vec<(u64, u8)>| -> serde_json::Value {
            xs.into_iter()
                .map(|(a, b)| serde_json::json!([a, b]))
                .collect()
        };
        serde_json::json!({
            "verdict": "refuted",
            "inputs": self
                .inputs
                .iter()
                .map(|(n, v)| (n.clone(), serde_json::Value::from(format!("{v:#x}"))))
                .collect::<serde_json::Map<_, _>>(),
            "lds": pairs(self.lds.iter().map(|(a, b)| (*a as u64, *b)).collect()),
            "gds": pairs(self.gds.iter().map(|(a, b)| (*a as u64, *b)).collect()),
            "global": pairs(self.global.clone()),
        })
    }

    /// The stored form back; `None` if it is not one (the entry is then a miss).
    fn from_json(v: &serde_json::Value) -> Option<StoredCex> {
        if v.get("verdict")?.as_str()? != "refuted" {
            return None;
        }
        let inputs = v
            .get("inputs")?
            .as_object()?
            .iter()
            .map(|(n, x)| {
                let hex = x.as_str()?.strip_prefix("0x")?;
                Some((n.clone(), u128::from_str_radix(hex, 16).ok()?))
            })
            .collect::<Option<Vec<_>>>()?;
        let pairs = |key: &str| -> Option<Vec<(u64, u8)>> {
            v.get(key)?
                .as_array()?
                .iter()
                .map(|p| {
                    let p = p.as_array()?;
                    match p.as_slice() {
                        [a, b] => Some((a.as_u64()?, u8::try_from(b.as_u64()?).ok()?)),
                        _ => None,
                    }
                })
                .collect()
        };
        let narrow = |xs: Vec<(u64, u8)>| -> Option<Vec<(u32, u8)>> {
            xs.into_iter()
                .map(|(a, b)| Some((u32::try_from(a).ok()?, b)))
                .collect()
        };
        Some(StoredCex {
            inputs,
            lds: narrow(pairs("lds")?)?,
            gds: narrow(pairs("gds")?)?,
            global: pairs("global")?,
        })
    }
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
        // What every key shares (versions, semantics, opcode tables), hashed once per process.
        static COMMON: std::sync::OnceLock<blake3::Hasher> = std::sync::OnceLock::new();
        let mut h = COMMON
            .get_or_init(|| {
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
                h
            })
            .clone();
        let mut field = |s: &str| {
            h.update(&(s.len() as u64).to_le_bytes());
            h.update(s.as_bytes());
        };
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

    /// A stored verdict, if any (an unreadable entry is none).
    pub fn get(&self, key: &str) -> Option<Cached> {
        match std::fs::read_to_string(self.path(key)).ok()?.trim() {
            "proved" => Some(Cached::Proved),
            "inapplicable" => Some(Cached::Inapplicable),
            text => {
                let v: serde_json::Value = serde_json::from_str(text).ok()?;
                StoredCex::from_json(&v).map(Cached::Refuted)
            }
        }
    }

    /// Store a verdict (best effort: a write failure only costs a re-check next time).
    pub fn put(&self, key: &str, v: &Cached) {
        let text = match v {
            Cached::Proved => "proved\n".to_string(),
            Cached::Inapplicable => "inapplicable\n".to_string(),
            Cached::Refuted(c) => format!("{}\n", c.to_json()),
        };
        let tmp = self.dir.join(format!("{key}.tmp{}", std::process::id()));
        if std::fs::write(&tmp, text).is_ok() {
            let _ = std::fs::rename(&tmp, self.path(key));
        }
    }
}
