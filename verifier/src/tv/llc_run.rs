//! One llc command with a time limit and a bound on what is read from it: an llc that hangs
//! or writes without end must become that target's `error`, not a hung or aborted `tv`
//! (issue 33). The solver's `--timeout` bounds only solver queries.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The default `--llc-timeout`, in seconds: the slowest single llc run over LLVM's AMDGPU
/// tests takes a few seconds, so five minutes means a hang, not a big input.
pub const DEFAULT_TIMEOUT_SECS: f64 = 300.0;

/// The most bytes read from llc's stdout or stderr (256 MiB; the largest MIR llc writes for
/// LLVM's AMDGPU tests is a few MiB). Past it the run is an error.
pub const MAX_OUTPUT_BYTES: u64 = 256 << 20;

/// How long one llc run may take and how much it may write.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    /// Wall-clock limit of one llc run.
    pub timeout: Duration,
    /// The most bytes read from each of stdout and stderr.
    pub max_output: u64,
}

/// How a bounded run ended.
pub enum Outcome {
    /// llc exited: its status, stdout and stderr.
    Exited(std::process::ExitStatus, Vec<u8>, Vec<u8>),
    /// llc ran past [`Bounds::timeout`] and was killed.
    TimedOut,
    /// llc wrote more than [`Bounds::max_output`] bytes and was killed.
    TooMuchOutput,
}

/// Read at most `max` bytes of `r`; on more, raise `over` and stop (the caller kills llc,
/// which closes the pipe).
fn drain(r: impl Read + Send + 'static, max: u64, over: Arc<AtomicBool>) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = r.take(max + 1).read_to_end(&mut v);
        if v.len() as u64 > max {
            over.store(true, Ordering::SeqCst);
        }
        v
    })
}

/// Kill llc and everything it started: a wrapper script's children hold the pipes open, so
/// killing only the script would leave the readers waiting.
fn kill_group(child: &mut std::process::Child) {
    // The child leads its own process group (`process_group(0)` below), so -pid is the group.
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{}", child.id())])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    let _ = child.kill();
    let _ = child.wait();
}

/// Run `program args` within `b`. Errors: llc could not be started or waited for.
pub fn run(program: &str, args: &[String], b: Bounds) -> std::io::Result<Outcome> {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()?;
    let over = Arc::new(AtomicBool::new(false));
    let out = drain(
        child.stdout.take().expect("piped"),
        b.max_output,
        over.clone(),
    );
    let err = drain(
        child.stderr.take().expect("piped"),
        b.max_output,
        over.clone(),
    );
    let deadline = Instant::now() + b.timeout;
    let status = loop {
        if over.load(Ordering::SeqCst) {
            kill_group(&mut child);
            break None;
        }
        if let Some(s) = child.try_wait()? {
            break Some(s);
        }
        if Instant::now() >= deadline {
            kill_group(&mut child);
            let _ = (out.join(), err.join());
            return Ok(Outcome::TimedOut);
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let (stdout, stderr) = (
        out.join().unwrap_or_default(),
        err.join().unwrap_or_default(),
    );
    // llc may have exited just as a reader passed the bound.
    match status {
        Some(s) if !over.load(Ordering::SeqCst) => Ok(Outcome::Exited(s, stdout, stderr)),
        _ => Ok(Outcome::TooMuchOutput),
    }
}
