//! Rules with an instruction whose semantics entry is modelled on part of its inputs only and
//! undefined elsewhere: `v_cvt_scalef32_pk_fp8_f16` (semantics/src/eval/fp8.rs),
//! `v_lshl_add_u64` with a shift amount that is not a constant 0..4 (the hardware shifts by
//! 0..4 only, LLVM review D121401), and the D16 loads that keep a half of their destination
//! where `d16_unused=UNDEFINED` (the SRAM-ECC targets, LLVM `d16PreservesUnusedBits`), and the
//! DS_*_SRC2_* ops with an offset whose addresses the sources disagree on (breaker19 10).
//!
//! The refinement query assumes the source defined, so a source input outside the modelled
//! part is assumed away: a proof, or "no input applies", would say nothing about the inputs
//! the hardware still computes there. Such a rule is never `proved` or `inapplicable`
//! (`unknown` instead). A refutation stands when both sides are defined on it: the source by
//! the query's assumption, the target when its difference is not "the target is undefined"
//! (replay.rs), so both runs stay where the entry is exact and the counterexample is a real
//! execution. One where the target leaves the modelled part is `unknown`.

use super::verdict::Verdict;
use crate::rules::{Line, Rule};
use gcnsmt_semantics::settings::{D16Unused, Settings};

/// The mnemonics whose entries are modelled on part of their inputs only, whatever the
/// operands and settings.
const PARTIAL: &[&str] = &["v_cvt_scalef32_pk_fp8_f16"];

/// Why `line`'s instruction is modelled on part of its inputs only under `settings`, if it is.
fn partial_line(line: &Line, settings: &Settings) -> Option<String> {
    let text = line.text.trim();
    let (word, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
    if PARTIAL.contains(&word) {
        return Some(format!(
            "{word} is modelled on part of its inputs only (undefined elsewhere, \
             semantics/src/eval/fp8.rs)"
        ));
    }
    if word == "v_lshl_add_u64" {
        // The shift amount is the second source operand; only a literal 0..4 is certain.
        let shift = top_level_operands(rest).get(2).map(|s| s.trim());
        if !matches!(shift, Some("0" | "1" | "2" | "3" | "4")) {
            return Some(format!(
                "{word} with a shift amount that may exceed 4 (the hardware shifts by 0..4 \
                 only, LLVM review D121401; undefined in semantics/pcode/alu.pcode)"
            ));
        }
    }
    if word.starts_with("ds_") && word.contains("_src2_") && !src2_offset_agreed(rest) {
        return Some(format!(
            "{word} with offset bit 15 or 14 set (or not a constant), where the sources \
             disagree on its addresses (undefined in semantics/pcode/ds_misc.pcode)"
        ));
    }
    let d16_load = word.contains("_d16")
        && (word.starts_with("ds_read")
            || word.starts_with("ds_load")
            || word.contains("buffer_load"))
        && !word.ends_with("_xy")
        && !word.ends_with("_xyzw");
    if d16_load && settings.d16_unused == D16Unused::Undefined {
        return Some(format!(
            "{word} does not keep the other half of its destination on this target (SRAM ECC, \
             LLVM d16PreservesUnusedBits; setting d16_unused=UNDEFINED), which is not modelled"
        ));
    }
    None
}

/// Whether a DS_*_SRC2_* op's `offset:` is a constant with bits 15 and 14 clear (none: 0),
/// the only offsets whose A and B every source computes alike (breaker19 10).
fn src2_offset_agreed(rest: &str) -> bool {
    let Some(i) = rest.find("offset:") else {
        return true;
    };
    let v = rest[i + "offset:".len()..]
        .split(|c: char| c.is_whitespace() || c == ',')
        .next()
        .unwrap_or("");
    let n = match v.strip_prefix("0x") {
        Some(h) => u32::from_str_radix(h, 16).ok(),
        None => v.parse::<u32>().ok(),
    };
    n.is_some_and(|n| n & 0xc000 == 0)
}

/// The operands of an instruction's text, split at the commas outside `{...}` and `[...]` (tv
/// writes a register tuple as `{v0, v1}`).
fn top_level_operands(text: &str) -> Vec<&str> {
    let (mut out, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '{' | '[' | '(' => depth += 1,
            '}' | ']' | ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}

/// The first partially modelled instruction of `rule`, the source under `settings` and the
/// target under `to_settings`.
fn partial_op(rule: &Rule, settings: &Settings, to_settings: &Settings) -> Option<String> {
    let src = rule.source.iter().find_map(|l| partial_line(l, settings));
    src.or_else(|| {
        rule.target
            .iter()
            .find_map(|l| partial_line(l, to_settings))
    })
}

/// The first scalar memory load of `lines` after a vector memory write of the same side, as
/// `(store, load)` mnemonics. The scalar data cache is not coherent with vector stores and
/// nothing orders a vector store still in flight before a later scalar load (AMDGPUUsage,
/// memory model: "the scalar memory operations access a scalar L1 cache ... not coherent
/// with the vector L1"; tv's `effects::scalar_read_after_vector_store`): such a load may
/// return the bytes from before the store. The model returns the stored bytes only, one of
/// the outcomes (breaker 21's 02: replacing `v_readfirstlane` of the stored value by an
/// `s_load` of it was proved).
fn scalar_after_vector_store(lines: &[Line]) -> Option<(String, String)> {
    let word = |l: &Line| l.text.split_whitespace().next().unwrap_or("").to_string();
    let store = lines.iter().map(word).find(|w| {
        [
            "buffer_store",
            "buffer_atomic",
            "tbuffer_store",
            "global_store",
            "global_atomic",
        ]
        .iter()
        .chain(&["flat_store", "flat_atomic", "scratch_store", "buffer_wb"])
        .any(|p| w.starts_with(p))
    })?;
    let at = lines.iter().position(|l| word(l) == store)?;
    let load = lines[at + 1..].iter().map(word).find(|w| {
        w.starts_with("s_load") || w.starts_with("s_buffer_load") || w.starts_with("s_scratch_load")
    })?;
    // Rules have no waits or cache invalidates (`s_waitcnt`, `s_dcache_inv`), which would
    // make the load read the new bytes.
    Some((store, load))
}

/// `verdict` of `rule`, with what a partial entry cannot support turned into `unknown`.
pub(super) fn restrict(
    rule: &Rule,
    settings: &Settings,
    to_settings: &Settings,
    verdict: Verdict,
) -> Verdict {
    let stale = |lines: &[Line]| {
        scalar_after_vector_store(lines).map(|(st, ld)| {
            format!(
                "{ld} after {st} may read the bytes from before the store (the scalar cache \
                 is not coherent with vector stores), which is not modelled"
            )
        })
    };
    if let Some(m) = stale(&rule.source) {
        // The source's other outcome is not modelled: neither a proof nor a refutation (whose
        // target value the source might also produce) says anything.
        return match verdict {
            Verdict::Proved | Verdict::Inapplicable | Verdict::Refuted(_) => {
                Verdict::Unknown(format!("source: {m}"))
            }
            v => v,
        };
    }
    if let Some(m) = stale(&rule.target) {
        // The target's modelled outcome is a real one: a refutation stands.
        return match verdict {
            Verdict::Proved | Verdict::Inapplicable => Verdict::Unknown(format!("target: {m}")),
            v => v,
        };
    }
    let Some(m) = partial_op(rule, settings, to_settings) else {
        return verdict;
    };
    let why = |what: &str| Verdict::Unknown(format!("{what}: {m}, which the check assumes away"));
    match verdict {
        Verdict::Proved => why("no difference where it is modelled, no proof"),
        Verdict::Inapplicable => why("no input where it is modelled"),
        Verdict::Refuted(c) if c.first_difference.contains("target is undefined") => {
            why("the counterexample leaves the modelled part on the target side")
        }
        v => v,
    }
}
