//! Run a blocking call with a deadline: if it has not returned by then, a watcher thread
//! calls a stop action (interrupt a solver, kill a worker), and the call returns as that
//! makes it (an unknown answer, never a verdict).

use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// `f()`, with `stop()` called from another thread if `f` runs longer than `grace`.
pub fn within<R>(grace: Duration, stop: impl FnOnce() + Send, f: impl FnOnce() -> R) -> R {
    let done = Mutex::new(false);
    let wake = Condvar::new();
    let (done, wake) = (&done, &wake);
    std::thread::scope(|s| {
        s.spawn(move || {
            let guard = done.lock().unwrap_or_else(|e| e.into_inner());
            let (guard, _) = wake
                .wait_timeout_while(guard, grace, |finished| !*finished)
                .unwrap_or_else(|e| e.into_inner());
            if !*guard {
                stop();
            }
        });
        let r = f();
        *done.lock().unwrap_or_else(|e| e.into_inner()) = true;
        wake.notify_all();
        r
    })
}
