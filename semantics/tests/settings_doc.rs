//! The assumptions tables of README.md (one column per setting, one row per target group) and
//! docs/soundness.md#assumptions (one row per setting) list every setting of [`SETTINGS`] with
//! the defaults `Settings::default_for` gives on each target of the group: a value is the
//! default exactly when setting it changes nothing.

use gcnsmt_semantics::settings::{Settings, SETTINGS};
use gcnsmt_semantics::target::Target;

fn doc(path: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

fn cells(line: &str) -> Vec<String> {
    line.trim()
        .trim_matches('|')
        .split('|')
        .map(|c| c.trim().trim_matches('`').to_string())
        .collect()
}

/// The targets of a row label (`gfx6-gfx8`, `gfx9-gfx1250`).
fn group(label: &str) -> Vec<Target> {
    let gfx9 = |t: &Target| t.has_unaligned_ds();
    match label {
        "gfx6-gfx8" => Target::ALL.iter().copied().filter(|t| !gfx9(t)).collect(),
        "gfx9-gfx1250" => Target::ALL.iter().copied().filter(gfx9).collect(),
        _ => panic!("unknown target group `{label}`"),
    }
}

/// `value` may be `A (gfx11: B)`: B on the targets whose name starts with `gfx11`, A on the
/// others; `A (gfx950, gfx1250: B)` names several prefixes.
fn assert_default(name: &str, value: &str, targets: &[Target], whence: &str) {
    let (base, except) = match value.split_once(" (") {
        Some((a, rest)) => {
            let (g, b) = rest
                .trim_end_matches(')')
                .split_once(": ")
                .expect("(gfxN: V)");
            (a, Some((g, b)))
        }
        None => (value, None),
    };
    for &t in targets {
        let value = match except {
            Some((g, b)) if g.split(", ").any(|g| t.name().starts_with(g)) => b,
            _ => base,
        };
        let mut s = Settings::default_for(t);
        s.set(t, name, value)
            .unwrap_or_else(|e| panic!("{whence}: {name}={value} on {t}: {e}"));
        assert_eq!(
            s,
            Settings::default_for(t),
            "{whence}: {name}={value} is not the default on {t}"
        );
    }
}

#[test]
fn readme_table_gives_every_setting_and_its_defaults() {
    let text = doc("../README.md");
    let lines: Vec<&str> = text.lines().collect();
    let head = lines
        .iter()
        .position(|l| l.starts_with("| default | "))
        .expect("README assumptions table");
    let names = cells(lines[head]);
    let listed: Vec<&str> = names[1..].iter().map(|s| s.as_str()).collect();
    let all: Vec<&str> = SETTINGS.iter().map(|(n, _)| *n).collect();
    assert_eq!(listed, all, "README table columns");
    let mut groups = 0;
    for row in lines[head + 2..].iter().take_while(|l| l.starts_with('|')) {
        let c = cells(row);
        let ts = group(&c[0]);
        for (name, value) in listed.iter().zip(&c[1..]) {
            assert_default(name, value, &ts, "README.md");
        }
        groups += 1;
    }
    assert_eq!(groups, 2);
}

#[test]
fn soundness_table_gives_every_setting_its_defaults_and_values() {
    let text = doc("../docs/soundness.md");
    let rows: Vec<Vec<String>> = text
        .lines()
        .skip_while(|l| !l.starts_with("| setting | gfx6-gfx8 | gfx9-gfx1250 |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(cells)
        .collect();
    let listed: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    let all: Vec<&str> = SETTINGS.iter().map(|(n, _)| *n).collect();
    assert_eq!(listed, all, "docs/soundness.md table rows");
    for (r, (name, values)) in rows.iter().zip(SETTINGS) {
        assert_default(name, &r[1], &group("gfx6-gfx8"), "soundness.md");
        assert_default(name, &r[2], &group("gfx9-gfx1250"), "soundness.md");
        // Every value is named in the row (defaults or "other values"), sources given.
        for v in *values {
            assert!(
                r[1..4].iter().any(|c| c.contains(v)) || r[3] == "the other one",
                "soundness.md: {name} does not name {v}"
            );
        }
        assert!(r[4].len() > 10, "soundness.md: {name} has no sources");
    }
}
