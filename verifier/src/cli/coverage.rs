//! `gcnsmt coverage --target T [--format text|json]`: the fidelity report
//! ([`crate::vectors::coverage`]).

use crate::exit::ExitStatus;
use crate::vectors::coverage::{counts, row_json, rows};
use gcnsmt_semantics::target::Target;

/// Print the report. Exit 0.
pub fn coverage(target: Target, json: bool) -> ExitStatus {
    let rows = rows(target);
    let (e, a, u) = counts(&rows);
    if json {
        let doc = serde_json::json!({
            "target": target.to_string(),
            "opcodes": rows.iter().map(row_json).collect::<Vec<_>>(),
            "summary": {"exact": e, "approximate": a, "unsupported": u},
        });
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
        return ExitStatus::Proved;
    }
    for r in &rows {
        let why = match (r.status, &r.reason) {
            ("unsupported", Some(x)) => x.clone(),
            ("approximate", _) => r.assumptions.join("; "),
            _ if !r.depends_on.is_empty() => format!("depends on {}", r.depends_on.join(", ")),
            _ => String::new(),
        };
        println!(
            "{:<32} {:<6} {:#04x}  {:<11} {why}",
            r.mnemonic, r.family, r.opcode, r.status
        );
    }
    println!(
        "summary: {e} exact, {a} approximate, {u} unsupported ({} opcodes on {target})",
        rows.len()
    );
    ExitStatus::Proved
}
