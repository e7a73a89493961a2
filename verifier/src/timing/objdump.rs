//! `gcnsmt waitcnt` on `llvm-objdump -d` output of an AMDGPU code object: one function per
//! `ADDRESS <symbol>:` header, one instruction per line with its address in the trailing
//! `// ADDRESS: ENCODING` comment; branch operands are raw offsets, and objdump names their
//! target in a `<symbol+0xOFF>` comment, which becomes the label here. The disassembly names
//! no target (give `--target`) and does not say which symbols are kernels: a function with an
//! `s_endpgm` and no `s_setpc_b64`/`s_set_pc_i64` (no return) is taken as an entry (nothing
//! pending at its start); any other as a callable function (the caller's left-overs pending).
//! A relaxed long branch (`objdump_branch.rs`) is a branch, not a return.

use super::asm::{Function, Inst, ParseError};
use super::check::{check_function, FnReport, InputError};
use super::classify::Settings;
use gcnsmt_semantics::target::Target;
use std::collections::HashMap;

/// Whether `text` is `llvm-objdump` output for AMDGPU.
pub fn is_objdump(text: &str) -> bool {
    text.lines()
        .take(5)
        .any(|l| l.contains("file format elf64-amdgpu"))
}

/// `ADDRESS <name>:` (a symbol header).
fn header(line: &str) -> Option<(u64, String)> {
    let (addr, rest) = line.split_once(' ')?;
    let name = rest.strip_prefix('<')?.strip_suffix(">:")?;
    Some((u64::from_str_radix(addr, 16).ok()?, name.to_string()))
}

/// A branch's `<symbol+0xOFF>` comment: symbol and offset.
fn target_comment(comment: &str) -> Option<(String, u64)> {
    let inner = comment.rsplit_once('<')?.1.strip_suffix('>')?;
    match inner.split_once("+0x") {
        Some((s, off)) => Some((s.to_string(), u64::from_str_radix(off, 16).ok()?)),
        None => Some((inner.to_string(), 0)),
    }
}

/// One function being read: its start address and each instruction's address.
struct Open {
    f: Function,
    base: u64,
    addrs: Vec<u64>,
    /// (instruction index, target symbol, offset) of each branch.
    branches: Vec<(usize, String, u64)>,
}

/// Parse the disassembly into functions with labels at branch targets.
pub fn parse(text: &str) -> Result<Vec<Function>, ParseError> {
    let mut done: Vec<Open> = Vec::new();
    let mut cur: Option<Open> = None;
    for (n, raw) in text.lines().enumerate() {
        let (line_no, t) = (n + 1, raw.trim());
        let col = raw.len() - raw.trim_start().len() + 1;
        let err = |msg: String| ParseError {
            line: line_no,
            col,
            msg,
        };
        if t.is_empty() || t == "..." || t.starts_with("Disassembly of section") || is_objdump(t) {
            continue;
        }
        if let Some((base, name)) = header(t) {
            done.extend(cur.take());
            let f = Function {
                name,
                line: line_no,
                ..Function::default()
            };
            cur = Some(Open {
                f,
                base,
                addrs: Vec::new(),
                branches: Vec::new(),
            });
            continue;
        }
        let Some(o) = cur.as_mut() else {
            return Err(err(format!("instruction outside a function: `{t}`")));
        };
        let (code, comment) = t
            .split_once("//")
            .ok_or_else(|| err("no `// ADDRESS:` comment (not llvm-objdump -d output?)".into()))?;
        let addr = comment
            .trim()
            .split(':')
            .next()
            .and_then(|a| u64::from_str_radix(a.trim(), 16).ok())
            .ok_or_else(|| err(format!("bad address comment `{}`", comment.trim())))?;
        let code = code.trim();
        let (m, ops) = code.split_once(char::is_whitespace).unwrap_or((code, ""));
        let m = m.to_ascii_lowercase();
        let mut operands = ops.trim().to_string();
        let branch = m == "s_branch"
            || (m.starts_with("s_cbranch_") && !m.contains("fork") && m != "s_cbranch_join");
        if branch {
            let (sym, off) = target_comment(comment)
                .ok_or_else(|| err("branch without a `<symbol+0xOFF>` target comment".into()))?;
            operands = label(&sym, off);
            o.branches.push((o.f.insts.len(), sym, off));
        }
        o.addrs.push(addr);
        o.f.insts.push(Inst {
            line: line_no,
            col,
            mnemonic: m,
            operands,
        });
    }
    done.extend(cur.take());
    let bases: HashMap<String, u64> = done.iter().map(|o| (o.f.name.clone(), o.base)).collect();
    Ok(done.into_iter().map(|o| finish(o, &bases)).collect())
}

fn label(sym: &str, off: u64) -> String {
    format!(".L{sym}+{off:x}")
}

/// Labels at the branch targets inside the function (a target elsewhere stays unlabelled:
/// the CFG then reports the branch as leaving the function); entry or callable.
fn finish(mut o: Open, bases: &HashMap<String, u64>) -> Function {
    for (_, sym, off) in &o.branches {
        let Some(base) = bases.get(sym) else { continue };
        let at = base + off;
        let idx = match o.addrs.iter().position(|&a| a == at) {
            Some(i) => i,
            None if o.addrs.last().is_some_and(|&l| at > l) && sym == &o.f.name => o.addrs.len(),
            None => continue,
        };
        o.f.labels.insert(label(sym, *off), idx);
    }
    let name = o.f.name.clone();
    super::objdump_branch::relax(&mut o.f, &o.addrs, o.base, |off| label(&name, off));
    let has = |p: &[&str]| o.f.insts.iter().any(|i| p.contains(&i.mnemonic.as_str()));
    o.f.kernel = has(&["s_endpgm"]) && !has(&["s_setpc_b64", "s_set_pc_i64"]);
    o.f
}

/// Check every function of the disassembly on `target` (objdump names none).
pub fn check_objdump(
    text: &str,
    target: Option<Target>,
    set: Settings,
) -> Result<(Target, Vec<FnReport>), InputError> {
    let fns = parse(text).map_err(|e| InputError {
        line: e.line,
        col: e.col,
        msg: e.msg,
    })?;
    let target = target.ok_or(InputError {
        line: 1,
        col: 1,
        msg: "llvm-objdump output names no target: give --target".into(),
    })?;
    let out = fns
        .iter()
        .map(|f| check_function(target, f, set))
        .collect::<Result<_, _>>()?;
    Ok((target, out))
}
