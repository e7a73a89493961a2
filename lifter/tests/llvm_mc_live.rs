//! Live differential test against llvm-mc 22 (skipped with a notice when `llvm-mc-22` is not
//! on PATH; `.ci/run` installs it).
//!
//! For every target llvm-mc can disassemble (gfx8+; LLVM 22 has no gfx6/gfx7 disassembler)
//! and each encoding (DS; MUBUF, or the 96-bit VBUFFER on gfx12/gfx1250), 100,000 random
//! words under `GCNSMT_SLOW=1` (10,000 in the default test tier) carrying the encoding bits
//! are disassembled by ONE llvm-mc process (one `[0x.. ...]` group per line, so each word
//! gives exactly one instruction on stdout or one warning on stderr naming its line). Our decoder must make the same valid/invalid decision and print
//! the same text. Documented exceptions, counted and printed:
//!
//! - `crash`: MUBUF SOFFSET = 255 (a literal constant) makes llvm-mc-22 crash (segfault in
//!   the printer), so such words are not sent; we reject them.
//! - `llvm-rejects-own-text`: LLVM prints text that its own assembler rejects; we return an
//!   error instead (DS: tuples past v255, misaligned AGPR/GWS registers on gfx90a+, AGPR GWS
//!   operands on gfx8/gfx9; MUBUF: stores with `tfe`). Every such text is re-assembled by
//!   one more llvm-mc process and must fail there, or it counts as a mismatch.
//! - `invalid-register-comment`: LLVM prints `/*Invalid register...*/` (misaligned tuples on
//!   gfx90a+/gfx1250, `src_lds_direct` as SOFFSET); we return an error.

use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::process::Command;
use std::time::Instant;

use gcnsmt_lifter::{decode_any, mubuf_lookup, mubuf_mnemonics, MubufLayout};
use gcnsmt_semantics::target::{Gen, Target};
use rand::{Rng, SeedableRng};

/// Random words per target and encoding: a sample in the default tier, the full differential
/// under `GCNSMT_SLOW=1` (the whole run takes about 50 s on two shared cores).
fn words_per_encoding() -> usize {
    gcnsmt_testkit::tiered(10_000, 100_000)
}
const MC: &str = "llvm-mc-22";

fn have_llvm_mc() -> bool {
    Command::new(MC)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Run llvm-mc once; returns per-input-line `Some(text)` / `None` (invalid encoding).
fn disassemble(target: Target, words: &[Vec<u8>], tag: &str) -> Vec<Option<String>> {
    let dir = std::env::temp_dir();
    let path = dir.join(format!(
        "gcnsmt-live-{}-{}-{tag}.txt",
        std::process::id(),
        target.name()
    ));
    let mut f = std::io::BufWriter::new(std::fs::File::create(&path).expect("temp file"));
    for w in words {
        let hex: Vec<String> = w.iter().map(|b| format!("{b:#04x}")).collect();
        writeln!(f, "[{}]", hex.join(" ")).unwrap();
    }
    drop(f);
    let out = Command::new(MC)
        .args([
            "-arch=amdgcn",
            &format!("-mcpu={}", target.name()),
            "--disassemble",
        ])
        .arg(&path)
        .output()
        .expect("run llvm-mc");
    let _ = std::fs::remove_file(&path);
    // Exit status 1 just means some words were invalid; a signal (crash) is a failure.
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{target} {tag}: llvm-mc failed ({:?}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
            .lines()
            .take(5)
            .collect::<Vec<_>>()
            .join("\n")
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    let prefix = format!("{}:", path.display());
    let mut bad = vec![false; words.len()];
    for l in stderr.lines() {
        if let Some(rest) = l.strip_prefix(&prefix) {
            if rest.contains(": warning: invalid instruction encoding") {
                let n: usize = rest.split(':').next().unwrap().parse().unwrap();
                bad[n - 1] = true;
            }
        }
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut texts = stdout
        .lines()
        .filter(|l| l.starts_with('\t') && !l.trim_start().starts_with('.'))
        .map(|l| l.trim().to_string());
    let res: Vec<Option<String>> = bad
        .iter()
        .map(|b| {
            if *b {
                None
            } else {
                Some(texts.next().expect("one output per valid word"))
            }
        })
        .collect();
    assert!(
        texts.next().is_none(),
        "{target} {tag}: extra llvm-mc output"
    );
    res
}

/// Which of `lines` llvm-mc's assembler rejects.
fn assembler_rejects(target: Target, lines: &[String]) -> Vec<bool> {
    if lines.is_empty() {
        return Vec::new();
    }
    let mut child = Command::new(MC)
        .args(["-arch=amdgcn", &format!("-mcpu={}", target.name())])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run llvm-mc");
    let input = lines.join("\n") + "\n";
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("llvm-mc");
    writer.join().unwrap().unwrap();
    let mut rejected = vec![false; lines.len()];
    for l in String::from_utf8_lossy(&out.stderr).lines() {
        if let Some(rest) = l.strip_prefix("<stdin>:") {
            if rest.contains(": error:") {
                let n: usize = rest.split(':').next().unwrap().parse().unwrap();
                rejected[n - 1] = true;
            }
        }
    }
    rejected
}

fn ds_word(rng: &mut impl Rng, i: usize) -> Vec<u8> {
    let mut w: u64 = rng.gen();
    w = (w & !(0x3f << 26)) | (0x36 << 26);
    if i.is_multiple_of(2) {
        // Sparse register fields and rare flag bits hit more valid words.
        w &= 0x3f3f_3f3f_ffff_ffff;
        if rng.gen_bool(0.75) {
            w &= !((1 << 25) | (3 << 16));
        }
    }
    w.to_le_bytes().to_vec()
}

/// A random MUBUF word: half fully random, half built around a defined opcode with most
/// rare flag bits clear and register fields kept small.
fn mubuf_word(t: Target, rng: &mut impl Rng, i: usize) -> u64 {
    let mut w: u64 = rng.gen();
    w = (w & !(0x3f << 26)) | (0x38 << 26);
    if i.is_multiple_of(2) {
        let names: Vec<&str> = mubuf_mnemonics(t).collect();
        let op = u64::from(
            mubuf_lookup(t, names[rng.gen_range(0..names.len())])
                .unwrap()
                .0,
        );
        w &= !(0xff << 18) & !(1 << 25);
        w |= match MubufLayout::of(t) {
            MubufLayout::Gfx11 => op << 18,
            MubufLayout::Gfx10 => ((op & 0x7f) << 18) | ((op >> 7) << 25),
            _ => op << 18,
        };
        for b in [12, 13, 15, 16, 17, 25, 53, 54, 55] {
            if rng.gen_bool(0.6) && !(b == 25 && MubufLayout::of(t) != MubufLayout::Vi) {
                w &= !(1 << b);
            }
        }
        w &= 0x7f0f_3f3f_ffff_ffff | (u64::from(rng.gen::<u8>() & 0x80) << 56);
    }
    w
}

fn vbuffer_word(t: Target, rng: &mut impl Rng, i: usize) -> u128 {
    let mut w: u128 = rng.gen::<u128>() & ((1u128 << 96) - 1);
    w = (w & !(0x3f << 26)) | (0x31 << 26);
    if i.is_multiple_of(2) {
        let names: Vec<&str> = mubuf_mnemonics(t).collect();
        let op = u128::from(
            mubuf_lookup(t, names[rng.gen_range(0..names.len())])
                .unwrap()
                .0,
        );
        w = (w & !(0xff << 14)) | (op << 14);
        w &= !(3u128 << 48); // RSRC < 128
        w &= !(0xc0u128 << 32) & !(0xc0u128 << 64); // small vdata / vaddr
        if rng.gen_bool(0.8) {
            w &= !(1u128 << 95);
        }
        if rng.gen_bool(0.6) {
            w &= !(1u128 << 22);
        }
        if t == Target::Gfx1200 && rng.gen_bool(0.8) {
            w &= !(1u128 << 7); // NV: LLVM prints it but rejects it on gfx1200
        }
    }
    w
}

#[derive(Default)]
struct Counts {
    words: usize,
    valid: usize,
    invalid: usize,
    crash_skipped: usize,
    exceptions: BTreeMap<String, usize>,
    mismatches: Vec<String>,
}

/// Short reason of one of our decode errors: the error variant, and for MUBUF flag errors
/// the flag.
fn reason(e: &gcnsmt_lifter::InstDecodeError) -> String {
    use gcnsmt_lifter::{InstDecodeError as E, MubufDecodeErrorKind as K};
    match e {
        E::Mubuf(m) => match &m.kind {
            K::FlagNotAllowed { what, .. } => what.split(" (").next().unwrap_or(what).to_string(),
            k => format!("{k:?}")
                .split([' ', '{'])
                .next()
                .unwrap_or("")
                .to_string(),
        },
        E::Ds(d) => format!("{:?}", d.kind)
            .split([' ', '{', '('])
            .next()
            .unwrap_or("")
            .to_string(),
        E::Unsupported { .. } => "unsupported".to_string(),
    }
}

fn compare(t: Target, tag: &str, words: Vec<Vec<u8>>, c: &mut Counts) {
    let llvm = disassemble(t, &words, tag);
    let mut ours_rejects: Vec<(usize, String)> = Vec::new();
    for (i, (w, l)) in words.iter().zip(&llvm).enumerate() {
        c.words += 1;
        let ours = decode_any(t, w);
        match (ours, l) {
            (Ok(inst), Some(text)) if inst.to_string() == *text => c.valid += 1,
            (Err(_), None) => c.invalid += 1,
            (Err(_), Some(text)) if text.contains("/*Invalid register") => {
                *c.exceptions
                    .entry("invalid-register-comment".to_string())
                    .or_default() += 1
            }
            (Err(_), Some(text)) => ours_rejects.push((i, text.clone())),
            (Ok(inst), l) => c
                .mismatches
                .push(format!("{t} {tag} {:02x?}: ours `{inst}`, llvm {l:?}", w)),
        }
    }
    let texts: Vec<String> = ours_rejects.iter().map(|x| x.1.clone()).collect();
    let rejected = assembler_rejects(t, &texts);
    for ((i, text), r) in ours_rejects.iter().zip(rejected) {
        if r {
            let e = decode_any(t, &words[*i]).unwrap_err();
            *c.exceptions
                .entry(format!("llvm-rejects-own-text: {}", reason(&e)))
                .or_default() += 1;
        } else {
            let e = decode_any(t, &words[*i]).unwrap_err();
            c.mismatches.push(format!(
                "{t} {tag} {:02x?}: ours {e}, llvm `{text}`",
                words[*i]
            ));
        }
    }
}

fn run_target(t: Target) -> (Counts, Counts) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x006c_6c76_6d2d_6d63 ^ t as u64);
    let mut ds = Counts::default();
    let words: Vec<Vec<u8>> = (0..words_per_encoding())
        .map(|i| ds_word(&mut rng, i))
        .collect();
    compare(t, "ds", words, &mut ds);

    let mut mb = Counts::default();
    let vbuf = MubufLayout::of(t) == MubufLayout::Vbuffer;
    let n = words_per_encoding();
    let mut words = Vec::with_capacity(n);
    while words.len() < n {
        let i = words.len();
        if vbuf {
            words.push(vbuffer_word(t, &mut rng, i).to_le_bytes()[..12].to_vec());
        } else {
            let w = mubuf_word(t, &mut rng, i);
            if w >> 56 == 0xff {
                // SOFFSET 255 (literal): llvm-mc-22 crashes on every op with a SOFFSET
                // operand; we must reject those (cache ops ignore the field).
                match decode_any(t, &w.to_le_bytes()) {
                    Ok(gcnsmt_lifter::Inst::Mubuf(m)) => {
                        assert_eq!(m.shape.class, gcnsmt_lifter::MubufClass::Cache)
                    }
                    Ok(other) => panic!("{t} {w:#x}: {other}"),
                    Err(_) => {}
                }
                mb.crash_skipped += 1;
                continue;
            }
            words.push(w.to_le_bytes().to_vec());
        }
    }
    compare(t, if vbuf { "vbuffer" } else { "mubuf" }, words, &mut mb);
    (ds, mb)
}

#[test]
fn llvm_mc_live_differential() {
    if !have_llvm_mc() {
        println!("NOTICE: {MC} not found on PATH; live differential test skipped");
        return;
    }
    let start = Instant::now();
    let targets: Vec<Target> = Target::ALL
        .into_iter()
        .filter(|t| t.gen() >= Gen::Gfx8)
        .collect();
    println!("NOTICE: gfx600/gfx700 skipped: LLVM 22 has no gfx6/gfx7 disassembler");
    // Two worker threads (the CI machine has two cores).
    let queue = std::sync::Mutex::new(targets.clone());
    let results = std::sync::Mutex::new(HashMap::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let Some(t) = queue.lock().unwrap().pop() else {
                    break;
                };
                let r = run_target(t);
                results.lock().unwrap().insert(t, r);
            });
        }
    });
    let results = results.into_inner().unwrap();
    let mut total_words = 0;
    let mut mismatches = Vec::new();
    for t in targets {
        let (ds, mb) = &results[&t];
        for (tag, c) in [("ds", ds), ("mubuf", mb)] {
            println!(
                "{t:8} {tag:6} {} words: {} valid agree, {} invalid agree, {} mismatches; \
                 exceptions {:?}; llvm-crash words not sent: {}",
                c.words,
                c.valid,
                c.invalid,
                c.mismatches.len(),
                c.exceptions,
                c.crash_skipped
            );
            total_words += c.words;
            mismatches.extend(c.mismatches.iter().cloned());
        }
    }
    println!(
        "total {total_words} words, {} mismatches, {:.1}s",
        mismatches.len(),
        start.elapsed().as_secs_f64()
    );
    // Group by target, encoding and the first word of each side's text.
    let mut groups: BTreeMap<String, (usize, String)> = BTreeMap::new();
    for m in &mismatches {
        let mut it = m.split(' ');
        let key: Vec<&str> = it.by_ref().take(2).collect();
        let ours = m
            .split("ours ")
            .nth(1)
            .and_then(|x| x.split_whitespace().next());
        let llvm = m
            .split("llvm ")
            .nth(1)
            .and_then(|x| x.split_whitespace().next());
        let k = format!(
            "{} {} ours={:?} llvm={:?}",
            key[0],
            key[1],
            ours.map(|o| o.starts_with('.')),
            llvm.map(|l| l == "None")
        );
        let e = groups.entry(k).or_insert((0, m.clone()));
        e.0 += 1;
    }
    let mut groups: Vec<_> = groups.into_iter().collect();
    groups.sort_by_key(|g| std::cmp::Reverse(g.1 .0));
    for (k, (n, ex)) in groups.iter().take(60) {
        println!("{n:6} x {k}\n         e.g. {ex}");
    }
    assert!(mismatches.is_empty(), "{} mismatches", mismatches.len());
}
