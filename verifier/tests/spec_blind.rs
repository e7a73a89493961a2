//! The blind spec-check sets (`tests/data/spec/blind-N/`, docs/spec-check.md): pages written by
//! someone who never read the readers, each fault's line in the set's `KEY.md`. Measured once
//! before joining this test; the test keeps the measured result as a floor: no finding on a
//! clean page, and the faulty pages found then are still found.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// (page, clean) from the KEY's summary table.
fn key(dir: &Path) -> Vec<(String, bool)> {
    key_lines(dir).into_iter().map(|(p, c, _)| (p, c)).collect()
}

/// (page, clean, the fault's line) from the KEY's summary table (`7 (-8)` reads 7).
fn key_lines(dir: &Path) -> Vec<(String, bool, u32)> {
    let text = std::fs::read_to_string(dir.join("KEY.md")).expect("KEY.md");
    text.lines()
        .filter_map(|l| {
            let cols: Vec<&str> = l.split('|').map(str::trim).collect();
            // The status column is the 3rd (sets 1-2) or the 4th (set 3 adds the format).
            let at = (3..=4).find(|&i| matches!(cols.get(i), Some(&"clean" | &"faulty")))?;
            let line = cols.get(at + 1).map_or(0, |c| {
                let n: String = c.chars().take_while(char::is_ascii_digit).collect();
                n.parse().unwrap_or(0)
            });
            match cols.get(at) {
                Some(&"clean") => Some((cols[1].to_string(), true, 0)),
                Some(&"faulty") => Some((cols[1].to_string(), false, line)),
                _ => None,
            }
        })
        .collect()
}

/// The lines of the findings spec-check reports on `page` (not unreadable-input errors),
/// run once per page: each test asks twice (found at all, found at the KEY's line).
fn finding_lines(dir: &Path, page: &str) -> Vec<u32> {
    static SEEN: Mutex<BTreeMap<PathBuf, Vec<u32>>> = Mutex::new(BTreeMap::new());
    let at = dir.join(page);
    if let Some(l) = SEEN.lock().unwrap().get(&at) {
        return l.clone();
    }
    let l = run_finding_lines(dir, page);
    SEEN.lock().unwrap().insert(at, l.clone());
    l
}

fn run_finding_lines(dir: &Path, page: &str) -> Vec<u32> {
    let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .current_dir(dir)
        .args(["spec-check", page])
        .output()
        .expect("run gcnsmt");
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        // Findings start a line (`PAGE:LINE: [kind]`); the `unchecked` list is indented.
        .filter(|l| {
            !l.starts_with(char::is_whitespace) && l.contains(": [") && !l.contains("[error]")
        })
        .filter_map(|l| {
            l.strip_prefix(page)?
                .strip_prefix(':')?
                .split(':')
                .next()?
                .parse()
                .ok()
        })
        .collect()
}

/// Whether spec-check reports a finding (not an unreadable-input error) on `page`.
fn has_finding(dir: &Path, page: &str) -> bool {
    !finding_lines(dir, page).is_empty()
}

/// Every faulty page of `dir` except `off_line` that has a finding has one within a line of
/// the KEY's line (the floor reached after issue 32's reader changes; not a blind measure).
fn found_at_the_keys_line(dir: &Path, off_line: &[&str]) -> usize {
    let mut at = 0;
    for (page, clean, line) in key_lines(dir) {
        let lines = finding_lines(dir, &page);
        if clean || lines.is_empty() || off_line.contains(&page.as_str()) {
            continue;
        }
        assert!(
            lines.iter().any(|l| l.abs_diff(line) <= 1),
            "{page}: findings at {lines:?}, the KEY's line is {line}"
        );
        at += 1;
    }
    at
}

#[test]
fn blind_sets_findings_stay_at_the_keys_line() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/spec");
    // ref08's Semantics write memory on two lines: its finding is at the block's first
    // line (33), the wrong one is 35.
    let one = found_at_the_keys_line(&root.join("blind-1"), &["ref08_cdna4_ds_write2_b64.md"]);
    assert!(
        one >= 23,
        "blind-1: {one} found at the KEY's line, floor 23"
    );
    let two = found_at_the_keys_line(&root.join("blind-2"), &[]);
    assert!(
        two >= 20,
        "blind-2: {two} found at the KEY's line, floor 20"
    );
}

#[test]
fn blind_set_1_keeps_its_first_contact_result() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/spec/blind-1");
    let pages = key(&dir);
    assert_eq!(pages.len(), 38, "KEY.md lists 38 pages");
    // Found at first contact (2026-12-05), docs/spec-check.md "Blind set 1".
    let found_then = [
        "clrx06_gcn12_buffer_atomic_smin.md",
        "clrx07_gcn10_buffer_load_sbyte.md",
        "clrx08_gcn12_buffer_atomic_cmpswap_x2.md",
        "clrx12_gcn12_14_ds_opcode_table.md",
        "pcode01_cdna4_ds_logic.json",
        "pcode02_rdna4_ds_incdec64.json",
        "pcode03_rdna3_ds_2addr.json",
        "pcode04_cdna4_buffer_max_x2.json",
        "pcode05_rdna3_buffer_d16.json",
        "pcode08_cdna3_buffer_incdec.json",
        "pcode09_cdna2_ds_cmpst_b64.json",
        "pcode10_rdna4_ds_add64.json",
        // Found after the Markdown reference-page reader (session 16), which was written
        // looking at these pages: a floor, not a blind measure (blind set 2 is that).
        "ref01_cdna4_ds_sub_rtn_u32.md",
        "ref02_rdna4_ds_load_2addr_stride64_b64.md",
        "ref03_cdna3_buffer_atomic_cmpswap.md",
        "ref04_rdna3_ds_cmpstore_rtn_b32.md",
        "ref05_cdna2_ds_read2st64_b32.md",
        "ref06_cdna4_buffer_load_sshort.md",
        "ref08_cdna4_ds_write2_b64.md",
        "ref10_gfx9_ds_max_rtn_i32.md",
        "ref12_rdna4_ds_sub_clamp_u32.md",
        // Found after the readers were widened looking at blind sets 1 and 2 (issue 32, branch
        // spec3): CLRX pages with no opcode table are for the generations a heading names,
        // else for every GCN generation CLRX documents. Floors, not measures.
        "clrx01_gcn12_ds_dec_rtn_u32.md",
        "clrx09_gcn12_buffer_store_short.md",
        "clrx13_gcn_ds_wrap_rtn_b32.md",
    ];
    for (page, clean) in &pages {
        let found = has_finding(&dir, page);
        if *clean {
            assert!(
                !found,
                "{page} is clean (KEY.md) but spec-check reports a finding"
            );
        } else if found_then.contains(&page.as_str()) {
            assert!(
                found,
                "{page}: its planted fault was found at first contact, not now"
            );
        }
    }
}

/// Blind set 2 (session 16, docs/spec-check.md "Blind set 2"): 30 pages by a writer who saw
/// neither the readers nor set 1; measured once at first contact (10 of 22 found). `c04` is
/// listed clean in its KEY but copies AMD's RDNA 4 `DS_COND_SUB_RTN_U32` verbatim, an erratum
/// of the source (docs/spec-findings.md, "Errata"): its finding is right and required.
#[test]
fn blind_set_2_keeps_its_first_contact_result() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/spec/blind-2");
    let pages = key(&dir);
    assert_eq!(pages.len(), 30, "KEY.md lists 30 pages");
    let found_then = [
        "a03_ds_store_2addr_b32_rdna3.md",
        "b05_clrx_buffer_atomic_smax.md",
        "b07_clrx_buffer_atomic_cmpswap_x2.md",
        "b10_clrx_buffer_atomic_dec_x2.md",
        "c02_pcode_rdna3_mubuf.json",
        "c03_pcode_cdna4_ds_read2.json",
        "c05_pcode_cdna4_mubuf.json",
        "c06_pcode_rdna4_ds_loads.json",
        "c07_pcode_cdna4_ds_atomics.json",
        "c08_pcode_rdna3_ds_d16.json",
        "c04_pcode_rdna4_ds.json",
        // Found after the readers were widened looking at these pages (issue 32, branch
        // spec3: plain-text sections with indented bodies, `Generation` lines, bracketed bit
        // ranges, VDS, Example bytes, `otherwise` clauses of return conditions, CLRX pages'
        // default generations and availability). Floors, not measures: blind set 3 is that.
        "a02_ds_inc_rtn_u32_rdna3.txt",
        "a04_ds_read2st64_b64_cdna3.txt",
        "a05_ds_cmpstore_rtn_b32_rdna4.md",
        "a06_buffer_atomic_cmpswap_cdna3.md",
        "a07_buffer_load_i8_rdna3.txt",
        "a09_ds_load_u16_d16_hi_rdna3.txt",
        "a10_buffer_load_short_d16_cdna2.md",
        "a12_buffer_atomic_inc_cdna4.txt",
        "b02_clrx_ds_mskor_rtn_b32.md",
        "b09_clrx_ds_read_u8_d16_hi.md",
    ];
    for (page, clean) in &pages {
        let found = has_finding(&dir, page);
        if found_then.contains(&page.as_str()) {
            assert!(found, "{page}: found at first contact, not now");
        } else if *clean {
            assert!(
                !found,
                "{page} is clean (KEY.md) but spec-check reports a finding"
            );
        }
    }
}

/// Blind set 3 (session 24, docs/spec-check.md "Blind set 3"): 37 pages by a writer who saw
/// neither the readers nor sets 1-2; measured once at first contact on main (12 of 28 found)
/// and on branch spec3's readers (16 of 28, 15 at the KEY's line), neither changed looking at
/// it. `a04` (clean) draws three operand-names findings on spec3's readers: its operand list
/// names only VDATA while the Semantics use VADDR, SRSRC and SOFFSET, all operands of the
/// instruction: a false finding, open (not asserted either way). `a01`'s finding is two lines
/// above the KEY's (41 for 43).
#[test]
fn blind_set_3_keeps_its_first_contact_result() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/spec/blind-3");
    let pages = key(&dir);
    assert_eq!(pages.len(), 37, "KEY.md lists 37 pages");
    let found_then = [
        "a01_rdna3_ds_load_2addr_stride64_b64.md",
        "b01_clrx_ds_dec_rtn_u32.md",
        "b03_clrx_buffer_atomic_cmpswap.md",
        "b04_clrx_buffer_load_sshort.md",
        "b06_clrx_buffer_atomic_umax_x2.md",
        "b09_clrx_ds_wrxchg2st64_rtn_b64.md",
        "b10_clrx_buffer_load_ubyte_d16.md",
        "c01_rdna3_ds_pcode.json",
        "c02_rdna3_mubuf_pcode.json",
        "c03_rdna4_ds_pcode.json",
        "c04_cdna_ds_pcode.json",
        "c05_cdna_mubuf_pcode.json",
        "c08_rdna3_mubuf_pcode.json",
        "c09_cdna_ds_pcode.json",
        "c11_cdna_mubuf_pcode.json",
        "c12_rdna4_ds_pcode.json",
    ];
    for (page, clean) in &pages {
        let found = has_finding(&dir, page);
        if found_then.contains(&page.as_str()) {
            assert!(found, "{page}: found at first contact, not now");
        } else if *clean && page != "a04_cdna2_buffer_load_sbyte.md" {
            assert!(
                !found,
                "{page} is clean (KEY.md) but spec-check reports a finding"
            );
        }
    }
    let at = found_at_the_keys_line(&dir, &["a01_rdna3_ds_load_2addr_stride64_b64.md"]);
    assert!(at >= 15, "blind-3: {at} found at the KEY's line, floor 15");
}
