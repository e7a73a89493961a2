//! What tv is doing before its per-block progress bar starts: reading the files, the
//! register-allocation checker, pairing functions and blocks. On a large file these phases take
//! seconds (a 10,000-block function about 20 s, issue 33) and showed nothing. Each phase shows a
//! spinner on stderr while it runs (drawn only on a terminal) and logs its time at debug level
//! (`-v`, `RUST_LOG`).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Phases running now: a phase inside another (the register-allocation checker re-validates
/// the functions it did not prove) logs its time but draws no second spinner over the first.
static DEPTH: AtomicUsize = AtomicUsize::new(0);

/// Run `f` as the phase `name` of the file `file`.
pub fn step<T>(name: &str, file: &str, f: impl FnOnce() -> T) -> T {
    let depth = DEPTH.fetch_add(1, Ordering::SeqCst);
    let spin = (depth == 0).then(|| {
        let s =
            indicatif::ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::stderr());
        s.set_style(
            indicatif::ProgressStyle::with_template("{spinner} {msg}  {elapsed}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
        );
        s.set_message(format!("tv: {name} ({file})"));
        s.enable_steady_tick(Duration::from_millis(250));
        s
    });
    let t0 = Instant::now();
    let out = f();
    if let Some(s) = spin {
        s.finish_and_clear();
    }
    DEPTH.fetch_sub(1, Ordering::SeqCst);
    let ms = t0.elapsed().as_secs_f64() * 1e3;
    tracing::debug!("tv phase `{name}` of {file}: {ms:.1} ms");
    out
}
