//! The machine passes of llc's codegen pipeline, and the MIR between them, for
//! `gcnsmt tv --pipeline FILE`.
//!
//! Which passes: one llc run with `-print-after-all` prints a header
//! `# *** IR Dump After NAME (ARG) ***:` after every machine pass that may change the code (the
//! `#` ones; IR passes print `*** IR Dump` without it), followed by
//! `# Machine code for function F: ...`. The passes are those headers of the first function
//! printed, after instruction selection (`amdgpu-isel`, whose input is IR, not MIR), in order.
//! A pass that occurs several times (`si-fold-operands`, `dead-mi-elimination`, `greedy`) is
//! named `ARG,K`, K its 0-based instance as llc-22 counts it (`-stop-before=si-fold-operands,1`
//! is the second; `,0` the first). An instance llc does not have is not an error to llc-22: it
//! silently runs the whole pipeline, so only instances seen in the headers are ever asked for.
//!
//! The MIR before pass i is `-stop-before=ARG_i,K_i`; the MIR after it is the MIR before pass
//! i+1, and after the last pass the MIR of the whole pipeline. Not `-stop-after` for each pass: llc
//! inserts passes after some passes (`-stop-after=P` runs them too), while consecutive
//! `-stop-before` points differ by exactly the passes between them. Every point comes from
//! the same input and one deterministic pipeline, so virtual register numbers correspond and no
//! MIR is re-read by llc (llc-22 cannot re-read some of its own wave32 MIR). The cost is one llc
//! run per pass, each from the input.

use super::llc::{base_args, run_output, LlcError};
use super::llc_run::Bounds;
use gcnsmt_semantics::target::Target;
use std::path::Path;

/// One machine pass of the pipeline: its argument name and 0-based instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The pass argument (`si-fold-operands`).
    pub pass: String,
    /// Which occurrence of that pass (0 = the first).
    pub instance: u32,
}

impl Step {
    /// The name as llc's `-stop-before` spells it: `ARG` for the first instance, `ARG,K` after.
    pub fn name(&self) -> String {
        if self.instance == 0 {
            self.pass.clone()
        } else {
            format!("{},{}", self.pass, self.instance)
        }
    }
}

/// The optimisation level: the caller's `-O` argument if `extra` has one, else `-O3`.
pub fn with_opt_level(extra: &[String]) -> Vec<String> {
    let mut v = extra.to_vec();
    if !extra.iter().any(|a| a.starts_with("-O")) {
        v.insert(0, "-O3".to_string());
    }
    v
}

/// llc's pipeline arguments for `file`: [`with_opt_level`], and for a `.mir` input
/// `-start-after=amdgpu-isel`. Without it llc-22 runs the IR passes and instruction selection
/// again on the IR a `.mir` embeds (which then fails on `llvm.amdgcn.if` in any kernel with
/// control flow); a `.mir` is taken as the input of the first machine pass, so passes before
/// the point it was written at run again on it. `-start-before`/`-start-after` of the caller
/// are refused ([`super::pipeline_cmd`]): llc counts a pass's instances over the whole
/// pipeline, started or not, so the instance numbers read from the headers would be wrong.
pub fn pipeline_args(file: &Path, extra: &[String]) -> Vec<String> {
    let mut v = with_opt_level(extra);
    if file.extension().is_some_and(|e| e == "mir") {
        v.push("-start-after=amdgpu-isel".into());
    }
    v
}

/// The machine passes of the pipeline from the `-print-after-all` text (llc's stderr).
pub fn parse_headers(text: &str) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut function: Option<&str> = None;
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(rest) = line.strip_prefix("# *** IR Dump After ") else {
            continue;
        };
        let Some(arg) = rest
            .strip_suffix(" ***:")
            .and_then(|r| r.strip_suffix(')'))
            .and_then(|r| r.rsplit_once('(').map(|(_, a)| a))
        else {
            continue;
        };
        // The function the dump is of: only the first function's passes are taken (llc runs
        // the whole machine pipeline on each function in turn).
        let f = lines
            .peek()
            .and_then(|l| l.strip_prefix("# Machine code for function "))
            .and_then(|l| l.split_once(':').map(|(f, _)| f));
        if let (Some(first), Some(f)) = (function, f) {
            if first != f {
                break;
            }
        }
        if function.is_none() {
            function = f;
        }
        if arg == "amdgpu-isel" {
            steps.clear();
            continue;
        }
        let instance = steps.iter().filter(|s: &&Step| s.pass == arg).count() as u32;
        steps.push(Step {
            pass: arg.to_string(),
            instance,
        });
    }
    steps
}

/// The machine passes llc runs on `file` for `target`.
fn passes(
    llc: &str,
    file: &Path,
    target: Target,
    extra: &[String],
    bounds: Bounds,
) -> Result<Vec<Step>, LlcError> {
    let input = file.to_string_lossy().into_owned();
    let args = base_args(
        target,
        &pipeline_args(file, extra),
        &["-print-after-all", &input, "-o", "/dev/null"],
    );
    let (_, err) = run_output(llc, &args, bounds, Some(20))?;
    let steps = parse_headers(&err);
    if steps.is_empty() {
        return Err(LlcError(format!(
            "`{llc} {}` printed no machine pass (no `# *** IR Dump After` header after \
             amdgpu-isel)",
            args.join(" ")
        )));
    }
    Ok(steps)
}

/// The output of one llc run that is asked to stop somewhere: the MIR (stdout) and the pass
/// list `-debug-pass=Arguments` printed (stderr), which shows whether llc stopped.
fn stop_run(
    llc: &str,
    file: &Path,
    target: Target,
    extra: &[String],
    (stop, bounds): (&str, Bounds),
) -> Result<(String, String), LlcError> {
    let input = file.to_string_lossy().into_owned();
    let args = base_args(
        target,
        &pipeline_args(file, extra),
        &[stop, "-debug-pass=Arguments", &input, "-o", "-"],
    );
    run_output(llc, &args, bounds, None)
}

/// The machine passes of one target's pipeline and the MIR after all of them.
#[derive(Clone, Debug)]
pub struct Pipeline {
    /// The passes, in order.
    pub steps: Vec<Step>,
    /// The MIR after the whole pipeline.
    end_mir: String,
    /// The pass list of a run that never stops (see [`Pipeline::mir_before`]).
    end_args: String,
    /// The time and output bounds of every llc run (`--llc-timeout`), as for `tv --pass`.
    bounds: Bounds,
}

impl Pipeline {
    /// List the passes llc runs on `file` for `target`, and run the whole pipeline once;
    /// every llc run, here and in [`Pipeline::mir_before`], within `bounds`.
    pub fn discover(
        llc: &str,
        file: &Path,
        target: Target,
        extra: &[String],
        bounds: Bounds,
    ) -> Result<Pipeline, LlcError> {
        let steps = passes(llc, file, target, extra, bounds)?;
        // An instance of the first pass that llc does not have: llc-22 never stops, and prints
        // the MIR after every pass, with the pass list of a run that does not stop.
        let p = &steps[0];
        let n = steps.iter().filter(|s| s.pass == p.pass).count();
        let never = format!("-stop-before={},{n}", p.pass);
        let (end_mir, end_args) = stop_run(llc, file, target, extra, (&never, bounds))?;
        Ok(Pipeline {
            steps,
            end_mir,
            end_args,
            bounds,
        })
    }

    /// The MIR before step `i` (`-stop-before=ARG,K`), or after the last step for
    /// `i == steps.len()`. A pass llc does not stop before (an analysis such as `slotindexes`,
    /// or a pass added other than by name, such as `stack-frame-layout`) makes llc-22 run the
    /// whole pipeline with no error; its pass list is then that of a run that never stops, and
    /// that is an error here, so the pass is merged with its neighbour, never mislabelled.
    pub fn mir_before(
        &self,
        llc: &str,
        file: &Path,
        target: Target,
        extra: &[String],
        i: usize,
    ) -> Result<String, LlcError> {
        let Some(s) = self.steps.get(i) else {
            return Ok(self.end_mir.clone());
        };
        let stop = format!("-stop-before={},{}", s.pass, s.instance);
        let (mir, args) = stop_run(llc, file, target, extra, (&stop, self.bounds))?;
        if args == self.end_args {
            return Err(LlcError(format!(
                "llc does not stop at {stop} (it runs the whole pipeline): the pass is not \
                 isolable, so it is checked together with the pass before it"
            )));
        }
        Ok(mir)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_of_the_first_function_after_isel_with_instances() {
        let text = "\
*** IR Dump After Expand IR instructions (expand-ir-insts) ***
# *** IR Dump After AMDGPU DAG->DAG Pattern Instruction Selection (amdgpu-isel) ***:
# Machine code for function f: IsSSA, TracksLiveness
# *** IR Dump After SI Fold Operands (si-fold-operands) ***:
# Machine code for function f: IsSSA, TracksLiveness
# *** IR Dump After Machine code sinking (machine-sink) ***:
# Machine code for function f: IsSSA, TracksLiveness
# *** IR Dump After SI Fold Operands (si-fold-operands) ***:
# Machine code for function f: IsSSA, TracksLiveness
# *** IR Dump After AMDGPU DAG->DAG Pattern Instruction Selection (amdgpu-isel) ***:
# Machine code for function g: IsSSA, TracksLiveness
# *** IR Dump After SI Fold Operands (si-fold-operands) ***:
# Machine code for function g: IsSSA, TracksLiveness
";
        let names: Vec<String> = parse_headers(text).iter().map(Step::name).collect();
        assert_eq!(
            names,
            ["si-fold-operands", "machine-sink", "si-fold-operands,1"]
        );
    }

    #[test]
    fn an_explicit_opt_level_is_kept() {
        assert_eq!(with_opt_level(&[]), ["-O3"]);
        let o1 = vec!["-O1".to_string()];
        assert_eq!(with_opt_level(&o1), ["-O1"]);
    }
}
