//! The IR attributes a MIR file embeds (`define ... #N {`, `attributes #N = { ... }`) that tv
//! reads for each machine function: its target, LDS size and target features.

use std::collections::BTreeMap;

/// What the features say: wave64, `enable-flat-scratch` if named, CU mode (`+cumode`; the
/// last sign wins).
type Features = (bool, Option<bool>, bool);

/// IR function name -> (`"target-cpu"`, `"amdgpu-lds-size"`, features), from `define ... #N {`
/// and `attributes #N = { ... }` lines of the embedded IR.
pub(super) fn ir_attributes(
    lines: &[&str],
) -> BTreeMap<String, (Option<String>, Option<u32>, Features)> {
    let mut groups: BTreeMap<String, String> = BTreeMap::new();
    let mut defines: Vec<(String, Vec<String>, String)> = Vec::new();
    for l in lines {
        let t = l.trim();
        if let Some(rest) = t.strip_prefix("attributes #") {
            if let Some((n, body)) = rest.split_once('=') {
                groups.insert(n.trim().to_string(), body.to_string());
            }
        } else if t.starts_with("define ") {
            let Some(at) = t.find('@') else { continue };
            let name: String = t[at + 1..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '.' || *c == '$')
                .collect();
            let close = t.rfind(')').unwrap_or(0);
            let tail = &t[close..];
            let refs = tail
                .split_whitespace()
                .filter_map(|w| w.strip_prefix('#'))
                .map(|w| w.trim_end_matches('{').to_string())
                .collect();
            defines.push((name, refs, tail.to_string()));
        }
    }
    let attr = |text: &str, key: &str| -> Option<String> {
        let pat = format!("\"{key}\"=\"");
        let at = text.find(&pat)? + pat.len();
        let end = text[at..].find('"')?;
        Some(text[at..at + end].to_string())
    };
    let mut out = BTreeMap::new();
    for (name, refs, inline) in defines {
        let mut cpu = attr(&inline, "target-cpu");
        let mut lds = attr(&inline, "amdgpu-lds-size");
        let mut features = attr(&inline, "target-features").unwrap_or_default();
        for r in refs {
            if let Some(g) = groups.get(&r) {
                cpu = cpu.or_else(|| attr(g, "target-cpu"));
                lds = lds.or_else(|| attr(g, "amdgpu-lds-size"));
                features += &attr(g, "target-features").unwrap_or_default();
            }
        }
        let wave64 = features.contains("+wavefrontsize64");
        let flat = features
            .rfind("enable-flat-scratch")
            .filter(|&at| at > 0)
            .map(|at| &features[at - 1..at] == "+");
        // `amdgpu-lds-size` may be "min,max"; the minimum is what the kernel declares.
        let lds = lds.and_then(|s| s.split(',').next().and_then(|v| v.trim().parse().ok()));
        let cumode = features
            .rfind("cumode")
            .filter(|&at| at > 0)
            .is_some_and(|at| &features[at - 1..at] == "+");
        out.insert(name, (cpu, lds, (wave64, flat, cumode)));
    }
    out
}
