//! The exit status of every `gcnsmt` command, one meaning per code (as ruff's `ExitStatus`),
//! so no command returns a bare integer.

/// How a command ended. The process exit code is the discriminant.
///
/// Per command: `verify` uses all four; `spec-check` Proved (nothing found), Refuted (a
/// finding) and InputError; `atomics` Proved, Refuted (the brute force contradicts a proved
/// verdict, or an expectation is not met) and InputError; `bench`, `decode`, `encode` and
/// `lift` Proved (done) and InputError.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum ExitStatus {
    /// 0: everything proved or as expected (nothing found; the command did its job).
    Proved = 0,
    /// 1: something refuted unexpectedly, or an expectation mismatch.
    Refuted = 1,
    /// 2: an input could not be read or used, or a tool (solver) failed.
    InputError = 2,
    /// 3: nothing refuted, but something left undecided (a solver timeout).
    Inconclusive = 3,
}

impl ExitStatus {
    /// The process exit code (0..=3).
    pub fn code(self) -> u8 {
        self as u8
    }
}

impl From<ExitStatus> for std::process::ExitCode {
    fn from(s: ExitStatus) -> Self {
        std::process::ExitCode::from(s.code())
    }
}

/// Write `text` to standard output and flush it. Output that cannot be written (a closed
/// pipe, a full disk) is a tool error: one line on stderr and exit status 2
/// ([`ExitStatus::InputError`]), since a result nobody received must not exit 0.
pub fn write_stdout(text: &str) {
    use std::io::Write;
    let mut so = std::io::stdout().lock();
    if let Err(e) = so.write_all(text.as_bytes()).and_then(|()| so.flush()) {
        eprintln!("error: cannot write to standard output: {e}");
        std::process::exit(2);
    }
}

#[cfg(test)]
mod tests {
    use super::ExitStatus;

    #[test]
    fn codes_are_the_documented_ones() {
        // The codes README and `gcnsmt --help` promise: 0 proved, 1 refuted, 2 input, 3 unknown.
        assert_eq!(ExitStatus::Proved.code(), 0);
        assert_eq!(ExitStatus::Refuted.code(), 1);
        assert_eq!(ExitStatus::InputError.code(), 2);
        assert_eq!(ExitStatus::Inconclusive.code(), 3);
    }
}
