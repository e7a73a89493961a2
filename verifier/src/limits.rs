//! The limits every command applies to what it is given, in one place so that `verify`,
//! `spec-check`, `atomics`, `bench` and `tv` agree: the largest time limit, the largest input
//! file, which files are read at all, and the stack of worker threads. docs/cli.md states them.

use std::io::Read;
use std::path::Path;
use std::time::Duration;

/// The largest `--timeout`, in seconds (one week). `Duration::from_secs_f64` panics past about
/// 1.8e19 s, and no solver query is worth waiting longer than this for.
pub const MAX_TIMEOUT_SECS: f64 = 7.0 * 24.0 * 3600.0;

/// A `--timeout` in seconds as a [`Duration`]. Errors (a usage error's text, without the
/// flag's name, which callers print as `--timeout: TEXT`): zero, a negative number, NaN,
/// infinity, or more than [`MAX_TIMEOUT_SECS`].
pub fn timeout(secs: f64) -> Result<Duration, String> {
    if !(secs > 0.0 && secs.is_finite()) {
        return Err(format!("{secs}: must be a positive number of seconds"));
    }
    if secs > MAX_TIMEOUT_SECS {
        return Err(format!(
            "{secs}: at most {MAX_TIMEOUT_SECS} seconds (one week)"
        ));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// The largest input file, in bytes (64 MiB; the whole rule corpus is under 1 MiB, AMD's
/// largest ISA XML about 20 MiB). Past it a file is an error instead of exhausting memory.
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// The stack of each worker thread, in bytes (64 MiB). Parsers bound nesting
/// ([`gcnsmt_semantics::parse::MAX_DEPTH`]), and the recursive passes over a tree of that
/// depth (evaluation, z3 encoding, egg, printing) need a few MiB; the rest is headroom. Only
/// touched pages cost memory.
pub const WORKER_STACK_BYTES: usize = 64 << 20;

/// Give the global rayon pool's threads [`WORKER_STACK_BYTES`] of stack. Call once, before any
/// parallel work; a second call (or a pool already started) is ignored.
pub fn init_worker_threads() {
    let _ = rayon::ThreadPoolBuilder::new()
        .stack_size(WORKER_STACK_BYTES)
        .build_global();
}

/// Make sure `dir` is a directory this process can create files in (`--cache`,
/// `--emit-smt2`), creating it if needed: an output directory that silently takes nothing
/// would make a run look cached or dumped when it is not. Errors: the path is a file, it
/// cannot be created, or a probe file cannot be written there.
pub fn writable_dir(dir: &Path) -> Result<(), String> {
    if dir.exists() && !dir.is_dir() {
        return Err("exists and is not a directory".into());
    }
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    let probe = dir.join(format!(".gcnsmt-probe-{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(|e| format!("cannot write there: {e}"))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// Why an input file could not be read: a 1-based line and column (1:1 unless the fault is at
/// a byte, as for invalid UTF-8) and a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub col: u32,
    /// What is wrong.
    pub msg: String,
}

impl ReadError {
    fn whole(msg: impl Into<String>) -> ReadError {
        ReadError {
            line: 1,
            col: 1,
            msg: msg.into(),
        }
    }
}

/// Read a text input: a regular file of at most [`MAX_INPUT_BYTES`], UTF-8, a leading byte
/// order mark dropped. Errors: not a regular file, too large, unreadable, or invalid UTF-8
/// (at the line and column of the first bad byte).
pub fn read_text(path: &Path) -> Result<String, ReadError> {
    let meta = std::fs::metadata(path).map_err(|e| ReadError::whole(e.to_string()))?;
    if !meta.is_file() {
        return Err(ReadError::whole(
            "not a regular file (FIFOs and devices are not read)",
        ));
    }
    let too_big = || {
        ReadError::whole(format!(
            "larger than the input limit of {} MiB",
            MAX_INPUT_BYTES >> 20
        ))
    };
    if meta.len() > MAX_INPUT_BYTES {
        return Err(too_big());
    }
    let mut bytes = Vec::new();
    let f = std::fs::File::open(path).map_err(|e| ReadError::whole(e.to_string()))?;
    // `take`, as the file may grow after the size was looked at.
    f.take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| ReadError::whole(e.to_string()))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(too_big());
    }
    decode(bytes)
}

/// `bytes` as UTF-8 text without a leading byte order mark; an error at the first bad byte.
pub fn decode(mut bytes: Vec<u8>) -> Result<String, ReadError> {
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = good.iter().filter(|b| **b == b'\n').count() + 1;
        let start = good.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
        // Valid UTF-8 up to the bad byte, so the line's start is text: count its characters.
        let col = std::str::from_utf8(&good[start..]).map_or(1, |t| t.chars().count() + 1);
        ReadError {
            line: line as u32,
            col: col as u32,
            msg: "invalid UTF-8 (input files are UTF-8 text)".into(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeouts_past_the_maximum_or_not_positive_are_errors() {
        assert_eq!(timeout(1.5), Ok(Duration::from_millis(1500)));
        assert_eq!(timeout(604_800.0), Ok(Duration::from_secs(7 * 24 * 3600)));
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, 604_800.5, 1e20] {
            assert!(timeout(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_bom_is_dropped_and_bad_utf8_is_located() {
        assert_eq!(decode(b"\xEF\xBB\xBFName: x".to_vec()).unwrap(), "Name: x");
        // Line 2 is "ab" then the stray continuation byte 0x80: column 3 (a hand count).
        let e = decode(b"first\nab\x80cd\n".to_vec()).unwrap_err();
        assert_eq!((e.line, e.col), (2, 3));
        // Columns count characters: "é" (2 bytes) then 0xff is column 2.
        let e = decode("x\né".bytes().chain([0xff]).collect()).unwrap_err();
        assert_eq!((e.line, e.col), (2, 2));
        let e = decode(b"\xff".to_vec()).unwrap_err();
        assert_eq!((e.line, e.col), (1, 1));
    }
}
