//! Benchmark (not a test): decode-plus-print throughput of gcnsmt against
//! `llvm-mc-22 --disassemble` on the same one million instruction words, reported as a ratio
//! from one run.
//!
//! ```sh
//! cargo run --release -p gcnsmt-lifter --example bench_decode -- [CPU] [WORDS]
//! ```
//! The words are seeded-random 64-bit words with the DS encoding bits (31:26 = 0x36), half of
//! them, and the MUBUF bits (31:26 = 0x38) for the other half (MUBUF SOFFSET 255 excluded: it
//! crashes llvm-mc 22); the same bytes go to llvm-mc in one process (its whole run, process
//! start included, is timed; its exit status is checked so a crash cannot pass as speed).

use gcnsmt_lifter::any::decode_any;
use gcnsmt_semantics::target::Target;
use rand::{Rng, SeedableRng};
use std::fmt::Write as _;
use std::io::Write as _;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let target = args
        .get(1)
        .and_then(|t| Target::parse(t))
        .unwrap_or(Target::Gfx900);
    let n: usize = args
        .get(2)
        .and_then(|n| n.parse().ok())
        .unwrap_or(1_000_000);
    let mut rng = rand::rngs::StdRng::seed_from_u64(42);
    let words: Vec<u64> = (0..n)
        .map(|i| {
            let enc: u64 = if i % 2 == 0 { 0x36 } else { 0x38 };
            let mut w: u64 = rng.gen();
            // llvm-mc 22 crashes on a MUBUF SOFFSET of 255 (a literal): keep such words out.
            if enc == 0x38 && w >> 56 == 0xff {
                w &= !(0x80u64 << 56);
            }
            (w & !(0x3f << 26)) | (enc << 26)
        })
        .collect();

    // As llvm-mc's: the text goes to /dev/null, through one reused 64 KiB buffer (no
    // allocation per word, one write per buffer).
    let mut sink = std::fs::File::create("/dev/null").expect("/dev/null");
    let start = Instant::now();
    let mut out = String::with_capacity(1 << 17);
    let mut valid = 0usize;
    for w in &words {
        match decode_any(target, &w.to_le_bytes()) {
            Ok(i) => {
                valid += 1;
                let _ = writeln!(out, "{i}");
            }
            Err(e) => {
                let _ = writeln!(out, "{e}");
            }
        }
        if out.len() >= 1 << 16 {
            let _ = sink.write_all(out.as_bytes());
            out.clear();
        }
    }
    let _ = sink.write_all(out.as_bytes());
    let ours = start.elapsed();
    // Breakdown (decode only), for finding where the time goes.
    let start = Instant::now();
    let mut ok = 0usize;
    for w in &words {
        ok += usize::from(std::hint::black_box(decode_any(target, &w.to_le_bytes())).is_ok());
    }
    let decode_only = start.elapsed();
    std::hint::black_box(ok);

    let mut text = String::with_capacity(n * 42);
    // One bracketed group per word: llvm-mc decodes each group on its own (as the live
    // differential test feeds it).
    for w in &words {
        text.push('[');
        for b in w.to_le_bytes() {
            let _ = write!(text, "0x{b:02x} ");
        }
        text.push_str("]\n");
    }
    let path = std::env::temp_dir().join(format!("gcnsmt-bench-{}.txt", std::process::id()));
    std::fs::File::create(&path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .expect("temp file");
    let start = Instant::now();
    let status = std::process::Command::new("llvm-mc-22")
        .args([
            "-arch=amdgcn",
            &format!("-mcpu={}", target.name()),
            "--disassemble",
        ])
        .stdin(std::fs::File::open(&path).expect("temp file"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status();
    let theirs = start.elapsed();
    let _ = std::fs::remove_file(&path);
    println!("target {target}, {n} words ({valid} valid for gcnsmt)");
    // Every word is 8 bytes (DS and MUBUF): MB/s is 8 * words / time / 1e6.
    println!(
        "gcnsmt decode+print: {:.3} s ({:.1} M words/s, {:.0} MB/s); decode alone {:.3} s ({:.0} MB/s)",
        ours.as_secs_f64(),
        n as f64 / ours.as_secs_f64() / 1e6,
        8.0 * n as f64 / ours.as_secs_f64() / 1e6,
        decode_only.as_secs_f64(),
        8.0 * n as f64 / decode_only.as_secs_f64() / 1e6
    );
    match status {
        // Exit status 1 only means some words were invalid; a signal is a crash.
        Ok(s) if !matches!(s.code(), Some(0 | 1)) => println!("llvm-mc-22 failed ({s}); no ratio"),
        Ok(_) => {
            println!("llvm-mc-22 --disassemble: {:.3} s", theirs.as_secs_f64());
            println!(
                "ratio (llvm-mc time / gcnsmt time): {:.1}x",
                theirs.as_secs_f64() / ours.as_secs_f64()
            );
        }
        Err(e) => println!("llvm-mc-22 not run ({e}); install Debian's llvm-22 to compare"),
    }
}
