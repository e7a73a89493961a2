//! Generated rule families whose solver cost grows with one size parameter `n`: the goals
//! table of `gcnsmt bench --families` ([`super::goals`]) and the growth curves of
//! `gcnsmt bench --plots` ([`super::growth`]). Each family gives the rule text for one `n`
//! (`gcnsmt verify` reads the same text) and the verdict a person derives from the rewrite:
//! sums commute, disjoint accesses reorder, loads merge, float adds do not reassociate.

use std::time::Duration;

/// One family of generated rules.
pub struct Family {
    /// Short name (`--families NAME`).
    pub name: &'static str,
    /// What the rules check, for the table.
    pub what: &'static str,
    /// The sizes to run, in order; a run stops at the first size that is not decided.
    pub sizes: &'static [usize],
    /// The goal: the size to reach and the time to decide it within.
    pub goal: (usize, Duration),
    /// The verdict every member must get (`proved` or `refuted`).
    pub expect: &'static str,
    /// The rule text for size `n`.
    pub rule: fn(usize) -> String,
}

/// The families, in the order the issue lists its targets.
pub fn families() -> Vec<Family> {
    vec![
        Family {
            name: "chain",
            what: "n ds_add_u32 on one address, one lane, in reverse order",
            sizes: &[1, 2, 3, 4, 6, 8, 12, 16, 24, 32],
            goal: (16, Duration::from_secs(1)),
            expect: "proved",
            rule: chain,
        },
        Family {
            name: "chain-dropped",
            what: "n ds_add_u32 on one address against the first n-1 (refuted)",
            sizes: &[2, 3, 4, 6, 8, 12, 16, 24, 32],
            goal: (16, Duration::from_secs(1)),
            expect: "refuted",
            rule: chain_dropped,
        },
        Family {
            name: "lanes",
            what: "n lanes x 4 ds_add_u32 per lane (per-lane address), reverse order",
            sizes: &[1, 2, 3, 4, 6, 8],
            goal: (8, Duration::from_secs(10)),
            expect: "proved",
            rule: |n| lanes(n, 4),
        },
        Family {
            name: "block",
            what: "n ds_write_b32/ds_read_b32 at disjoint offsets of one base, n/5 reads hoisted",
            sizes: &[10, 20, 40, 60, 80, 100, 150, 200],
            goal: (100, Duration::from_secs(5)),
            expect: "proved",
            rule: block,
        },
        Family {
            name: "chain-f32",
            what: "n ds_add_f32 on one address, one lane, in reverse order (rounding: refuted)",
            sizes: &[2, 3, 4, 6, 8],
            goal: (4, Duration::from_secs(20)),
            expect: "refuted",
            rule: chain_f32,
        },
    ]
}

fn rule_text(
    name: String,
    body: &[String],
    target: &[String],
    extra: &str,
    expect: &str,
) -> String {
    format!(
        "Name: {name}\nTargets: gfx900\n{extra}{}\n=>\n{}\nExpect: {expect}\n",
        body.join("\n"),
        target.join("\n")
    )
}

fn adds(op: &str, n: usize) -> Vec<String> {
    (0..n).map(|i| format!("  {op} %a, %x{i}")).collect()
}

/// `n` atomic adds of `%x0..` to `%a`; the target adds them in reverse order (modular sums
/// commute, so proved).
pub fn chain(n: usize) -> String {
    let s = adds("ds_add_u32", n);
    let t: Vec<String> = s.iter().rev().cloned().collect();
    rule_text(format!("chain-{n}"), &s, &t, "", "proved")
}

/// [`chain`]'s source against its first `n - 1` adds: refuted by `%x{n-1} != 0`.
pub fn chain_dropped(n: usize) -> String {
    let s = adds("ds_add_u32", n);
    rule_text(format!("chain-dropped-{n}"), &s, &s[..n - 1], "", "refuted")
}

/// `lanes` lanes each adding `m` values to its own `%a` (lanes may share it), in reverse
/// order on the target: every serialization of every instruction gives the same sums.
pub fn lanes(lanes: usize, m: usize) -> String {
    let s = adds("ds_add_u32", m);
    let t: Vec<String> = s.iter().rev().cloned().collect();
    let extra = format!("Lanes: {lanes}\n");
    rule_text(format!("lanes-{lanes}x{m}"), &s, &t, &extra, "proved")
}

/// `n` dword accesses at offsets `4 i` of `%a`, writes at even `i` and reads at odd `i`; the
/// target hoists every fifth access that is a read (`n / 5` of them, the scheduler's shape)
/// to the start of the block. The accesses are disjoint, so the order does not matter.
pub fn block(n: usize) -> String {
    let access = |i: usize| {
        if i.is_multiple_of(2) {
            format!("  ds_write_b32 %a, %x{i} offset:{}", 4 * i)
        } else {
            format!("  ds_read_b32 %y{i}, %a offset:{}", 4 * i)
        }
    };
    let s: Vec<String> = (0..n).map(access).collect();
    let moved: Vec<usize> = (0..n)
        .filter(|i| i % 2 == 1)
        .step_by(2)
        .take(n / 5)
        .collect();
    let mut t: Vec<String> = moved.iter().map(|&i| access(i)).collect();
    t.extend((0..n).filter(|i| !moved.contains(i)).map(access));
    rule_text(format!("block-{n}"), &s, &t, "", "proved")
}

/// `n` float atomic adds in reverse order: `(m + a) + b` and `(m + b) + a` round differently.
pub fn chain_f32(n: usize) -> String {
    let s = adds("ds_add_f32", n);
    let t: Vec<String> = s.iter().rev().cloned().collect();
    rule_text(format!("chain-f32-{n}"), &s, &t, "", "refuted")
}

/// `n` dword stores of one address at offsets 0, 4, ..., 4(n-1), and the same stores in
/// reverse order: the number-of-memory-instructions curve (`n` >= 1).
pub fn reordered_stores(n: usize) -> String {
    let line = |i: usize| format!("  ds_write_b32 %a, %d{i} offset:{}\n", 4 * i);
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

/// Two loads of adjacent dwords merged into `ds_read2_b32` on `lanes` lanes (as
/// `proofs/lanes.rules` `lanes-read2-merge`): loads write no memory, so every lane reads the
/// same bytes either way. The lanes curve (1..=8).
pub fn read2_merge_lanes(lanes: usize) -> String {
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

    /// Every generated member parses, and the block family moves n/5 accesses.
    #[test]
    fn members_parse() {
        for f in families() {
            for &n in f.sizes {
                let text = (f.rule)(n);
                let rules = parse_rules(f.name, &text).unwrap_or_else(|e| panic!("{text}\n{e}"));
                assert_eq!(rules.len(), 1, "{}", f.name);
            }
        }
        let b = block(100);
        let (src, tgt) = b.split_once("=>").expect("two sides");
        assert_eq!(src.matches("  ds_").count(), 100);
        assert_eq!(tgt.matches("  ds_").count(), 100);
        let moved = src
            .lines()
            .filter(|l| l.starts_with("  ds_"))
            .zip(tgt.lines().skip(1));
        assert!(moved.filter(|(a, b)| a != b).count() >= 20);
    }

    /// The growth-only families parse with their instruction counts.
    #[test]
    fn growth_families_parse_with_their_instructions() {
        let r = parse_rules("s", &reordered_stores(3)).expect("stores");
        assert_eq!((r[0].source.len(), r[0].target.len()), (3, 3));
        assert!(r[0].target[0].text.contains("offset:8"));
        let r = parse_rules("l", &read2_merge_lanes(8)).expect("lanes");
        assert_eq!((r[0].source.len(), r[0].target.len()), (2, 1));
    }
}
