//! The `gcnsmt waitcnt` command line.

use super::check::check_text;
use super::classify::Settings;
use super::report;
use crate::exit::{write_stdout, ExitStatus};
use gcnsmt_semantics::target::Target;
use std::path::PathBuf;
use std::time::Instant;

/// Output format.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Format {
    /// One line per finding.
    Text,
    /// One JSON document.
    Json,
}

/// `gcnsmt waitcnt` arguments.
#[derive(clap::Args, Debug)]
pub struct WaitcntArgs {
    /// llc's `.s` output (or hand-written assembly in LLVM syntax), or MIR after register
    /// allocation (`llc -stop-after=si-insert-waitcnts`: read when the file has a `body:`), or
    /// `llvm-objdump -d` output of a code object (give --target).
    pub file: PathBuf,
    /// Target (-mcpu name); default: the file's `.amdgcn_target`.
    #[arg(long)]
    pub target: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Named settings: `flat-lds=never` (assume no FLAT access reaches LDS; default `may`).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub settings: Vec<String>,
}

/// Parse the `--set` values.
fn settings(list: &[String]) -> Result<Settings, String> {
    let mut s = Settings::default();
    for item in list {
        match item.as_str() {
            "flat-lds=never" => s.flat_never_lds = true,
            "flat-lds=may" => s.flat_never_lds = false,
            _ => {
                return Err(format!(
                    "unknown setting `{item}` (known: flat-lds=may|never)"
                ))
            }
        }
    }
    Ok(s)
}

/// The MIR reader (`tv::wait_mir::check_mir`, passed in by the caller: tv's MIR reader
/// depends on this module, not the other way round).
pub type MirReader = fn(
    &str,
    &str,
    Option<Target>,
    Settings,
) -> Result<(Target, Vec<super::check::FnReport>), super::check::InputError>;

/// Whether `text` looks like MIR (a YAML document with a `body:`).
pub fn is_mir(text: &str) -> bool {
    text.lines().any(|l| l.starts_with("body:")) && text.contains("---")
}

/// Run: exit 0 no hazard, 1 a hazard, 2 bad input, 3 no hazard but an instruction whose
/// counters are not known. `mir` reads MIR files.
pub fn run(a: &WaitcntArgs, mir: MirReader) -> ExitStatus {
    let start = Instant::now();
    let name = a.file.display().to_string();
    let target = match a.target.as_deref().map(|t| (t, Target::parse(t))) {
        Some((t, None)) => {
            eprintln!("error: unknown target `{t}`");
            return ExitStatus::InputError;
        }
        Some((_, Some(t))) => Some(t),
        None => None,
    };
    let set = match settings(&a.settings) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitStatus::InputError;
        }
    };
    // Regular files of at most 64 MiB only (a FIFO or /dev/zero would block or grow without
    // bound); invalid UTF-8 at its line and column.
    let text = match crate::limits::read_text(&a.file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{name}:{}:{}: error: {}", e.line, e.col, e.msg);
            return ExitStatus::InputError;
        }
    };
    let checked = if is_mir(&text) {
        mir(&name, &text, target, set)
    } else if super::objdump::is_objdump(&text) {
        super::objdump::check_objdump(&text, target, set)
    } else {
        check_text(&text, target, set)
    };
    let (target, fns) = match checked {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{name}:{}:{}: error: {}", e.line, e.col, e.msg);
            return ExitStatus::InputError;
        }
    };
    let secs = start.elapsed().as_secs_f64();
    match a.format {
        Format::Text => write_stdout(&report::text(&name, target.name(), &fns, secs)),
        Format::Json => write_stdout(&format!(
            "{}\n",
            serde_json::to_string_pretty(&report::json(&name, target.name(), &fns)).expect("json")
        )),
    }
    let (h, u, _) = report::totals(&fns);
    if h > 0 {
        ExitStatus::Refuted
    } else if u > 0 {
        ExitStatus::Inconclusive
    } else {
        ExitStatus::Proved
    }
}
