//! Every file of `tests/data/errors/` is an input error: `gcnsmt verify FILE` exits 2 with one
//! `FILE:LINE:COL: error:` line at the position and with the text its first line
//! (`; expect-error: LINE:COL: TEXT`) gives. Columns are counted by hand in each file.

use std::path::Path;

#[test]
fn every_error_case_gives_its_error_at_its_position() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/errors");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_none_or(|x| x != "rules") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let want = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("; expect-error: "))
            .unwrap_or_else(|| panic!("{}: no `; expect-error:` line", path.display()));
        let (pos, msg) = want.split_once(": ").expect("LINE:COL: TEXT");
        let p = path.display().to_string();
        let r = gcnsmt_testkit::run(
            env!("CARGO_BIN_EXE_gcnsmt"),
            &["verify", &p, "--no-matrix"],
            None,
            &[],
        );
        assert_eq!(r.code, 2, "{p}: exit code\n{}", r.context());
        let errs: Vec<&str> = r
            .stdout
            .lines()
            .chain(r.stderr.lines())
            .filter(|l| l.contains(": error: "))
            .collect();
        assert_eq!(errs.len(), 1, "{p}: one error line\n{}", r.context());
        let head = format!("{p}:{pos}: error: ");
        assert!(
            errs[0].starts_with(&head) && errs[0].contains(msg),
            "{p}: want `{head}...{msg}...`, got `{}`",
            errs[0]
        );
        n += 1;
    }
    assert!(n >= 12, "only {n} error cases found");
}

/// Output that cannot be written is a tool error: one line on stderr and exit 2, no panic
/// (`/dev/full` fails every write with ENOSPC; Linux only).
#[test]
fn unwritable_stdout_is_exit_2_not_a_panic() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return;
    };
    for args in [
        &["coverage", "--target", "gfx90a"][..],
        &["decode", "--target", "gfx1030", "D8C00000", "00020103"][..],
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
            .args(args)
            .stdout(full.try_clone().unwrap())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}
