//! `tv --llc-verify`: both MIR files must be what llc itself accepts. tv's own reader checks
//! the structure it relies on (issue 27: duplicate functions and keys, tabs, missing blocks),
//! but only llc knows every register class, operand list and machine-verifier rule; a file it
//! rejects is an input error, reported at llc's `file:line:col` when llc gives one.

use gcnsmt_semantics::target::Target;
use std::path::Path;
use std::process::Command;

/// Run `llc -run-pass=none -verify-machineinstrs` on `file`; the error message when llc
/// rejects it (or cannot run).
pub fn check(llc: &str, file: &Path, target: Option<Target>) -> Result<(), String> {
    let mut cmd = Command::new(llc);
    cmd.arg("-mtriple=amdgcn");
    if let Some(t) = target {
        cmd.arg(format!("-mcpu={}", t.name()));
    }
    cmd.args(["-run-pass=none", "-verify-machineinstrs", "-o", "/dev/null"])
        .arg(file);
    let out = cmd.output().map_err(|e| {
        format!("error: --llc-verify: cannot run `{llc}`: {e} (install LLVM 22 or pass --llc)")
    })?;
    if out.status.success() {
        return Ok(());
    }
    let err = String::from_utf8_lossy(&out.stderr);
    // A parse error: `error: FILE:LINE:COL: message` -> our `FILE:LINE:COL: error: message`.
    let re = regex::Regex::new(r"(?m)^(?:\S+: )?error: (\S+):(\d+):(\d+): (.*)$").expect("regex");
    if let Some(c) = re.captures(&err) {
        return Err(format!(
            "{}:{}:{}: error: {} (llc rejects the file)",
            &c[1], &c[2], &c[3], &c[4]
        ));
    }
    let detail: Vec<&str> = err
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(12)
        .collect();
    Err(format!(
        "{}:1:1: error: `{llc} -run-pass=none -verify-machineinstrs` rejects the file:\n{}",
        file.display(),
        detail.join("\n")
    ))
}
