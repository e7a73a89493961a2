//! Test vectors for emulators (`gcnsmt vectors`) and the fidelity report (`gcnsmt coverage`).
//!
//! A vector is one instruction ([`forms`]), its inputs (registers, LDS_SIZE, LANE_ID, initial
//! memory bytes; every other byte 0), the settings it assumes, and the registers and memory
//! bytes the interpreter leaves, tagged with the edges of the semantics it covers
//! ([`edges`]). Inputs come from z3 through the checker's own assumptions
//! ([`crate::check::probe`]); expected values from the interpreter's replay.

pub mod coverage;
pub mod edges;
pub mod emit;
pub mod forms;
pub mod locate;
pub mod recheck;
mod record;
mod stored;

use crate::check::{probe, Options, Witness};
use crate::rules::{parse_rules, Rule};
use forms::{Family, Form};
use gcnsmt_semantics::settings::{Settings, SETTINGS};
use gcnsmt_semantics::target::Target;
use rayon::prelude::*;

/// One test vector.
#[derive(Clone, Debug)]
pub struct Vector {
    /// `mnemonic/K`, K counting the mnemonic's vectors from 0.
    pub id: String,
    /// The instruction, as the target's assembler writes it.
    pub asm: String,
    /// Its LLVM mnemonic.
    pub mnemonic: String,
    /// The semantics entry it runs (upper case, as `semantics/pcode/*.pcode` names it).
    pub entry: String,
    /// Its family.
    pub family: Family,
    /// Every setting (name, value) the expected values assume.
    pub settings: Vec<(String, String)>,
    /// The edges it covers (see [`edges`]); the first is the one it was made for.
    pub covers: Vec<String>,
    /// Inputs and expected outputs.
    pub run: Witness,
}

/// The vectors of one target, and what had none.
pub struct Vectors {
    /// The target.
    pub target: Target,
    /// Every vector, by instruction in table order.
    pub vectors: Vec<Vector>,
    /// Opcodes without vectors, with the reason (not modelled, or the rule does not bind).
    pub skipped: Vec<(String, String)>,
    /// Edges no input reaches, per instruction line and settings (their count).
    pub unreachable: usize,
    /// Edges the solver did not decide in time (their count).
    pub unknown: usize,
}

/// The one-instruction rule a vector runs (source and target the same line).
///
/// Errors: the line does not parse as a rule's instruction (an internal error here).
pub fn rule_for(line: &str) -> Result<Rule, String> {
    let text = format!("Name: vector\n  {line}\n=>\n  {line}\n");
    let mut rules = parse_rules("<vector>", &text).map_err(|e| e.to_string())?;
    rules.pop().ok_or_else(|| "no rule".to_string())
}

/// Every setting of `s` as (name, value), in [`SETTINGS`] order: the vectors record them all,
/// since the expected values may rest on any (`buffer_struct` on an `idxen` load,
/// `fp32_denorm` on a float atomic, `lds_dma_m0` on an LDS DMA load, the `bvh_*` ones).
pub fn settings_pairs(s: &Settings) -> Vec<(String, String)> {
    SETTINGS
        .iter()
        .filter_map(|(n, _)| Some((n.to_string(), s.get(n)?.to_string())))
        .collect()
}

/// The setting overrides a form's vectors are also made under, one at a time: every other
/// value of the settings its semantics read (the target's defaults come first, with none):
/// its family's, and `append_addr` for `ds_append`/`ds_consume` (their entries ask
/// `AppendM0Base()`).
fn variants(form: &Form) -> Vec<Option<(String, String)>> {
    let mut names = match form.family {
        Family::Ds => vec!["alignment", "lds_limit"],
        Family::Buffer => vec!["buffer_soffset", "buffer_oob"],
    };
    let lib = gcnsmt_semantics::defs::Library::builtin();
    let entry = forms::entry_of(form.family, form.mnemonic);
    if entry
        .and_then(|n| lib.get(&n))
        .is_some_and(|d| gcnsmt_semantics::print::def_to_string(d).contains("AppendM0Base"))
    {
        names.push("append_addr");
    }
    let mut out = vec![None];
    for (n, vs) in SETTINGS.iter().filter(|(n, _)| names.contains(n)) {
        for v in vs.iter().filter(|v| **v != "NONE") {
            out.push(Some((n.to_string(), v.to_string())));
        }
    }
    out
}

/// A seed from text (FNV-1a), so each line's random values are the same from run to run.
fn seed_of(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// The vectors of one line under each settings variant of its family: up to `max` per
/// variant; the variants whose settings equal one already done (the target's default value)
/// are left out.
fn line_vectors(
    target: Target,
    form: &Form,
    line: &str,
    max: usize,
    variants_too: bool,
    opts: &Options,
) -> Result<(Vec<Vector>, usize, usize), String> {
    let rule = rule_for(line)?;
    let mut out = Vec::new();
    let (mut unreachable, mut unknown) = (0, 0);
    let mut done: Vec<Settings> = Vec::new();
    let mut vs = variants(form);
    if !variants_too {
        vs.truncate(1);
    }
    for v in vs {
        let mut o = opts.clone();
        o.settings.extend(v.clone());
        let p = match crate::smt::with_fresh_context(|| {
            probe(
                &rule,
                target,
                &o,
                edges::edges,
                seed_of(&format!("{target} {line} {v:?}")),
                max,
            )
            .map_err(|e| e.msg)
        }) {
            Ok(p) => p,
            // A value the target does not have (UNALIGNED before gfx9) is no variant.
            Err(e) if v.is_some() && e.contains("not available") => continue,
            Err(e) if v.is_some() => {
                tracing::debug!("{line} {v:?}: {e}");
                continue;
            }
            Err(e) => return Err(e),
        };
        if done.contains(&p.settings) {
            continue;
        }
        done.push(p.settings);
        unreachable += p.unreachable.len();
        unknown += p.unknown.len();
        for (covers, run) in p.vectors {
            out.push(Vector {
                id: String::new(),
                asm: line.to_string(),
                mnemonic: form.mnemonic.to_string(),
                entry: forms::entry_of(form.family, form.mnemonic).unwrap_or_default(),
                family: form.family,
                settings: settings_pairs(&p.settings),
                covers,
                run,
            });
        }
    }
    Ok((out, unreachable, unknown))
}

/// One form's vectors with its unreachable and unknown edge counts, or why it has none.
type FormResult = Result<(Vec<Vector>, usize, usize), String>;

/// Vectors for the opcodes of `target` whose mnemonic is in `only` (all when empty), at most
/// `max` per instruction line and settings variant; `variants`: also under the other values
/// of the settings the family reads (else the target's defaults only).
///
/// Errors: a name in `only` that is no DS or buffer opcode of the target.
pub fn generate(
    target: Target,
    only: &[String],
    max: usize,
    variants: bool,
    opts: &Options,
) -> Result<Vectors, String> {
    let all = forms::forms(target);
    for name in only {
        if !all.iter().any(|f| f.mnemonic == name.as_str()) {
            return Err(format!(
                "`{name}` is no DS, MUBUF or VBUFFER opcode of {target} (MTBUF is listed on gfx12 only)"
            ));
        }
    }
    let chosen: Vec<&Form> = all
        .iter()
        .filter(|f| only.is_empty() || only.iter().any(|n| n == f.mnemonic))
        .collect();
    let results: Vec<(&Form, FormResult)> = chosen
        .par_iter()
        .map(|f| {
            let mut acc = (Vec::new(), 0, 0);
            for line in &f.lines {
                match line_vectors(target, f, line, max, variants, opts) {
                    Ok((v, u, k)) => {
                        acc.0.extend(v);
                        acc.1 += u;
                        acc.2 += k;
                    }
                    Err(e) => return (*f, Err(e)),
                }
            }
            (*f, Ok(acc))
        })
        .collect();
    let mut out = Vectors {
        target,
        vectors: Vec::new(),
        skipped: Vec::new(),
        unreachable: 0,
        unknown: 0,
    };
    for (f, r) in results {
        match r {
            Ok((vs, u, k)) if !vs.is_empty() => {
                for (i, mut v) in vs.into_iter().enumerate() {
                    v.id = format!("{}/{i}", f.mnemonic);
                    out.vectors.push(v);
                }
                out.unreachable += u;
                out.unknown += k;
            }
            Ok((_, u, k)) => {
                // No vector: every edge undecided in time, or none reachable.
                let why = if k > 0 {
                    format!("no vector: {k} edges undecided (solver time limit, --timeout)")
                } else {
                    "no operands to vary".to_string()
                };
                out.unreachable += u;
                out.unknown += k;
                out.skipped.push((f.mnemonic.to_string(), why));
            }
            Err(e) => {
                // The checker's advice is for rules; `vectors` has no lanes option.
                let e = match e.split_once(" is a cross-lane instruction") {
                    Some(_) => "a cross-lane instruction: vectors are one lane's (`verify --lanes N` or a rule's `Lanes: N` checks it)".to_string(),
                    None => e,
                };
                out.skipped.push((f.mnemonic.to_string(), e));
            }
        }
    }
    Ok(out)
}
