//! A result cache: a proved, inapplicable or refuted verdict is stored under a hash of
//! everything it depends on, so an unchanged rule is not re-checked. The key covers the rule's
//! text (name, targets, settings, precondition, dead registers, instructions), the target, the
//! command-line setting overrides, and [`KeyInputs`]: every semantics file in use, every data
//! table of the lifter (`lifter/data/`), a fingerprint of the semantics, lifter and verifier
//! sources taken at build time, gcnsmt's version and z3's version.
//!
//! A refutation is stored as its counterexample's inputs and initial memory bytes (JSON), not
//! as a verdict: on a hit they are replayed on the concrete interpreter, precondition
//! included (the checker's `replay_stored`), and that replay, not the cache, is the evidence
//! for the refutation; if it does not show a difference (a damaged or foreign entry), the
//! entry counts as a miss and the rule is checked afresh. Unknowns (which depend on the time
//! limit and the machine's load) are never cached.
//!
//! Entry files (`<key>.verdict`): `proved` or `inapplicable` (one line), or a JSON object
//! `{"verdict":"refuted","inputs":{NAME:"0x...",...},"lds":[[ADDR,BYTE],...],"gds":[...],
//! "global":[[ADDR,BYTE],...],"scratch":[...]}` (one key per address space) with the input
//! names of the counterexample (`%a`, `%r[1]`, `m0`, `LDS_SIZE`, `LANE_ID`), then a line
//! `check HEX`: BLAKE3 of the key and that text. An entry whose check does not match (a
//! flipped byte, a truncation, an entry copied to another key) is a miss.

use crate::rules::Rule;
use gcnsmt_semantics::eval::{AddrSpace, PerSpace};
use gcnsmt_semantics::target::Target;
use std::path::{Path, PathBuf};

/// A cache directory.
#[derive(Clone, Debug)]
pub struct Cache {
    dir: PathBuf,
    /// Lookups only: [`Cache::put`] writes nothing (see [`Cache::open_read_only`]).
    read_only: bool,
}

/// What a cache entry holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cached {
    /// The rule was proved for this key.
    Proved,
    /// The rule's precondition cannot hold for this key.
    Inapplicable,
    /// A refutation: the counterexample to replay.
    Refuted(StoredCex),
}

/// A counterexample as stored: what a replay needs to rebuild it. Plain data, so the cache
/// does not depend on the checker (the checker makes one with `Cex::stored`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StoredCex {
    /// Input name (as printed: `%a`, `%r[1]`, `m0`, `LDS_SIZE`, `LANE_ID`) and value.
    pub inputs: Vec<(String, u128)>,
    /// Initial memory bytes the replay read (address, byte), per address space.
    pub mem: PerSpace<Vec<(u64, u8)>>,
}

impl StoredCex {
    fn to_json(&self) -> serde_json::Value {
        let pairs = |xs: Vec<(u64, u8)>| -> serde_json::Value {
            xs.into_iter()
                .map(|(a, b)| serde_json::json!([a, b]))
                .collect()
        };
        let mut v = serde_json::json!({
            "verdict": "refuted",
            "inputs": self
                .inputs
                .iter()
                .map(|(n, v)| (n.clone(), serde_json::Value::from(format!("{v:#x}"))))
                .collect::<serde_json::Map<_, _>>(),
        });
        for (space, bytes) in self.mem.iter() {
            v[space.key()] = pairs(bytes.clone());
        }
        v
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
        let mut mem = PerSpace::default();
        for space in AddrSpace::ALL {
            // A space without a key read no bytes (entries written before it was modelled).
            let bytes = match v.get(space.key()) {
                None => Vec::new(),
                Some(_) => pairs(space.key())?,
            };
            // An address wider than its space is no entry this build wrote.
            let fits = |a: u64| space.addr_width() == 64 || a >> space.addr_width() == 0;
            if !bytes.iter().all(|(a, _)| fits(*a)) {
                return None;
            }
            mem[space] = bytes;
        }
        Some(StoredCex { inputs, mem })
    }
}

/// Everything a verdict depends on besides the rule, its target and the setting overrides:
/// the part of every cache key that one build and one process share.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyInputs {
    /// gcnsmt's version (`CARGO_PKG_VERSION`).
    pub version: String,
    /// z3's version string, as the linked library reports it.
    pub solver: String,
    /// The semantics files in use (file name, text): the built-in `semantics/pcode/*.pcode`,
    /// or their replacements from `GCNSMT_PCODE_DIR`.
    pub pcode: Vec<(String, String)>,
    /// Every file of `lifter/data/` (file name, bytes) as compiled into this build: the DS and
    /// MUBUF opcode and shape tables and whatever table is added there.
    pub tables: Vec<(String, Vec<u8>)>,
    /// Hex BLAKE3 of the semantics, lifter and verifier sources and `Cargo.lock` at build time
    /// (`verifier/build.rs`): the Rust side of the semantics and of the checker.
    pub sources: String,
}

mod built {
    include!(concat!(env!("OUT_DIR"), "/tables.rs"));
}

impl KeyInputs {
    /// The inputs of this build and process.
    pub fn current() -> KeyInputs {
        KeyInputs {
            version: env!("CARGO_PKG_VERSION").to_string(),
            solver: crate::smt::solver_version().to_string(),
            pcode: gcnsmt_semantics::defs::Library::builtin().sources.clone(),
            tables: built::TABLES
                .iter()
                .map(|(n, b)| (n.to_string(), b.to_vec()))
                .collect(),
            sources: env!("GCNSMT_SOURCE_FINGERPRINT").to_string(),
        }
    }

    /// A hasher fed with every input, each length-prefixed under a section tag, so no two
    /// different inputs feed the same bytes.
    fn hasher(&self) -> blake3::Hasher {
        let mut h = blake3::Hasher::new();
        let mut field = |s: &[u8]| {
            h.update(&(s.len() as u64).to_le_bytes());
            h.update(s);
        };
        field(b"version");
        field(self.version.as_bytes());
        field(b"solver");
        field(self.solver.as_bytes());
        field(b"pcode");
        for (name, text) in &self.pcode {
            field(name.as_bytes());
            field(text.as_bytes());
        }
        field(b"tables");
        for (name, bytes) in &self.tables {
            field(name.as_bytes());
            field(bytes);
        }
        field(b"sources");
        field(self.sources.as_bytes());
        h
    }
}

/// The key of one rule x target: `h` (the shared inputs) fed with the rule's text, the target
/// and the overrides.
fn rule_key(
    mut h: blake3::Hasher,
    rule: &Rule,
    target: Target,
    overrides: &[(String, String)],
) -> String {
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
    // Registers are keyed apart from variables (`m0` here, `%m0` above).
    for (d, _) in &rule.dead_regs {
        field(&format!("reg {d}"));
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

impl Cache {
    /// Use (and create if needed) `dir`.
    ///
    /// Errors: the directory cannot be created.
    pub fn open(dir: &Path) -> std::io::Result<Cache> {
        std::fs::create_dir_all(dir)?;
        Ok(Cache {
            dir: dir.to_path_buf(),
            read_only: false,
        })
    }

    /// Use `dir` for lookups only (it may be on a read-only mount): nothing is stored, and the
    /// runner reports a check the cache does not hold as an error instead of checking it.
    ///
    /// Errors: `dir` is not an existing directory.
    pub fn open_read_only(dir: &Path) -> std::io::Result<Cache> {
        if !std::fs::metadata(dir)?.is_dir() {
            return Err(std::io::Error::other("not a directory"));
        }
        Ok(Cache {
            dir: dir.to_path_buf(),
            read_only: true,
        })
    }

    /// Whether this cache was opened with [`Cache::open_read_only`].
    pub fn read_only(&self) -> bool {
        self.read_only
    }

    /// The key of one rule x target under the given setting overrides (hex BLAKE3), with this
    /// build's and process's [`KeyInputs::current`].
    pub fn key(rule: &Rule, target: Target, overrides: &[(String, String)]) -> String {
        // What every key shares, hashed once per process.
        static COMMON: std::sync::OnceLock<blake3::Hasher> = std::sync::OnceLock::new();
        let h = COMMON.get_or_init(|| KeyInputs::current().hasher()).clone();
        rule_key(h, rule, target, overrides)
    }

    /// [`Cache::key`] under other key inputs (to show that each of them changes the key).
    pub fn key_with(
        inputs: &KeyInputs,
        rule: &Rule,
        target: Target,
        overrides: &[(String, String)],
    ) -> String {
        rule_key(inputs.hasher(), rule, target, overrides)
    }

    fn path(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.verdict"))
    }

    /// A stored verdict, if any: an unreadable entry, or one whose check line does not match
    /// its key and verdict (damaged, truncated, hand-edited, or of the old format), is none.
    /// Only regular files are read: an entry that is a FIFO would block the run forever.
    pub fn get(&self, key: &str) -> Option<Cached> {
        let text = crate::limits::read_text(&self.path(key)).ok()?;
        let (body, check) = text.strip_suffix('\n')?.rsplit_once("\ncheck ")?;
        if check != entry_check(key, body) {
            return None;
        }
        match body.trim() {
            "proved" => Some(Cached::Proved),
            "inapplicable" => Some(Cached::Inapplicable),
            text => {
                let v: serde_json::Value = serde_json::from_str(text).ok()?;
                StoredCex::from_json(&v).map(Cached::Refuted)
            }
        }
    }

    /// Store a verdict (best effort: a write failure only costs a re-check next time).
    ///
    /// Written to a file of its own (process id and a per-process counter: no two writers,
    /// threads or processes, share one) and renamed into place, so a reader sees a whole old
    /// or a whole new entry, never a mix.
    pub fn put(&self, key: &str, v: &Cached) {
        if self.read_only {
            return;
        }
        static SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let body = match v {
            Cached::Proved => "proved".to_string(),
            Cached::Inapplicable => "inapplicable".to_string(),
            Cached::Refuted(c) => c.to_json().to_string(),
        };
        let text = format!("{body}\ncheck {}\n", entry_check(key, &body));
        let n = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let tmp = self
            .dir
            .join(format!("{key}.tmp{}.{n}", std::process::id()));
        if std::fs::write(&tmp, text).is_ok() && std::fs::rename(&tmp, self.path(key)).is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
    }
}

/// The check line of an entry: BLAKE3 (hex) of the key and the verdict text. It detects damage
/// and entries moved between keys; it is not a signature (whoever can write the directory can
/// compute it), so the cache is trusted like the binary (README).
fn entry_check(key: &str, body: &str) -> String {
    let mut h = blake3::Hasher::new();
    h.update(b"gcnsmt cache entry\0");
    h.update(key.as_bytes());
    h.update(b"\0");
    h.update(body.as_bytes());
    h.finalize().to_hex().to_string()
}

#[cfg(test)]
mod tests {
    use super::{Cache, Cached, KeyInputs};
    use crate::rules::parse_rules;
    use gcnsmt_semantics::target::Target;
    use std::path::Path;

    fn rule() -> crate::rules::Rule {
        let text =
            "Name: dse\n  ds_write_b32 %a, %v\n  ds_write_b32 %a, %w\n=>\n  ds_write_b32 %a, %w\n";
        parse_rules("k.rules", text).unwrap().remove(0)
    }

    /// Names of the files in a directory of the checkout (read here, not from the build).
    fn listing(dir: &str, ext: Option<&str>) -> Vec<String> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(dir);
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                p.is_file() && (ext.is_none() || p.extension().and_then(|e| e.to_str()) == ext)
            })
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn inputs_cover_every_table_and_pcode_file() {
        let k = KeyInputs::current();
        let mut tables: Vec<String> = k.tables.iter().map(|(n, _)| n.clone()).collect();
        tables.sort();
        let on_disk = listing("lifter/data", None);
        for t in [
            "ds_shapes.tsv",
            "mubuf_opcodes_by_target.csv",
            "mubuf_shapes.tsv",
        ] {
            assert!(on_disk.iter().any(|n| n == t), "{t} in lifter/data");
        }
        assert_eq!(tables, on_disk);
        for (name, bytes) in &k.tables {
            let disk = std::fs::read(
                Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("../lifter/data")
                    .join(name),
            )
            .unwrap();
            assert!(
                *bytes == disk,
                "{name}: the build's copy differs from the file"
            );
        }
        let mut pcode: Vec<String> = k.pcode.iter().map(|(n, _)| n.clone()).collect();
        pcode.sort();
        assert_eq!(pcode, listing("semantics/pcode", Some("pcode")));
        // 256 bits of BLAKE3 in hex.
        assert_eq!(k.sources.len(), 64);
        assert!(k.sources.bytes().all(|b| b.is_ascii_hexdigit()));
    }

    #[test]
    fn a_flipped_byte_a_truncation_or_a_moved_entry_is_a_miss() {
        let r = rule();
        let k = Cache::key(&r, Target::Gfx900, &[]);
        let other = Cache::key(&r, Target::Gfx802, &[]);
        let dir = std::env::temp_dir().join(format!("gcnsmt-cache-check-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let cache = Cache::open(&dir).unwrap();
        let path = dir.join(format!("{k}.verdict"));
        for v in [Cached::Proved, Cached::Inapplicable] {
            cache.put(&k, &v);
            assert_eq!(cache.get(&k), Some(v.clone()));
            let good = std::fs::read(&path).unwrap();
            for i in 0..good.len() {
                let mut bad = good.clone();
                bad[i] ^= 0x01;
                std::fs::write(&path, &bad).unwrap();
                assert_eq!(cache.get(&k), None, "byte {i} flipped");
            }
            for n in 0..good.len() {
                std::fs::write(&path, &good[..n]).unwrap();
                assert_eq!(cache.get(&k), None, "truncated to {n} bytes");
            }
            // A whole entry copied under another key (another target's verdict).
            std::fs::write(dir.join(format!("{other}.verdict")), &good).unwrap();
            assert_eq!(cache.get(&other), None);
        }
        // The old format, or `proved` written by hand into an entry, is no hit.
        std::fs::write(&path, "proved\n").unwrap();
        assert_eq!(cache.get(&k), None);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn changing_any_input_changes_the_key_and_misses_the_cache() {
        let r = rule();
        let base = KeyInputs::current();
        let key = |k: &KeyInputs| Cache::key_with(k, &r, Target::Gfx900, &[]);
        assert_eq!(key(&base), Cache::key(&r, Target::Gfx900, &[]));
        let flip = |bytes: &mut Vec<u8>, i: usize| bytes[i] ^= 1;
        let mut changed: Vec<(String, KeyInputs)> = Vec::new();
        for (i, (name, bytes)) in base.tables.iter().enumerate() {
            // A byte in the middle of every table (MUBUF shapes included, which the old key
            // did not cover).
            let mut k = base.clone();
            flip(&mut k.tables[i].1, bytes.len() / 2);
            changed.push((format!("table {name}"), k));
        }
        for (i, (name, text)) in base.pcode.iter().enumerate() {
            let mut k = base.clone();
            let mut b = text.clone().into_bytes();
            let j = b.iter().rposition(|c| c.is_ascii_alphabetic()).unwrap();
            b[j] ^= 0x20; // flips the letter's case
            k.pcode[i].1 = String::from_utf8(b).unwrap();
            changed.push((format!("pcode {name}"), k));
        }
        let mut k = base.clone();
        let mut f = k.sources.clone().into_bytes();
        f[0] = if f[0] == b'0' { b'1' } else { b'0' };
        k.sources = String::from_utf8(f).unwrap();
        changed.push(("source fingerprint".into(), k));
        let mut k = base.clone();
        k.solver.push('x');
        changed.push(("solver".into(), k));
        let mut k = base.clone();
        k.version.push('x');
        changed.push(("version".into(), k));

        let dir = std::env::temp_dir().join(format!("gcnsmt-cache-key-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let cache = Cache::open(&dir).unwrap();
        cache.put(&key(&base), &Cached::Proved);
        assert_eq!(cache.get(&key(&base)), Some(Cached::Proved));
        for (what, k) in &changed {
            assert_ne!(key(k), key(&base), "{what} is not in the key");
            assert_eq!(cache.get(&key(k)), None, "{what}: a stale hit");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
