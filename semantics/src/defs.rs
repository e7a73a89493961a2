//! The built-in semantics library: every `semantics/pcode/*.pcode` file, parsed once.

use crate::ir::Def;
use crate::parse::parse_file;
use crate::ParseError;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The semantics files compiled into the binary: (file name, text).
pub const FILES: &[(&str, &str)] = &[
    (
        "ds_atomic32.pcode",
        include_str!("../pcode/ds_atomic32.pcode"),
    ),
    (
        "ds_atomic64.pcode",
        include_str!("../pcode/ds_atomic64.pcode"),
    ),
    ("ds_float.pcode", include_str!("../pcode/ds_float.pcode")),
    ("ds_load.pcode", include_str!("../pcode/ds_load.pcode")),
    ("ds_store.pcode", include_str!("../pcode/ds_store.pcode")),
    ("ds_2addr.pcode", include_str!("../pcode/ds_2addr.pcode")),
    ("ds_misc.pcode", include_str!("../pcode/ds_misc.pcode")),
    ("ds_wave.pcode", include_str!("../pcode/ds_wave.pcode")),
    ("ds_bvh.pcode", include_str!("../pcode/ds_bvh.pcode")),
    (
        "ds_barrier.pcode",
        include_str!("../pcode/ds_barrier.pcode"),
    ),
    ("alu.pcode", include_str!("../pcode/alu.pcode")),
    ("dpp.pcode", include_str!("../pcode/dpp.pcode")),
    ("global.pcode", include_str!("../pcode/global.pcode")),
    ("smem.pcode", include_str!("../pcode/smem.pcode")),
    ("flat.pcode", include_str!("../pcode/flat.pcode")),
    (
        "buffer_load.pcode",
        include_str!("../pcode/buffer_load.pcode"),
    ),
    (
        "buffer_store.pcode",
        include_str!("../pcode/buffer_store.pcode"),
    ),
    (
        "buffer_atomic.pcode",
        include_str!("../pcode/buffer_atomic.pcode"),
    ),
    (
        "buffer_format.pcode",
        include_str!("../pcode/buffer_format.pcode"),
    ),
    (
        "buffer_cache.pcode",
        include_str!("../pcode/buffer_cache.pcode"),
    ),
];

/// The environment variable naming a directory of replacement `*.pcode` files (see
/// [`Library::builtin`]). Unset in normal use.
pub const PCODE_DIR_VAR: &str = "GCNSMT_PCODE_DIR";

/// Parsed entries by upper-case name.
pub struct Library {
    /// Every entry with the name of the `.pcode` file it came from (`ds_atomic32.pcode`), in file order;
    /// look a mnemonic up with [`Library::get`].
    pub defs: Vec<(String, Def)>,
    /// The file texts the library was parsed from (name, text), e.g. for cache keys.
    pub sources: Vec<(String, String)>,
    index: HashMap<String, usize>,
}

impl Library {
    /// Parse a set of files. Errors name the file: `file:line:col: message`; a name defined
    /// twice is an error.
    pub fn from_files(files: &[(&str, &str)]) -> Result<Library, String> {
        let mut defs = Vec::new();
        let mut index = HashMap::new();
        for (file, text) in files {
            let parsed = parse_file(text).map_err(|e: ParseError| format!("{file}:{e}"))?;
            for d in parsed {
                for n in &d.names {
                    if index.insert(n.name.clone(), defs.len()).is_some() {
                        return Err(format!(
                            "{file}:{}:{}: `{}` is defined twice",
                            d.pos.line, d.pos.col, n.name
                        ));
                    }
                }
                defs.push((file.to_string(), d));
            }
        }
        Ok(Library {
            defs,
            sources: files
                .iter()
                .map(|(n, t)| (n.to_string(), t.to_string()))
                .collect(),
            index,
        })
    }

    /// The library built into gcnsmt (parsed on first use). When the environment variable
    /// [`PCODE_DIR_VAR`] names a directory, each of its files named like a built-in file
    /// replaces that file: semantic mutation testing (`scripts/mutate.py`) runs mutants without
    /// rebuilding, and without touching the working tree.
    ///
    /// Panics if the shipped files do not parse (a unit test rules that out) or if the
    /// replacement files do not.
    pub fn builtin() -> &'static Library {
        static LIB: OnceLock<Library> = OnceLock::new();
        LIB.get_or_init(|| match std::env::var_os(PCODE_DIR_VAR) {
            None => Library::from_files(FILES).expect("built-in semantics parse"),
            Some(dir) => {
                let dir = std::path::PathBuf::from(dir);
                let texts: Vec<(&str, String)> = FILES
                    .iter()
                    .map(|(name, text)| {
                        let own = std::fs::read_to_string(dir.join(name));
                        (*name, own.unwrap_or_else(|_| text.to_string()))
                    })
                    .collect();
                let files: Vec<(&str, &str)> =
                    texts.iter().map(|(n, t)| (*n, t.as_str())).collect();
                Library::from_files(&files)
                    .unwrap_or_else(|e| panic!("{PCODE_DIR_VAR}={}: {e}", dir.display()))
            }
        })
    }

    /// The entry covering `name` (upper case, e.g. `DS_ADD_RTN_U32`).
    pub fn get(&self, name: &str) -> Option<&Def> {
        self.index.get(name).map(|i| &self.defs[*i].1)
    }

    /// The file an entry came from.
    pub fn file_of(&self, name: &str) -> Option<&str> {
        self.index.get(name).map(|i| self.defs[*i].0.as_str())
    }
}
