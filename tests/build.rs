//! Generates one test per rule in `proofs/*.rules`, named after the rule (dashes become
//! underscores), so that `cargo test -p gcnsmt-tests <rule>` runs one rule.

use std::fmt::Write;
use std::path::Path;

fn main() {
    // Read at run time, not with env!: a build-script binary compiled in another checkout
    // (a copied target/ directory) must still read this checkout's proofs/.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let proofs = Path::new(&manifest).join("../proofs");
    println!("cargo:rerun-if-changed={}", proofs.display());
    let mut files: Vec<_> = std::fs::read_dir(&proofs)
        .expect("proofs/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "rules"))
        .collect();
    files.sort();
    let mut out = String::new();
    for f in files {
        println!("cargo:rerun-if-changed={}", f.display());
        let text = std::fs::read_to_string(&f).expect("readable rule file");
        let file_name = f.file_name().unwrap().to_string_lossy().to_string();
        for line in text.lines() {
            let Some(name) = line.trim().strip_prefix("Name:") else {
                continue;
            };
            let name = name.trim();
            let ident: String = name
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() {
                        c.to_ascii_lowercase()
                    } else {
                        '_'
                    }
                })
                .collect();
            let _ = writeln!(
                out,
                "#[test]\nfn {ident}() {{\n    crate::run_rule({file_name:?}, {name:?});\n}}\n"
            );
        }
    }
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("rule_tests.rs");
    std::fs::write(dest, out).unwrap();
}
