//! Build script: what the result cache key (`src/cache.rs`) needs to know about the build.
//!
//! - `GCNSMT_SOURCE_FINGERPRINT`: hex BLAKE3 of every file of `semantics/`, `lifter/` and
//!   `verifier/` a verdict can depend on (each crate's `Cargo.toml`, `build.rs`, `src/`, and
//!   the data `semantics/pcode/` and `lifter/data/`) plus the workspace `Cargo.lock`
//!   (dependency versions), so an edit to the Rust semantics or the checker invalidates
//!   cached verdicts. Tests, examples and docs are left out: they do not change a verdict.
//! - `$OUT_DIR/tables.rs`: `TABLES`, every file of `lifter/data/` (name, bytes) as compiled,
//!   so the key hashes the data tables themselves (a new table is picked up without a code
//!   change).
//!
//! `rerun-if-changed` on those directories: cargo rescans them on every build and reruns this
//! script when a file in them changes.

use std::path::{Path, PathBuf};

/// Files under `dir` (recursively), in path order; a missing directory has none.
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for e in entries {
        if e.is_dir() {
            files_under(&e, out);
        } else {
            out.push(e);
        }
    }
}

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let root = manifest
        .parent()
        .expect("verifier/ is inside the workspace")
        .to_path_buf();
    let mut inputs: Vec<PathBuf> = vec![root.join("Cargo.lock")];
    for krate in ["semantics", "lifter", "verifier"] {
        inputs.push(root.join(krate).join("Cargo.toml"));
        inputs.push(root.join(krate).join("build.rs"));
        inputs.push(root.join(krate).join("src"));
    }
    inputs.push(root.join("semantics/pcode"));
    inputs.push(root.join("lifter/data"));

    let mut files = Vec::new();
    for p in &inputs {
        // Only existing paths: cargo reruns a script on every build while a watched path is
        // missing.
        if p.exists() {
            println!("cargo:rerun-if-changed={}", p.display());
        }
        if p.is_dir() {
            files_under(p, &mut files);
        } else if p.is_file() {
            files.push(p.clone());
        }
    }
    let mut h = blake3::Hasher::new();
    for f in &files {
        // Length-prefixed path (relative, so the checkout's location does not matter) and bytes.
        let rel = f
            .strip_prefix(&root)
            .unwrap_or(f)
            .to_string_lossy()
            .replace('\\', "/");
        let bytes = std::fs::read(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        h.update(&(rel.len() as u64).to_le_bytes());
        h.update(rel.as_bytes());
        h.update(&(bytes.len() as u64).to_le_bytes());
        h.update(&bytes);
    }
    println!(
        "cargo:rustc-env=GCNSMT_SOURCE_FINGERPRINT={}",
        h.finalize().to_hex()
    );

    let mut tables = Vec::new();
    files_under(&root.join("lifter/data"), &mut tables);
    let mut text = String::from(
        "/// Every file of `lifter/data/` (file name, bytes), embedded at build time.\n\
         pub const TABLES: &[(&str, &[u8])] = &[\n",
    );
    for t in &tables {
        let name = t.strip_prefix(root.join("lifter/data")).unwrap_or(t);
        text.push_str(&format!(
            "    ({:?}, include_bytes!({:?})),\n",
            name.to_string_lossy(),
            t.display().to_string()
        ));
    }
    text.push_str("];\n");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo")).join("tables.rs");
    std::fs::write(&out, text).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
}
