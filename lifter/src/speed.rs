//! Decoder speed against `llvm-mc-22 --disassemble` (a benchmark's parts, not a test): the
//! mixed words both decode, and the timings of gcnsmt and of llvm-mc on them. Used by
//! `examples/bench_decode.rs` and by `gcnsmt bench --plots` (the decoder curve).

use crate::any::decode_any;
use crate::text::WriteText;
use gcnsmt_semantics::target::Target;
use rand::{Rng, SeedableRng};
use std::io::Write as _;
use std::time::{Duration, Instant};

/// `n` seeded-random 64-bit words: even indices with the DS encoding bits (31:26 = 0x36),
/// odd ones MUBUF (0x38); most are invalid (unknown opcodes, unused fields set). MUBUF
/// SOFFSET 255 (a literal) is cleared to 127: llvm-mc 22 crashes on it.
pub fn mixed_words(n: usize) -> Vec<u64> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(42);
    (0..n)
        .map(|i| {
            let enc: u64 = if i % 2 == 0 { 0x36 } else { 0x38 };
            let mut w: u64 = rng.gen();
            if enc == 0x38 && w >> 56 == 0xff {
                w &= !(0x80u64 << 56);
            }
            (w & !(0x3f << 26)) | (enc << 26)
        })
        .collect()
}

/// The shortest of `runs` timings of `f` (the least disturbed by other processes on a shared
/// machine) and `f`'s last result.
fn best_of<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut last = None;
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        let r = f();
        best = best.min(start.elapsed());
        last = Some(r);
    }
    (best, last.expect("at least one run"))
}

/// Decode and print every word as `gcnsmt decode` does (its text, or `.long ... ; reason`,
/// one line per word) to `/dev/null` through one reused 64 KiB buffer, as llvm-mc's output
/// goes to `/dev/null`. Best of `runs`; also the number of valid words.
pub fn time_decode_print(target: Target, words: &[u64], runs: usize) -> (Duration, usize) {
    let mut sink = std::fs::File::create("/dev/null").ok();
    best_of(runs, || {
        let mut out = String::with_capacity(1 << 17);
        let mut valid = 0usize;
        for w in words {
            match decode_any(target, &w.to_le_bytes()) {
                Ok(i) => {
                    valid += 1;
                    i.write_text(&mut out);
                }
                Err(e) => e.write_text(&mut out),
            }
            out.push('\n');
            if out.len() >= 1 << 16 {
                if let Some(s) = sink.as_mut() {
                    let _ = s.write_all(out.as_bytes());
                }
                out.clear();
            }
        }
        if let Some(s) = sink.as_mut() {
            let _ = s.write_all(out.as_bytes());
        }
        valid
    })
}

/// Decode every word without printing. Best of `runs`.
pub fn time_decode(target: Target, words: &[u64], runs: usize) -> Duration {
    best_of(runs, || {
        words
            .iter()
            .filter(|w| std::hint::black_box(decode_any(target, &w.to_le_bytes())).is_ok())
            .count()
    })
    .0
}

/// One `llvm-mc-22 -arch=amdgcn -mcpu=TARGET --disassemble` run over the words, one
/// bracketed group per word (llvm-mc decodes each group on its own), output to `/dev/null`;
/// the whole run is timed, process start included.
///
/// Errors: llvm-mc-22 missing, or killed by a signal (exit status 1 only means some words
/// were invalid), so a crash cannot pass as speed.
pub fn time_llvm_mc(target: Target, words: &[u64]) -> Result<Duration, String> {
    let mut text = String::with_capacity(words.len() * 42);
    for w in words {
        text.push('[');
        for b in w.to_le_bytes() {
            text.push_str(&format!("0x{b:02x} "));
        }
        text.push_str("]\n");
    }
    let path = std::env::temp_dir().join(format!("gcnsmt-bench-{}.txt", std::process::id()));
    std::fs::write(&path, text).map_err(|e| format!("temp file: {e}"))?;
    let input = std::fs::File::open(&path).map_err(|e| format!("temp file: {e}"))?;
    let start = Instant::now();
    let status = std::process::Command::new("llvm-mc-22")
        .args([
            "-arch=amdgcn",
            &format!("-mcpu={}", target.name()),
            "--disassemble",
        ])
        .stdin(input)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status();
    let elapsed = start.elapsed();
    let _ = std::fs::remove_file(&path);
    match status {
        Ok(s) if matches!(s.code(), Some(0 | 1)) => Ok(elapsed),
        Ok(s) => Err(format!("llvm-mc-22 failed ({s})")),
        Err(e) => Err(format!(
            "llvm-mc-22 not run ({e}); install Debian's llvm-22 to compare"
        )),
    }
}
