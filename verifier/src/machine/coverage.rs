//! Lift coverage: every (target, mnemonic) pair of the llvm-mc-22 round-trip files
//! (`tests/data/roundtrip/{ds,mubuf}_<cpu>.s`) either lifts to a semantics entry, through the
//! same decision `gcnsmt lift` and `verify` make, or is listed in `tests/data/lift_gaps.txt`.
//! The list may only shrink: a listed pair that now lifts must be taken off it.

use gcnsmt_lifter::Inst;
use gcnsmt_semantics::target::Target;
use std::collections::BTreeSet;

fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Whether the first round-trip line of a pair lifts.
fn lifts(t: Target, asm: &str) -> bool {
    match gcnsmt_lifter::parse_any(t, asm) {
        Ok(Inst::Mubuf(m)) => super::buffer::buffer_semantics(t, &m).is_ok(),
        Ok(Inst::Ds(d)) => {
            gcnsmt_lifter::lift::ds_semantics(d.mnemonic).is_some()
                || super::cross::lift_text(t, &d).is_some()
        }
        _ => false,
    }
}

#[test]
fn every_round_trip_pair_lifts_or_is_a_known_gap() {
    let gaps_text = std::fs::read_to_string(root().join("tests/data/lift_gaps.txt")).unwrap();
    let gaps: BTreeSet<(String, String)> = gaps_text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (t, m) = l.split_once(' ').expect("`target mnemonic`");
            (t.to_string(), m.trim().to_string())
        })
        .collect();
    let mut missing = BTreeSet::new();
    let mut counts = std::collections::BTreeMap::new();
    for t in Target::ALL {
        for fam in ["ds", "mubuf"] {
            let path = root().join(format!("tests/data/roundtrip/{fam}_{t}.s"));
            let text = std::fs::read_to_string(&path).unwrap();
            let mut seen = BTreeSet::new();
            for line in text.lines() {
                let asm = line.split(';').next().unwrap_or("").trim();
                if asm.is_empty() || asm.starts_with("//") {
                    continue;
                }
                let mn = asm.split_whitespace().next().unwrap().to_string();
                if !seen.insert(mn.clone()) {
                    continue;
                }
                let c = counts.entry(fam).or_insert((0, 0));
                c.1 += 1;
                if lifts(t, asm) {
                    c.0 += 1;
                } else {
                    missing.insert((t.to_string(), mn));
                }
            }
        }
    }
    println!("pairs that lift: {counts:?}");
    let new: Vec<_> = missing.difference(&gaps).collect();
    assert!(new.is_empty(), "pairs that no longer lift: {new:?}");
    let fixed: Vec<_> = gaps.difference(&missing).collect();
    assert!(
        fixed.is_empty(),
        "pairs that lift now: take them off tests/data/lift_gaps.txt: {fixed:?}"
    );
}
