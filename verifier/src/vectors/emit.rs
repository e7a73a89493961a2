//! The vector file formats: JSON (schema in `docs/vectors.md`, `gcnsmt-vectors/1`) and a Python
//! module of plain data with a small assert loop (`tinygrad-py`) that an emulator's test suite
//! can import.

use super::{Vector, Vectors};
use gcnsmt_semantics::eval::PerSpace;
use serde_json::{json, Map, Value};

/// The schema name written in every vector file.
pub const SCHEMA: &str = "gcnsmt-vectors/1";

fn hex(v: u128) -> Value {
    Value::from(format!("{v:#x}"))
}

/// Bytes per space as `{"lds": [[addr, byte], ...]}`, spaces without bytes left out.
fn bytes_json(m: &PerSpace<Vec<(u64, u8)>>) -> Value {
    let mut o = Map::new();
    for (s, bs) in m.iter() {
        if !bs.is_empty() {
            o.insert(
                s.key().to_string(),
                bs.iter().map(|(a, b)| json!([a, b])).collect(),
            );
        }
    }
    Value::Object(o)
}

/// One vector as JSON.
pub fn vector_json(v: &Vector) -> Value {
    let w = &v.run;
    json!({
        "id": v.id,
        "asm": v.asm,
        "mnemonic": v.mnemonic,
        "entry": v.entry,
        "family": v.family.name(),
        "settings": v.settings.iter().map(|(k, x)| (k.clone(), Value::from(x.clone()))).collect::<Map<_, _>>(),
        "covers": v.covers,
        "inputs": w.inputs.iter().map(|(n, x, _)| (n.clone(), hex(*x))).collect::<Map<_, _>>(),
        "memory": bytes_json(&w.mem),
        "expected": {
            "registers": w.regs.iter().map(|(n, x)| (n.clone(), hex(u128::from(*x)))).collect::<Map<_, _>>(),
            "memory": bytes_json(&w.mem_out),
            "undefined": w.undefined,
        },
    })
}

/// The whole file as JSON.
pub fn to_json(vs: &Vectors) -> Value {
    let instructions: std::collections::BTreeSet<&str> =
        vs.vectors.iter().map(|v| v.mnemonic.as_str()).collect();
    json!({
        "schema": SCHEMA,
        "target": vs.target.to_string(),
        "generator": format!("gcnsmt {}", env!("CARGO_PKG_VERSION")),
        "vectors": vs.vectors.iter().map(vector_json).collect::<Vec<_>>(),
        "skipped": vs.skipped.iter().map(|(m, r)| json!({"mnemonic": m, "reason": r})).collect::<Vec<_>>(),
        "summary": {
            "vectors": vs.vectors.len(),
            "instructions": instructions.len(),
            "unreachable_edges": vs.unreachable,
            "unknown_edges": vs.unknown,
        },
    })
}

/// A JSON value as a Python literal (`true` is `True`, `null` is `None`; hex strings of
/// register values become integers).
fn py(v: &Value, out: &mut String) {
    match v {
        Value::Null => out.push_str("None"),
        Value::Bool(b) => out.push_str(if *b { "True" } else { "False" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) if s.starts_with("0x") && s.len() > 2 => out.push_str(s),
        Value::String(s) => out.push_str(&Value::String(s.clone()).to_string()),
        Value::Array(xs) => {
            out.push('[');
            for (i, x) in xs.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                py(x, out);
            }
            out.push(']');
        }
        Value::Object(m) => {
            out.push('{');
            for (i, (k, x)) in m.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push_str(": ");
                py(x, out);
            }
            out.push('}');
        }
    }
}

const PY_LOOP: &str = r#"

def check(execute, cases=CASES):
    """Run every case on an emulator and return the mismatches.

    execute(case) runs case["asm"] once (one lane, LANE_ID as given) from case["inputs"]
    (registers, LDS_SIZE, LANE_ID) and case["memory"] (space -> [[address, byte]], every
    other byte 0) under case["settings"], and returns (registers, memory): registers as
    {name: value}, memory as {space: {address: byte}} holding at least every byte it wrote.
    A case passes when every register in case["expected"]["registers"] has its value and
    every byte in case["expected"]["memory"] has its value.
    """
    bad = []
    for c in cases:
        regs, mem = execute(c)
        for name, want in c["expected"]["registers"].items():
            if regs.get(name) != want:
                bad.append((c["id"], name, regs.get(name), want))
        for space, pairs in c["expected"]["memory"].items():
            for addr, want in pairs:
                got = mem.get(space, {}).get(addr)
                if got != want:
                    bad.append((c["id"], "%s[%#x]" % (space, addr), got, want))
    return bad


if __name__ == "__main__":
    # The data's own check: an "emulator" that returns the expected values passes.
    def oracle(c):
        return dict(c["expected"]["registers"]), {
            s: dict(map(tuple, p)) for s, p in c["expected"]["memory"].items()
        }

    assert check(oracle) == []
    print("%d cases for %s" % (len(CASES), TARGET))
"#;

/// The file as a Python module: `TARGET`, `CASES` (one dict per vector, as the JSON's
/// `vectors`, values as integers), and `check(execute)`.
pub fn to_python(vs: &Vectors) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "# Test vectors for {}: generated by gcnsmt {} (`gcnsmt vectors --format tinygrad-py`).\n\
         # Expected values are gcnsmt's interpreter's; see docs/vectors.md for the fields.\n\n",
        vs.target,
        env!("CARGO_PKG_VERSION")
    ));
    s.push_str(&format!("TARGET = \"{}\"\n\nCASES = [\n", vs.target));
    for v in &vs.vectors {
        s.push_str("    ");
        py(&vector_json(v), &mut s);
        s.push_str(",\n");
    }
    s.push_str("]\n");
    s.push_str(PY_LOOP);
    s
}
