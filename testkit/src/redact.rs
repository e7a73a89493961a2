//! Redaction of what varies from run to run in gcnsmt's output (wall times), for snapshot tests
//! and for comparing the documentation's console examples with what the binary prints.
//!
//! One list, [`FILTERS`], serves both: insta applies it to snapshots through its `filters`
//! feature ([`insta_settings`]), and [`redact`] applies the same list to a doc example and to
//! the binary's output before they are compared, so a snapshot and a doc example hide exactly
//! the same things.

use std::sync::OnceLock;

/// `(regex, replacement)` pairs, applied in order. Each hides one way gcnsmt prints a time:
///
/// - `"time_ms":12.3` in JSON (`verify`, `tv`): milliseconds as a float;
/// - `[161.2ms]`, `[41.0s]`: a summary's wall time (`verify`, `tv`; Rust's `Duration` debug
///   form, so the unit is one of `ns`, `µs`, `ms`, `s`);
/// - `  95ms` or `  1s` at the end of a `verify` verdict line;
/// - `871 ms` (`atomics`: the 64-lane proof column and the solver time).
///
/// Other numbers (counterexample values, counts) are never touched: they are what the tests
/// check.
pub const FILTERS: &[(&str, &str)] = &[
    (
        r#""time_ms":\s*-?[0-9][0-9.eE+-]*"#,
        r#""time_ms":"[TIME]""#,
    ),
    (r"\[[0-9]+(?:\.[0-9]+)?(?:ns|µs|ms|s)\]", "[TIME]"),
    (r"(?m)  [0-9]+(?:\.[0-9]+)?(?:ns|µs|ms|s)$", "  [TIME]"),
    (r"\b[0-9]+ ms\b", "[TIME]"),
];

fn compiled() -> &'static [(regex::Regex, &'static str)] {
    static RES: OnceLock<Vec<(regex::Regex, &'static str)>> = OnceLock::new();
    RES.get_or_init(|| {
        FILTERS
            .iter()
            .map(|(re, with)| (regex::Regex::new(re).expect("a valid filter regex"), *with))
            .collect()
    })
}

/// `text` with every [`FILTERS`] match replaced, as insta would redact it in a snapshot.
pub fn redact(text: &str) -> String {
    let mut s = text.to_string();
    for (re, with) in compiled() {
        s = re.replace_all(&s, *with).into_owned();
    }
    s
}

/// insta settings with [`FILTERS`] installed, snapshots kept in `snapshots/` beside the test
/// file (insta's default), and the expression (the command line) recorded in each snapshot's
/// header. Bind them around the assertions: `insta_settings().bind(|| assert_snapshot!(..))`.
pub fn insta_settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    for (re, with) in FILTERS {
        s.add_filter(re, *with);
    }
    s.set_prepend_module_to_snapshot(false);
    s
}

#[cfg(test)]
mod tests {
    use super::redact;

    #[test]
    fn times_are_hidden() {
        assert_eq!(
            redact("x gfx900   PROVED (as expected)  [alignment=DWORD]  157ms\n"),
            "x gfx900   PROVED (as expected)  [alignment=DWORD]  [TIME]\n"
        );
        assert_eq!(redact("a  1s\nb  12.5µs"), "a  [TIME]\nb  [TIME]");
        assert_eq!(redact("mismatches  [41.0s]"), "mismatches  [TIME]");
        assert_eq!(
            redact("bb.0 gfx900: refuted [110.4ms]: x"),
            "bb.0 gfx900: refuted [TIME]: x"
        );
        assert_eq!(
            redact(r#"{"time_ms":21.8070949,"type":"summary","time_ms": 3e-2}"#),
            r#"{"time_ms":"[TIME]","type":"summary","time_ms":"[TIME]"}"#
        );
        assert_eq!(redact("| n/a | 684 ms |"), "| n/a | [TIME] |");
    }

    #[test]
    fn values_are_kept() {
        for s in [
            "  inputs:  %a = 0x00000000 (0)",
            "LDS[0x0..0x3] = 00 01 02 03",
            "summary: 608 proved, 213 refuted (213 as expected)",
            "brute force: 1024 serializations, 545 rewrites",
            "unknown at 120 s",
        ] {
            assert_eq!(redact(s), s);
        }
    }
}
