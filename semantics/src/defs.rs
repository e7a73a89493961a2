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
    ("alu.pcode", include_str!("../pcode/alu.pcode")),
];

/// Parsed entries by upper-case name.
pub struct Library {
    pub defs: Vec<(String, Def)>,
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
        Ok(Library { defs, index })
    }

    /// The library built into gcnsmt (parsed on first use).
    ///
    /// Panics only if the shipped files do not parse, which a unit test rules out.
    pub fn builtin() -> &'static Library {
        static LIB: OnceLock<Library> = OnceLock::new();
        LIB.get_or_init(|| Library::from_files(FILES).expect("built-in semantics parse"))
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
