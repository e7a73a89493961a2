//! Benchmark (not a test): decode-plus-print throughput of gcnsmt against
//! `llvm-mc-22 --disassemble` on the same instruction words, reported as a ratio from one run
//! (the parts: [`gcnsmt_lifter::speed`]).
//!
//! ```sh
//! cargo run --release -p gcnsmt-lifter --example bench_decode -- [CPU] [WORDS]
//! ```
//! gcnsmt's times are the best of three runs; llvm-mc's is one run, process start included.

use gcnsmt_lifter::speed::{mixed_words, time_decode, time_decode_print, time_llvm_mc};
use gcnsmt_semantics::target::Target;

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
    let words = mixed_words(n);
    let (ours, valid) = time_decode_print(target, &words, 3);
    let decode_only = time_decode(target, &words, 3);
    println!("target {target}, {n} words ({valid} valid for gcnsmt)");
    // Every word is 8 bytes (DS and MUBUF): MB/s is 8 * words / time / 1e6.
    let mb_s = |t: std::time::Duration| 8.0 * n as f64 / t.as_secs_f64() / 1e6;
    println!(
        "gcnsmt decode+print: {:.3} s ({:.1} M words/s, {:.0} MB/s); decode alone {:.3} s ({:.0} MB/s)",
        ours.as_secs_f64(),
        n as f64 / ours.as_secs_f64() / 1e6,
        mb_s(ours),
        decode_only.as_secs_f64(),
        mb_s(decode_only)
    );
    match time_llvm_mc(target, &words) {
        Ok(theirs) => {
            println!("llvm-mc-22 --disassemble: {:.3} s", theirs.as_secs_f64());
            println!(
                "ratio (llvm-mc time / gcnsmt time): {:.1}x",
                theirs.as_secs_f64() / ours.as_secs_f64()
            );
        }
        Err(e) => println!("{e}; no ratio"),
    }
}
