//! Long branches: LLVM's branch relaxation (`SIInstrInfo::insertIndirectBranch`) turns a branch
//! whose offset does not fit into `s_getpc_b64 s[N:N+1]`, `s_add_u32 sN, sN,
//! (TARGET-POST)&4294967295`, `s_addc_u32 sN+1, sN+1, (TARGET-POST)>>32`, `s_setpc_b64
//! s[N:N+1]`, with `POST:` labelling the instruction after `s_getpc_b64` (the PC it returns).
//! That `s_setpc_b64` is an unconditional branch to TARGET inside the function, not a return.
//! Any other `s_setpc_b64` whose register pair an `s_getpc_b64` of the function wrote jumps to a
//! computed address the reader cannot follow: its paths stop (`unknown`), unless the address is
//! another symbol's (`callee@rel32@lo+4`: a tail call, which leaves the function).

use super::asm::Function;
use super::classify::Action;
use super::regs::{parse_regs, RegSet};

/// The operand text of instruction `i` split at commas, trimmed.
fn ops(f: &Function, i: usize) -> Vec<String> {
    f.insts[i]
        .operands
        .split(',')
        .map(|s| s.split_whitespace().collect::<String>())
        .collect()
}

/// TARGET of a relaxed branch ending at `s_setpc_b64` instruction `i`, if the four
/// instructions have exactly the shape above.
fn relaxed_target(f: &Function, i: usize) -> Option<String> {
    if i < 3 {
        return None;
    }
    let m = |k: usize| f.insts[k].mnemonic.as_str();
    if (m(i - 3), m(i - 2), m(i - 1)) != ("s_getpc_b64", "s_add_u32", "s_addc_u32") {
        return None;
    }
    let pair = ops(f, i);
    if pair.len() != 1 || ops(f, i - 3) != pair {
        return None;
    }
    let regs = parse_regs(&pair[0]).ok()?;
    let (add, addc) = (ops(f, i - 2), ops(f, i - 1));
    let (lo, hi) = (add.first()?, addc.first()?);
    let mut both = parse_regs(lo).ok()?;
    both.union(&parse_regs(hi).ok()?);
    if both != regs || parse_regs(lo).ok()? == parse_regs(hi).ok()? {
        return None;
    }
    if add.len() != 3 || addc.len() != 3 || &add[1] != lo || &addc[1] != hi {
        return None;
    }
    let diff = add[2].strip_suffix("&4294967295")?;
    let diff = diff.strip_prefix('(')?.strip_suffix(')')?;
    if addc[2] != format!("({diff})>>32") {
        return None;
    }
    let (target, post) = diff.split_once('-')?;
    // POST must label the `s_add_u32` (the address `s_getpc_b64` returns).
    if f.labels.get(post) != Some(&(i - 2)) || !f.labels.contains_key(target) {
        return None;
    }
    // The low half is the first register of the pair (`s_add_u32` carries into `s_addc_u32`).
    let first = pair[0].trim_start_matches("s[").split(':').next()?;
    (lo.trim_start_matches('s') == first).then(|| target.to_string())
}

/// Turn the relaxed long branches of `f` into branches, and every other `s_setpc_b64` to a
/// pair written by `s_getpc_b64` into an unknown instruction.
pub fn resolve(f: &Function, actions: &mut [Action]) {
    let mut getpc = RegSet::new();
    for (k, inst) in f.insts.iter().enumerate() {
        if inst.mnemonic == "s_getpc_b64" {
            if let Some(r) = ops(f, k).first().and_then(|o| parse_regs(o).ok()) {
                getpc.union(&r);
            }
        }
    }
    if getpc.is_empty() {
        return;
    }
    for (i, action) in actions.iter_mut().enumerate() {
        if f.insts[i].mnemonic != "s_setpc_b64" {
            continue;
        }
        if let Some(label) = relaxed_target(f, i) {
            *action = Action::Branch {
                label,
                conditional: false,
                reads: RegSet::new(),
            };
        } else if let Some(r) = ops(f, i).first().and_then(|o| parse_regs(o).ok()) {
            // `callee@rel32@lo+4`: a jump to another symbol (a tail call) leaves the function,
            // as any other `s_setpc_b64` does.
            let symbol = (i.saturating_sub(2)..i).any(|k| f.insts[k].operands.contains('@'));
            if r.overlaps(&getpc) && !symbol {
                *action = Action::Unknown(
                    "`s_setpc_b64` to an address computed from `s_getpc_b64` (not a return)".into(),
                );
            }
        }
    }
}
