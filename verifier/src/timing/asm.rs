//! Read llc's `.s` output (or hand-written assembly in the same syntax): the target, and per
//! function its instructions and labels. Only code sections are read; the kernel descriptor
//! (`.amdhsa_kernel`) and the metadata (`.amdgpu_metadata`, `.amdgpu_pal_metadata`) blocks are
//! skipped.

use gcnsmt_semantics::target::Target;
use std::collections::HashMap;

/// One instruction line.
#[derive(Clone, Debug)]
pub struct Inst {
    /// 1-based line and column of the mnemonic.
    pub line: usize,
    /// Column (1-based).
    pub col: usize,
    /// Lower-case mnemonic.
    pub mnemonic: String,
    /// Everything after the mnemonic, comment removed.
    pub operands: String,
}

impl Inst {
    /// The instruction as written (mnemonic and operands).
    pub fn text(&self) -> String {
        if self.operands.is_empty() {
            self.mnemonic.clone()
        } else {
            format!("{} {}", self.mnemonic, self.operands)
        }
    }
}

/// One function: its instructions in order and where each label points.
#[derive(Clone, Debug, Default)]
pub struct Function {
    /// Symbol name.
    pub name: String,
    /// Whether it is a kernel (`.amdhsa_kernel NAME`, or an `amdgpu_kernel` outside HSA):
    /// kernels start with nothing pending; other functions start with whatever the caller
    /// left pending.
    pub kernel: bool,
    /// Line of the function label.
    pub line: usize,
    /// The instructions.
    pub insts: Vec<Inst>,
    /// Label name -> index of the instruction that follows it.
    pub labels: HashMap<String, usize>,
}

/// A parsed assembly file.
#[derive(Clone, Debug)]
pub struct AsmFile {
    /// From `.amdgcn_target` or the caller's choice.
    pub target: Option<Target>,
    /// The functions in file order.
    pub functions: Vec<Function>,
}

/// A parse error: file position and message.
#[derive(Clone, Debug)]
pub struct ParseError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
    /// What is wrong.
    pub msg: String,
}

/// Strip a `;` or `//` comment (strings are not expected on instruction lines).
fn strip_comment(line: &str) -> &str {
    let cut = [line.find(';'), line.find("//")]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(line.len());
    &line[..cut]
}

/// The CPU of an `.amdgcn_target "amdgcn-amd-amdhsa--gfx900:xnack-"` line.
fn target_of_directive(rest: &str) -> Option<Target> {
    let s = rest.trim().trim_matches('"');
    let cpu = s.rsplit('-').next()?.split(':').next()?;
    Target::parse(cpu)
}

/// Parser state: which section and block we are in.
#[derive(Default)]
struct State {
    in_text: bool,
    skipping_until: Option<&'static str>,
    function_names: Vec<String>,
    kernels: Vec<String>,
    /// The current section's name, and that of the function being read.
    section: String,
    fn_section: String,
    /// An `.AMDGPU.config` section (outside HSA: the register settings llc writes before
    /// each kernel or shader entry) was seen since the last function began.
    config_seen: bool,
}

/// Parse `text`. Errors point at the offending line and column.
pub fn parse(text: &str) -> Result<AsmFile, ParseError> {
    let mut st = State {
        in_text: true,
        section: ".text".into(),
        fn_section: ".text".into(),
        ..State::default()
    };
    let mut target = None;
    let mut functions: Vec<Function> = Vec::new();
    let mut current: Option<Function> = None;
    for (n, raw) in text.lines().enumerate() {
        let line_no = n + 1;
        if raw.trim() == "; return to shader part epilog" && st.skipping_until.is_none() {
            if let (true, Some(f)) = (st.in_text, current.as_mut()) {
                let col = raw.len() - raw.trim_start().len() + 1;
                f.insts.push(Inst {
                    line: line_no,
                    col,
                    mnemonic: super::implicit::EPILOG.to_string(),
                    operands: String::new(),
                });
            }
            continue;
        }
        let code = strip_comment(raw);
        let (code, label) = match st.skipping_until {
            None => super::asm_dir::split_label(code),
            Some(_) => (code, None),
        };
        if let Some(label) = label {
            // `L1: s_waitcnt vmcnt(0)`: the label, then the rest of the line.
            on_label(label, line_no, &mut st, &mut current, &mut functions);
        }
        let trimmed = code.trim();
        if trimmed.is_empty() {
            continue;
        }
        // Columns count from the line's start (`code` is a slice of it).
        let col = code.as_ptr() as usize - raw.as_ptr() as usize + code.len()
            - code.trim_start().len()
            + 1;
        if let Some(end) = st.skipping_until {
            if trimmed.starts_with(end) {
                st.skipping_until = None;
            } else if end == ".end_amdgpu_pal_metadata" {
                // PAL names its hardware-stage entry points here (no `.amdhsa_kernel`): a
                // stage starts with nothing pending, like a kernel.
                if let Some(sym) = trimmed.strip_prefix(".entry_point_symbol:") {
                    st.kernels.push(sym.trim().to_string());
                }
            }
            continue;
        }
        if let Some(label) = trimmed.strip_suffix(':') {
            if label.contains(char::is_whitespace) {
                return Err(ParseError {
                    line: line_no,
                    col,
                    msg: format!("malformed label `{trimmed}`"),
                });
            }
            if label.starts_with(".Lfunc_end") {
                functions.extend(current.take());
            } else {
                on_label(label, line_no, &mut st, &mut current, &mut functions);
            }
            continue;
        }
        if trimmed.starts_with('.') {
            // Data in code between functions is llc's `s_code_end` padding (`.fill`): only
            // inside a function can it be instructions the reader would miss.
            let in_code = st.in_text && current.is_some();
            super::asm_dir::refuse(trimmed, line_no, col, in_code)?;
            directive(trimmed, line_no, col, &mut st, &mut target)?;
            continue;
        }
        if !st.in_text {
            continue;
        }
        let Some(f) = current.as_mut() else {
            return Err(ParseError {
                line: line_no,
                col,
                msg: format!("instruction outside a function: `{trimmed}`"),
            });
        };
        let (mnemonic, operands) = match trimmed.split_once(char::is_whitespace) {
            Some((m, o)) => (m, o.trim()),
            None => (trimmed, ""),
        };
        if !mnemonic
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            return Err(ParseError {
                line: line_no,
                col,
                msg: format!("malformed mnemonic `{mnemonic}`"),
            });
        }
        if st.fn_section != st.section {
            return Err(ParseError {
                line: line_no,
                col,
                msg: format!(
                    "instruction in section `{}`, but function `{}` began in `{}`",
                    st.section, f.name, st.fn_section
                ),
            });
        }
        f.insts.push(Inst {
            line: line_no,
            col,
            mnemonic: mnemonic.to_ascii_lowercase(),
            operands: operands.to_string(),
        });
    }
    functions.extend(current.take());
    for f in &mut functions {
        f.kernel = st.kernels.contains(&f.name);
    }
    Ok(AsmFile { target, functions })
}

/// A label: a new function where the name was declared `@function` (or, in hand-written
/// assembly, any non-local label outside a function), otherwise a branch target.
fn on_label(
    label: &str,
    line_no: usize,
    st: &mut State,
    current: &mut Option<Function>,
    functions: &mut Vec<Function>,
) {
    let local = label.starts_with(".L") || label.starts_with('$');
    let declared = st.function_names.iter().any(|n| n == label);
    if declared || (!local && current.is_none()) {
        functions.extend(current.take());
        st.fn_section = st.section.clone();
        if std::mem::take(&mut st.config_seen) {
            st.kernels.push(label.to_string());
        }
        *current = Some(Function {
            name: label.to_string(),
            line: line_no,
            ..Function::default()
        });
    } else if let Some(f) = current.as_mut() {
        let at = f.insts.len();
        f.labels.insert(label.to_string(), at);
    }
}

/// Directives that matter: sections, function and kernel declarations, the target.
fn directive(
    d: &str,
    line_no: usize,
    col: usize,
    st: &mut State,
    target: &mut Option<Target>,
) -> Result<(), ParseError> {
    let (name, rest) = d.split_once(char::is_whitespace).unwrap_or((d, ""));
    match name {
        ".text" => {
            st.in_text = true;
            st.section = ".text".into();
        }
        ".section" => {
            st.in_text = rest.trim().starts_with(".text");
            st.section = rest.split(',').next().unwrap_or("").trim().to_string();
            st.config_seen |= rest.trim().starts_with(".AMDGPU.config");
        }
        ".data" | ".rodata" | ".bss" => {
            st.in_text = false;
            st.section = name.to_string();
        }
        ".amdgpu_metadata" => st.skipping_until = Some(".end_amdgpu_metadata"),
        // PAL's metadata (`-mtriple=amdgcn-amd-amdpal`) is YAML data for the driver, like
        // HSA's above: nothing in it is assembled into the function.
        ".amdgpu_pal_metadata" => st.skipping_until = Some(".end_amdgpu_pal_metadata"),
        ".amdhsa_kernel" => {
            st.kernels.push(rest.trim().to_string());
            st.skipping_until = Some(".end_amdhsa_kernel");
        }
        ".type" => {
            if let Some((sym, kind)) = rest.split_once(',') {
                if kind.trim() == "@function" {
                    st.function_names.push(sym.trim().to_string());
                }
            }
        }
        ".amdgcn_target" => {
            *target = Some(target_of_directive(rest).ok_or_else(|| ParseError {
                line: line_no,
                col,
                msg: format!("unknown target in `{d}`"),
            })?);
        }
        _ => {}
    }
    Ok(())
}
