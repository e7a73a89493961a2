//! A `tv` counterexample in MIR terms (issue 13, "Counterexamples"): the block's live-in
//! registers only, the memory bytes the two sides read, each side's instructions as the MIR
//! lines they came from with what each wrote, the final values that differ and the first
//! difference. Text for people, and the same data as JSON for `--format json`.
//!
//! The counterexample comes from [`crate::check`], already replayed on the concrete
//! interpreter; this module only renames and regroups it. A rule step is mapped back to its MIR
//! instruction by the line/column the lowering gave it ([`super::lower`]), so the several moves
//! a COPY or REG_SEQUENCE becomes print as that one MIR line.

use super::mir::Block;
use crate::check::{Cex, Step};
use crate::report::{bytes, num};
use crate::rules::{Line, Rule};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::fmt::Write;

/// What the rendering needs besides the counterexample.
pub struct CexCtx<'a> {
    /// The lowered rule (source = before-block, target = after-block).
    pub rule: &'a Rule,
    /// The before- and after-block the rule came from.
    pub blocks: (&'a Block, &'a Block),
    /// Virtual registers either block defines: never live-in, so never shown as inputs.
    pub defined: &'a BTreeSet<u32>,
    /// Rule variable names -> MIR names (`%r14_0` -> `%14`, `%r16_1` -> `%16.sub1`).
    pub names: &'a dyn Fn(&str) -> String,
}

/// A counterexample rendered for `tv`: the text and the same data as JSON.
pub struct MirCex {
    /// Indented text printed under the block's verdict line.
    pub text: String,
    /// `{"live_in", "memory", "vsharp", "before", "after", "differences", "first_difference"}`.
    pub data: Value,
}

/// The MIR number of a rule variable (`%r14_0` -> 14).
fn vreg_of(name: &str) -> Option<u32> {
    let rest = name.strip_prefix("%r")?;
    rest.split('_').next()?.parse().ok()
}

/// Whether an input is live into the block: not a register the block defines, not a renamed
/// physical register or an SDWA intermediate (fresh values the lowering declares dead).
fn live_in(name: &str, defined: &BTreeSet<u32>) -> bool {
    let fresh = [super::emit::PHYS_PREFIX, super::sdwa::TMP_PREFIX];
    if fresh.iter().any(|p| name.starts_with(&format!("%{p}"))) || scratch(name) {
        return false;
    }
    if name.starts_with(&format!("%{}", super::dpp::PREFIX)) {
        return super::dpp::is_input(name);
    }
    // Lane S's copy of a register (`dpp.rs`) is live-in where the register is.
    vreg_of(name).is_none_or(|id| {
        let id = super::dpp::unshadow(id).map_or(id, |(m, _)| m);
        !defined.contains(&id)
    })
}

/// A scratch variable of an SCC formula (`scc.rs`) or of an image read's fixed function
/// (`mimg.rs`): no register of the program.
fn scratch(name: &str) -> bool {
    name.starts_with(&format!("%{}", super::scc::TEMP))
        || name.starts_with(&format!("%{}", super::mimg::TMP_PREFIX))
}

/// One MIR instruction of a side and the writes of the rule steps lowered from it.
struct MirStep {
    line: u32,
    mir: String,
    writes: Vec<(String, String)>,
}

/// Group `steps` by the MIR instruction their rule line came from. `None` when the steps do
/// not correspond one to one with the rule's lines (then the caller keeps rule assembly).
fn mir_steps(lines: &[Line], steps: &[Step], block: &Block, cx: &CexCtx) -> Option<Vec<MirStep>> {
    if lines.len() != steps.len() {
        return None;
    }
    let mut out: Vec<MirStep> = Vec::new();
    for (l, s) in lines.iter().zip(steps) {
        // The live-in SCC's normalisation (`scc.rs`) has no MIR line.
        if l.loc.line == 0 {
            continue;
        }
        let inst = block
            .insts
            .iter()
            .find(|i| i.loc.line == l.loc.line && i.loc.col == l.loc.col)?;
        let mut writes: Vec<(String, String)> = s
            .writes
            .iter()
            .filter(|(n, _)| !scratch(n))
            .map(|(n, v)| ((cx.names)(n), format!("0x{v:08x}")))
            .collect();
        // A memory write shows as `LDS: 4 byte(s) changed` (the key ends in ':').
        writes.extend(
            s.mem_writes
                .iter()
                .map(|(sp, n)| (format!("{sp}:"), format!("{n} byte(s) changed"))),
        );
        match out.last_mut() {
            Some(m) if m.line == l.loc.line => m.writes.extend(writes),
            _ => out.push(MirStep {
                line: l.loc.line,
                mir: inst.key.clone(),
                writes,
            }),
        }
    }
    Some(out)
}

fn steps_text(label: &str, steps: &[MirStep], out: &mut String) {
    let _ = writeln!(out, "  {label}:");
    let w = steps.iter().map(|s| s.mir.len()).max().unwrap_or(0).min(72);
    for s in steps {
        let vals: Vec<String> = if s.writes.is_empty() {
            vec!["(no change)".into()]
        } else {
            s.writes
                .iter()
                .map(|(n, v)| match n.ends_with(':') {
                    true => format!("{n} {v}"),
                    false => format!("{n} = {v}"),
                })
                .collect()
        };
        let _ = writeln!(out, "    {:>5}  {:<w$}  {}", s.line, s.mir, vals.join("  "));
    }
}

fn steps_json(steps: &[MirStep]) -> Value {
    steps
        .iter()
        .map(|s| {
            let writes: Vec<Value> = s
                .writes
                .iter()
                .map(|(n, v)| match n.strip_suffix(':') {
                    Some(space) => json!({"space": space, "changed": v}),
                    None => json!({"reg": n, "value": v}),
                })
                .collect();
            json!({"line": s.line, "mir": s.mir, "writes": writes})
        })
        .collect()
}

/// Render `c` in MIR terms. Falls back to the rule's assembly for a side whose steps do not
/// map back to its MIR lines (which the lowering does not produce today).
pub fn render(c: &Cex, cx: &CexCtx) -> MirCex {
    let names = cx.names;
    let mut out = String::new();
    let inputs: Vec<&(String, u128, u32)> = c
        .inputs
        .iter()
        .filter(|(n, _, _)| live_in(n, cx.defined))
        .collect();
    let w = inputs
        .iter()
        .map(|(n, _, _)| names(n).len())
        .max()
        .unwrap_or(0);
    for (i, (n, v, bits)) in inputs.iter().enumerate() {
        let lead = if i == 0 { "  live-in: " } else { "           " };
        let _ = writeln!(out, "{lead}{:<w$} = {}", names(n), num(*v, *bits));
    }
    for l in super::dpp::describe(&c.inputs) {
        let _ = writeln!(out, "  {l}");
    }
    for (name, fields) in &c.vsharp {
        let _ = writeln!(out, "  V#:      {}", names(name));
        let fs: Vec<String> = fields.iter().map(|(n, v)| format!("{n}=0x{v:x}")).collect();
        for chunk in fs.chunks(6) {
            let _ = writeln!(out, "           {}", chunk.join(" "));
        }
    }
    let mut memory = Vec::new();
    for (space, bs) in c.mem.iter().map(|(s, b)| (s.label(), b)) {
        if !bs.is_empty() && memory.is_empty() {
            let _ = writeln!(out, "  memory (initial bytes that matter):");
        }
        bytes(space, bs, &mut out);
        memory.extend(
            bs.iter()
                .map(|(a, b)| json!({"space": space, "addr": a, "byte": b})),
        );
    }
    let mut sides = Vec::new();
    for (label, lines, steps, block) in [
        ("before", &cx.rule.source, &c.steps.0, cx.blocks.0),
        ("after", &cx.rule.target, &c.steps.1, cx.blocks.1),
    ] {
        match mir_steps(lines, steps, block, cx) {
            Some(ms) => {
                steps_text(label, &ms, &mut out);
                sides.push(steps_json(&ms));
            }
            None => {
                let _ = writeln!(out, "  {label} (rule steps):");
                for s in steps.iter() {
                    let _ = writeln!(out, "           {}", names(&s.text));
                }
                sides.push(Value::Array(Vec::new()));
            }
        }
    }
    let dead = |n: &str| {
        cx.rule
            .dead
            .iter()
            .any(|(d, _)| d == n.trim_start_matches('%'))
    };
    let mut diffs = Vec::new();
    for (n, s, t) in c.regs.iter().filter(|(n, s, t)| s != t && !dead(n)) {
        let _ = writeln!(out, "  {}: before 0x{s:08x}, after 0x{t:08x}", names(n));
        diffs.push(
            json!({"reg": names(n), "before": format!("0x{s:08x}"), "after": format!("0x{t:08x}")}),
        );
    }
    for (space, a, s, t) in &c.mem_diffs {
        let _ = writeln!(out, "  {space}[0x{a:x}]: before 0x{s:02x}, after 0x{t:02x}");
        diffs.push(json!({"space": space, "addr": a, "before": s, "after": t}));
    }
    let first = names(&c.first_difference);
    let _ = writeln!(out, "  first difference: {first}");
    let live: Vec<Value> = inputs
        .iter()
        .map(|(n, v, bits)| {
            json!({"reg": names(n), "value": format!("0x{:0w$x}", v, w = (*bits as usize).div_ceil(4))})
        })
        .collect();
    let vsharp: Vec<Value> = c
        .vsharp
        .iter()
        .map(|(n, fs)| {
            let f: serde_json::Map<String, Value> =
                fs.iter().map(|(k, v)| (k.to_string(), json!(v))).collect();
            json!({"regs": names(n), "fields": f})
        })
        .collect();
    let [before, after]: [Value; 2] = sides.try_into().unwrap_or([Value::Null, Value::Null]);
    MirCex {
        text: out,
        data: json!({
            "live_in": live,
            "memory": memory,
            "vsharp": vsharp,
            "before": before,
            "after": after,
            "differences": diffs,
            "first_difference": first,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_registers_from_outside_the_block_are_live_in() {
        let defined: BTreeSet<u32> = [16, 17].into_iter().collect();
        assert!(!live_in("%r16_0", &defined));
        assert!(!live_in("%r17_1", &defined));
        assert!(live_in("%r12_0", &defined));
        assert!(live_in("m0", &defined));
        assert!(live_in("v0", &defined));
        assert!(!live_in("%phys_vcc_0", &defined));
        assert_eq!(vreg_of("%r160_2"), Some(160));
        assert_eq!(vreg_of("LDS_SIZE"), None);
    }
}
