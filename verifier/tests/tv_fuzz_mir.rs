//! Issue 33: MIR fuzzing of `tv` through the binary. Each case breaks the after-file of a
//! hand-written or llc-made pair with one mutation operator of the issue (truncation, line
//! deletion, duplication and swaps, register, class and sub-register corruption, huge
//! immediates and physical registers, successors, duplicate documents and keys, tabs, CFG
//! edits, exotic instructions, SSA redefinition) and runs `tv BEFORE AFTER`.
//!
//! Oracle, every case: no panic or signal, an exit code of 0-3 within `HANG`, and every
//! `AFTER:LINE:COL` the output names lies inside the after-file. Operators whose result is
//! malformed by construction (marked `Sure`: a tab in the indentation, a class wider than
//! 1,024 bits, a successor that is no block, a function or key given twice, an immediate a
//! 32-bit operand cannot hold) must in addition give an input error, exit 2, naming the
//! after-file at the mutated line (the duplicated function: the copy's `name:` line).
//!
//! Default tier: a fixed sample of 16 cases (seeded by the case number, the same every run);
//! slow tier (`GCNSMT_SLOW=1`): 400.

use gcnsmt_testkit::{Run, TempDir};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_gcnsmt");
const HANG: Duration = Duration::from_secs(120);

/// The seed pairs (stem, target): small hand-written ones and an llc-made one.
const SEEDS: [(&str, &str); 5] = [
    ("regress/ds_fold_gfx6", "gfx900"),
    ("regress/smem_merge_gfx6", "gfx600"),
    ("regress/flat_straddle", "gfx900"),
    ("regress/tvrun_features", "gfx900"),
    ("gen/ds_merge.gfx900", "gfx900"),
];

/// What an operator promises about its result.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Kind {
    /// Malformed by construction: exit 2 naming the after-file at this 1-based line.
    Sure(usize),
    /// May or may not be well-formed: only the oracle of every case.
    Any,
}

/// A small deterministic generator (xorshift64), seeded per case.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// Indices of the body's instruction lines (four-space indent, not `liveins:`/`successors:`).
fn inst_lines(lines: &[&str]) -> Vec<usize> {
    (0..lines.len())
        .filter(|&k| {
            let l = lines[k];
            l.starts_with("    ")
                && !l.starts_with("     ")
                && !l.trim_start().starts_with("liveins:")
                && !l.trim_start().starts_with("successors:")
                && !l.trim().is_empty()
        })
        .collect()
}

fn pick<T: Copy>(r: &mut Rng, v: &[T]) -> Option<T> {
    (!v.is_empty()).then(|| v[r.below(v.len())])
}

/// Replace the first match of `re` on line `k` by `by`.
fn edit(lines: &[&str], k: usize, re: &str, by: &str) -> Option<String> {
    let re = regex::Regex::new(re).unwrap();
    let l = lines[k];
    let m = re.find(l)?;
    let mut out: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
    out[k] = format!("{}{by}{}", &l[..m.start()], &l[m.end()..]);
    Some(out.join("\n") + "\n")
}

fn join(v: Vec<String>) -> String {
    v.join("\n") + "\n"
}

/// Operator `op` on `text`: the mutated text and what it promises, or `None` if the seed has
/// nothing for it to act on.
fn mutate(op: usize, text: &str, r: &mut Rng) -> Option<(String, Kind)> {
    let lines: Vec<&str> = text.lines().collect();
    let owned = || lines.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let insts = inst_lines(&lines);
    let defs: Vec<usize> = insts
        .iter()
        .copied()
        .filter(|&k| lines[k].contains(" = ") && lines[k].trim_start().starts_with('%'))
        .collect();
    match op {
        0 => {
            let k = pick(r, &insts)?;
            let mut v = owned();
            v[k] = format!("\t{}", v[k].trim_start());
            Some((join(v), Kind::Sure(k + 1)))
        }
        1 => {
            let k = pick(r, &defs)?;
            let l = lines[k];
            let (colon, eq) = (l.find(':')?, l.find(" = ")?);
            if colon > eq {
                return None;
            }
            let mut v = owned();
            v[k] = format!("{}:vreg_2048{}", &l[..colon], &l[eq..]);
            Some((join(v), Kind::Sure(k + 1)))
        }
        2 => {
            let k = lines.iter().position(|l| l.starts_with("  bb."))?;
            let mut v = owned();
            v.insert(k + 1, "    successors: %bb.77".into());
            Some((join(v), Kind::Sure(k + 2)))
        }
        3 => {
            let start = lines.iter().position(|l| *l == "---")?;
            let name = start + lines[start..].iter().position(|l| l.starts_with("name:"))?;
            let end = start + lines[start..].iter().position(|l| *l == "...")?;
            let mut v = owned();
            let copy: Vec<String> = v[start..=end].to_vec();
            let at = v.len();
            v.extend(copy);
            Some((join(v), Kind::Sure(at + name - start + 1)))
        }
        4 => {
            let k = lines.iter().position(|l| l.starts_with("name:"))?;
            let mut v = owned();
            v.insert(k + 1, "name: twice".into());
            Some((join(v), Kind::Sure(k + 2)))
        }
        5 => {
            let movs: Vec<usize> = insts
                .iter()
                .copied()
                .filter(|&k| {
                    regex::Regex::new(r"S_MOV_B32 -?\d+$")
                        .unwrap()
                        .is_match(lines[k])
                })
                .collect();
            let k = pick(r, &movs)?;
            let t = edit(&lines, k, r"-?\d+$", "99999999999")?;
            Some((t, Kind::Sure(k + 1)))
        }
        6 => Some((text[..r.below(text.len())].to_string(), Kind::Any)),
        7 => {
            let mut v = owned();
            v.remove(pick(r, &insts)?);
            Some((join(v), Kind::Any))
        }
        8 => {
            let k = pick(r, &insts)?;
            let mut v = owned();
            v.insert(k, lines[k].to_string());
            Some((join(v), Kind::Any))
        }
        9 => {
            let (a, b) = (pick(r, &insts)?, pick(r, &insts)?);
            let mut v = owned();
            v.swap(a, b);
            Some((join(v), Kind::Any))
        }
        10 => {
            let k = pick(r, &insts)?;
            let by = ["%999", "%0", "$vgpr255", "$sgpr103", "$vgpr9999", "$noreg"][r.below(6)];
            Some((edit(&lines, k, r"(%\d+|\$[a-z]+\d+)", by)?, Kind::Any))
        }
        11 => {
            let k = pick(r, &insts)?;
            let by = [".sub1", ".sub7", ".hi16", ".sub0_sub1", ".bogus"][r.below(5)];
            Some((
                edit(&lines, k, r"%\d+", &format!("%{}{by}", r.below(20)))?,
                Kind::Any,
            ))
        }
        12 => {
            let k = pick(r, &defs)?;
            let cls = ["sgpr_32", "vreg_64", "vgpr_16", "sreg_64_xexec", "agpr_32"][r.below(5)];
            Some((
                edit(&lines, k, r":[a-z_0-9]+ =", &format!(":{cls} ="))?,
                Kind::Any,
            ))
        }
        13 => {
            let k = pick(r, &insts)?;
            let by = ["-9223372036854775808", "18446744073709551615", "4294967296"][r.below(3)];
            Some((edit(&lines, k, r"\b\d+\b", by)?, Kind::Any))
        }
        14 => {
            let k = pick(r, &insts)?;
            let exotic = [
                "    INLINEASM &\"s_nop 0\", 1",
                "    %900:vgpr_32 = V_MOV_B32_dpp %900, %900, 0, 15, 15, 0, implicit $exec",
                "    S_WAITCNT_DEPCTR 65507",
                "    %901:sreg_64 = SI_IF %901, %bb.0, implicit-def $exec, implicit-def $scc, implicit $exec",
                "    BUNDLE implicit-def $vgpr0 {",
                "    DS_READ_B33 %0, 0, 0, implicit $exec",
            ];
            let mut v = owned();
            v.insert(k, exotic[r.below(exotic.len())].to_string());
            Some((join(v), Kind::Any))
        }
        15 => {
            let (a, b) = (pick(r, &defs)?, pick(r, &defs)?);
            let id = lines[a].trim_start().split(':').next()?.to_string();
            Some((
                edit(&lines, b, r"^\s*%\d+", &format!("    {id}"))?,
                Kind::Any,
            ))
        }
        _ => {
            let k = lines.iter().position(|l| l.starts_with("  bb."))?;
            let by = ["  bb.0:", "  bb.5:", "  bb.1 (%ir-block.0):", "  bb.x:"][r.below(4)];
            let mut v = owned();
            v[k] = by.to_string();
            Some((join(v), Kind::Any))
        }
    }
}

const OPS: usize = 17;

/// Every `PATH:LINE:COL` of `out` naming `path` lies inside its `n` lines.
fn locations_inside(out: &str, path: &str, n: usize) -> Result<(), String> {
    let re = regex::Regex::new(&format!(r"{}:(\d+):(\d+)", regex::escape(path))).unwrap();
    for c in re.captures_iter(out) {
        let line: usize = c[1].parse().unwrap();
        if line == 0 || line > n.max(1) {
            return Err(format!("{} is outside the file's {n} lines", &c[0]));
        }
    }
    Ok(())
}

fn case(dir: &TempDir, k: u64) -> Result<(), String> {
    let mut r = Rng(gcnsmt_testkit::fnv1a(&format!("tv-fuzz-mir {k}")) | 1);
    let (stem, target) = SEEDS[r.below(SEEDS.len())];
    let root = gcnsmt_testkit::workspace_path("tests/data/tv");
    let before = root.join(format!("{stem}.before.mir"));
    let text = std::fs::read_to_string(root.join(format!("{stem}.after.mir"))).unwrap();
    let op = r.below(OPS);
    let Some((bad, kind)) = mutate(op, &text, &mut r) else {
        return Ok(());
    };
    let after = dir.write(&format!("case{k}.after.mir"), &bad);
    let after = after.to_str().unwrap();
    let run: Run = gcnsmt_testkit::run_for(
        BIN,
        &["tv", before.to_str().unwrap(), after, "--target", target],
        HANG,
    );
    let what = format!("case {k}: {stem} op {op} {kind:?}\n{}", run.context());
    if run.stderr.contains("panicked") || !(0..=3).contains(&run.code) {
        return Err(format!("crash or bad exit\n{what}"));
    }
    locations_inside(&run.all(), after, bad.lines().count()).map_err(|e| format!("{e}\n{what}"))?;
    if let Kind::Sure(line) = kind {
        let at = format!("{after}:{line}:");
        if run.code != 2 || !run.all().contains(&at) {
            return Err(format!(
                "a malformed file is not an input error at {at}\n{what}"
            ));
        }
    }
    Ok(())
}

#[test]
fn mutated_mir_is_an_input_error_or_a_verdict_never_a_crash() {
    let dir = TempDir::new("tv-fuzz-mir");
    let n = gcnsmt_testkit::tiered(16, 400);
    let failures: Vec<String> = (0..n).filter_map(|k| case(&dir, k).err()).collect();
    assert!(
        failures.is_empty(),
        "{} of {n} failed:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// Every `Sure` operator is exercised on the hand-written pair, whatever the sample draws.
#[test]
fn each_malformed_by_construction_operator_is_an_input_error() {
    let dir = TempDir::new("tv-fuzz-mir-sure");
    let root = gcnsmt_testkit::workspace_path("tests/data/tv/regress");
    let before = root.join("ds_fold_gfx6.before.mir");
    let text = std::fs::read_to_string(root.join("ds_fold_gfx6.after.mir")).unwrap();
    for op in 0..=5 {
        let (bad, kind) = mutate(op, &text, &mut Rng(7)).expect("the seed has a site");
        let Kind::Sure(line) = kind else {
            panic!("op {op}")
        };
        let after = dir.write(&format!("op{op}.mir"), &bad);
        let after = after.to_str().unwrap();
        let run = gcnsmt_testkit::run_for(
            BIN,
            &["tv", before.to_str().unwrap(), after, "--target", "gfx900"],
            HANG,
        );
        run.assert_no_panic();
        let at = format!("{after}:{line}:");
        assert_eq!(run.code, 2, "op {op}\n{}", run.context());
        assert!(run.all().contains(&at), "op {op}: {at}\n{}", run.context());
    }
}
