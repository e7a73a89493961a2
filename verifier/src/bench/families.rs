//! Generated rule families whose cost grows with one parameter (the growth curves of
//! `gcnsmt bench --plots`): rule text, parsed by the same reader as `proofs/`. Each rule is
//! proved on gfx900 whatever the parameter; the reasons are in the rules' comments.

use std::fmt::Write as _;

/// `n` dword stores of one address at offsets 0, 4, ..., 4(n-1), and the same stores in
/// reverse order: the number-of-memory-instructions curve (`n` >= 1).
pub fn reordered_stores(n: u32) -> String {
    let line = |i: u32| format!("  ds_write_b32 %a, %d{i} offset:{}\n", 4 * i);
    let mut t = format!(
        "Name: growth-reordered-stores-{n}\nTargets: gfx900\n\
         ; Distinct offsets 4 bytes apart: the dwords never overlap, so any order is the same.\n"
    );
    (0..n).for_each(|i| t.push_str(&line(i)));
    t.push_str("=>\n");
    (0..n).rev().for_each(|i| t.push_str(&line(i)));
    t.push_str("Expect: proved\n");
    t
}

/// `n` non-returning `ds_add_u32` on one address, and the same adds in reverse order: the
/// atomics-on-one-address curve (the read-modify-write chain of issue 18; addition commutes).
pub fn reordered_atomics(n: u32) -> String {
    let mut t = format!("Name: growth-reordered-atomics-{n}\nTargets: gfx900\n");
    (0..n).for_each(|i| {
        let _ = writeln!(t, "  ds_add_u32 %a, %d{i}");
    });
    t.push_str("=>\n");
    (0..n).rev().for_each(|i| {
        let _ = writeln!(t, "  ds_add_u32 %a, %d{i}");
    });
    t.push_str("Expect: proved\n");
    t
}

/// Two loads of adjacent dwords merged into `ds_read2_b32` on `lanes` lanes (as
/// `proofs/lanes.rules` `lanes-read2-merge`): loads write no memory, so every lane reads the
/// same bytes either way. The lanes curve (1..=8).
pub fn read2_merge_lanes(lanes: u32) -> String {
    format!(
        "Name: growth-read2-merge-lanes-{lanes}\nTargets: gfx900\nLanes: {lanes}\n\
         \x20 ds_read_b32 %x, %a\n  ds_read_b32 %y, %a offset:4\n=>\n\
         \x20 ds_read2_b32 {{%x, %y}}, %a offset1:1\nExpect: proved\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::parse_rules;

    #[test]
    fn families_parse_with_their_instructions() {
        let r = parse_rules("s", &reordered_stores(3)).expect("stores");
        assert_eq!((r[0].source.len(), r[0].target.len()), (3, 3));
        assert!(r[0].target[0].text.contains("offset:8"));
        let r = parse_rules("a", &reordered_atomics(2)).expect("atomics");
        assert_eq!((r[0].source.len(), r[0].target.len()), (2, 2));
        let r = parse_rules("l", &read2_merge_lanes(8)).expect("lanes");
        assert_eq!((r[0].source.len(), r[0].target.len()), (2, 1));
    }
}
