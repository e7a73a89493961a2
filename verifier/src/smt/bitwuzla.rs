//! Bitwuzla, the second solver, in long-lived worker processes: Python with the `bitwuzla`
//! package (its wheel bundles the solver; `pip install bitwuzla`), running
//! `bitwuzla_worker.py`, fed each query as the SMT-LIB text of [`super::Query::to_smt2`].
//! The in-process binding (`bitwuzla-sys`) does not build offline here: its vendored build
//! downloads GMP 6.3, CaDiCaL and SymFPU (docs/benchmarks.md, "Second solver").
//!
//! A worker answers one query at a time; idle workers wait in a pool, so each thread of a
//! parallel run gets its own. A worker is killed (not returned) when its query is abandoned
//! (time limit, or the other solver of a portfolio answered first).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The environment variable naming the Python interpreter that has the `bitwuzla` package
/// (default `python3`).
pub const PYTHON_VAR: &str = "GCNSMT_PYTHON";

const SCRIPT: &str = include_str!("bitwuzla_worker.py");

/// Bitwuzla's answer, before it is turned into a z3 model.
pub enum Reply {
    /// A model: declared constants `(name, value)` and function applications
    /// `(name, argument values, value)`; values as binary digits or `true`/`false`.
    Sat {
        consts: Vec<(String, String)>,
        apps: Vec<(String, Vec<String>, String)>,
    },
    Unsat,
    /// Unknown, a time limit, an error of the worker, or cancelled: the reason.
    Unknown(String),
}

/// One worker process.
struct Worker {
    child: Arc<Mutex<Child>>,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

static POOL: Mutex<Vec<Worker>> = Mutex::new(Vec::new());

fn python() -> String {
    std::env::var(PYTHON_VAR).unwrap_or_else(|_| "python3".into())
}

impl Worker {
    fn spawn() -> Result<Worker, String> {
        let mut child = Command::new(python())
            .arg("-c")
            .arg(SCRIPT)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {} for Bitwuzla: {e}", python()))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        Ok(Worker {
            child: Arc::new(Mutex::new(child)),
            stdin,
            stdout,
        })
    }

    fn send(&mut self, text: &str, limit: Duration) -> std::io::Result<()> {
        let ms = limit.as_millis().clamp(1, u32::MAX as u128);
        write!(self.stdin, "{ms} {}\n{text}", text.len())?;
        self.stdin.flush()
    }

    fn receive(&mut self) -> Result<Reply, String> {
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            match self.stdout.read_line(&mut line) {
                Ok(0) | Err(_) => return Err("the Bitwuzla worker ended".into()),
                Ok(_) => {}
            }
            let line = line.trim_end_matches('\n').to_string();
            if line == "end" {
                break;
            }
            lines.push(line);
        }
        parse(&lines)
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let mut c = self.child.lock().unwrap_or_else(|e| e.into_inner());
        let _ = c.kill();
        let _ = c.wait();
    }
}

fn parse(lines: &[String]) -> Result<Reply, String> {
    let first = lines
        .first()
        .ok_or("an empty answer from the Bitwuzla worker")?;
    let mut fields = first.splitn(2, '\t');
    match (fields.next(), fields.next()) {
        (Some("unsat"), _) => Ok(Reply::Unsat),
        (Some("unknown"), r) => Ok(Reply::Unknown(r.unwrap_or("unknown").into())),
        (Some("error"), r) => Err(format!("Bitwuzla: {}", r.unwrap_or("error"))),
        (Some("sat"), _) => {
            let (mut consts, mut apps) = (Vec::new(), Vec::new());
            for l in &lines[1..] {
                let f: Vec<&str> = l.split('\t').collect();
                match f.as_slice() {
                    ["c", name, v] => consts.push((name.to_string(), v.to_string())),
                    ["f", name, rest @ .., v] => apps.push((
                        name.to_string(),
                        rest.iter().map(|s| s.to_string()).collect(),
                        v.to_string(),
                    )),
                    _ => return Err(format!("a bad model line from the Bitwuzla worker: {l}")),
                }
            }
            Ok(Reply::Sat { consts, apps })
        }
        _ => Err(format!("a bad answer from the Bitwuzla worker: {first}")),
    }
}

/// A query handed to a worker; [`Pending::wait`] reads the answer.
pub struct Pending {
    worker: Worker,
    limit: Duration,
}

/// Kills a pending query's worker from another thread (the portfolio's loser).
#[derive(Clone)]
pub struct Canceller(Arc<Mutex<Child>>);

impl Canceller {
    /// Kill the worker: its pending query answers `unknown`.
    pub fn cancel(&self) {
        let _ = self.0.lock().unwrap_or_else(|e| e.into_inner()).kill();
    }
}

/// Hand `text` (SMT-LIB) to an idle worker (started if none is idle), with time limit `limit`.
///
/// Errors: no worker can be started.
pub fn start(text: &str, limit: Duration) -> Result<Pending, String> {
    let idle = POOL.lock().unwrap_or_else(|e| e.into_inner()).pop();
    let mut worker = match idle {
        Some(w) => w,
        None => Worker::spawn()?,
    };
    if worker.send(text, limit).is_err() {
        // An idle worker that died: one fresh try.
        worker = Worker::spawn()?;
        worker
            .send(text, limit)
            .map_err(|e| format!("cannot send a query to the Bitwuzla worker: {e}"))?;
    }
    Ok(Pending { worker, limit })
}

impl Pending {
    /// A handle that kills this query's worker.
    pub fn canceller(&self) -> Canceller {
        Canceller(self.worker.child.clone())
    }

    /// The answer. Bitwuzla's own time limit normally ends a hard query; a worker that has
    /// not answered a second after it is killed, and the answer is unknown.
    pub fn wait(mut self) -> Reply {
        let kill = self.canceller();
        let grace = self.limit + Duration::from_secs(1);
        let r = super::watchdog::within(grace, || kill.cancel(), || self.worker.receive());
        match r {
            Ok(reply) => {
                POOL.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(self.worker);
                reply
            }
            Err(e) => {
                // The worker was killed (time limit, or the portfolio's other solver answered
                // first): start its replacement now, so its start-up (about 0.1 s of Python
                // importing the package) overlaps the caller's work instead of the next query.
                if let Ok(w) = Worker::spawn() {
                    POOL.lock().unwrap_or_else(|e| e.into_inner()).push(w);
                }
                Reply::Unknown(e)
            }
        }
    }
}

/// Whether a worker starts and answers a trivial query (for a clear error before a run).
///
/// Errors: why not, with how to install the package.
pub fn available() -> Result<(), String> {
    let p = start("(assert true)", Duration::from_secs(10))?;
    match p.wait() {
        Reply::Sat { .. } => Ok(()),
        _ => Err(format!(
            "the Bitwuzla worker does not answer: {} needs the `bitwuzla` Python package \
             (pip install bitwuzla; {PYTHON_VAR} names another interpreter)",
            python()
        )),
    }
}
