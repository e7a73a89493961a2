//! Markdown reference pages (`spec/refpage_md.rs`): the pages of `tests/data/spec/md/` were
//! written by hand from llvm-mc-22's encodings and LLVM 22's opcode tables (ORIGIN.md there);
//! each faulty page differs from the clean one in one line, and the test names the check and
//! line that must report it.

use std::path::Path;
use std::process::Command;

/// (exit code, the finding lines `FILE:LINE: [KIND] ...`) of `spec-check PAGE`.
fn findings(page: &str) -> (i32, Vec<String>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/spec/md");
    let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .current_dir(&dir)
        .args(["spec-check", page])
        .output()
        .expect("run gcnsmt");
    let text = String::from_utf8_lossy(&out.stdout);
    let f = text
        .lines()
        .filter(|l| !l.starts_with(char::is_whitespace) && l.contains(": ["))
        .map(str::to_string)
        .collect();
    (out.status.code().unwrap_or(-1), f)
}

#[test]
fn the_clean_page_has_no_finding_and_every_part_is_checked() {
    let (code, f) = findings("ds_max_u32_gfx9.md");
    assert_eq!((code, f.len()), (0, 0), "{f:?}");
}

#[test]
fn each_planted_line_is_reported_by_its_check() {
    // page, the check that must report it, its line (1-based, counted in the file).
    let cases = [
        // Opcode 9 where llvm-mc-22 encodes ds_max_u32 with opcode 8 on gfx900.
        ("ds_max_u32_gfx9_opcode.md", "[opcode]", 25),
        // ENCODING drawn 110111: with OP = 8 the Identifier 0xD8100000 needs 110110.
        ("ds_max_u32_gfx9_encoding.md", "[identifier]", 29),
        // The max written as a min (`src >= tmp ? tmp : src`), on the one line that writes
        // memory, where the counterexample's first difference is.
        ("ds_max_u32_gfx9_pcode.md", "[pcode-vs-semantics]", 45),
        // ds_write_addtid_b32 is on gfx9 but not gfx8 in LLVM 22's tables.
        ("ds_write_addtid_gfx8_availability.md", "[availability]", 33),
    ];
    for (page, kind, line) in cases {
        let (code, f) = findings(page);
        assert_eq!(code, 1, "{page}: {f:?}");
        let want = format!("{page}:{line}: {kind}");
        assert!(
            f.iter().any(|l| l.starts_with(&want)),
            "{page}: want {want}, got {f:?}"
        );
    }
}

#[test]
fn availability_names_only_the_generation_without_the_instruction() {
    let (_, f) = findings("ds_write_addtid_gfx8_availability.md");
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(f[0].contains("(gfx802)"), "{f:?}");
}
