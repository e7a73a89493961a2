//! Every line of `tests/data/roundtrip/ds_<cpu>.s` (llvm-mc-22 output) must
//! assemble to the listed bytes and disassemble back to the exact text.

use gcnsmt_lifter::{decode_bytes, encode_bytes, parse_asm};
use gcnsmt_semantics::target::Target;

fn data_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/roundtrip")
}

#[test]
fn roundtrip_all_targets() {
    let mut total = 0;
    let mut failures = Vec::new();
    for t in Target::ALL {
        let path = data_dir().join(format!("ds_{}.s", t.name()));
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut n = 0;
        for (ln, line) in text.lines().enumerate() {
            if line.starts_with("//") || line.trim().is_empty() {
                continue;
            }
            let (asm, enc) = line.split_once(';').expect("asm ; encoding");
            let asm = asm.trim();
            let bytes = gcnsmt_testkit::hex_bytes(enc);
            n += 1;
            match parse_asm(t, asm) {
                Ok(inst) if encode_bytes(&inst).as_slice() == bytes.as_slice() => {}
                Ok(inst) => failures.push(format!(
                    "{t}:{}: `{asm}` encodes {:02x?}, want {bytes:02x?}",
                    ln + 1,
                    encode_bytes(&inst)
                )),
                Err(e) => failures.push(format!("{t}:{}: `{asm}`: {e}", ln + 1)),
            }
            match decode_bytes(t, &bytes) {
                Ok(inst) if inst.to_string() == asm => {}
                Ok(inst) => failures.push(format!(
                    "{t}:{}: {bytes:02x?} prints `{inst}`, want `{asm}`",
                    ln + 1
                )),
                Err(e) => failures.push(format!("{t}:{}: `{asm}`: {e}", ln + 1)),
            }
        }
        println!("{t}: {n} lines");
        total += n;
    }
    println!(
        "total: {total} lines x (assemble+encode, decode+print), {} failures",
        failures.len()
    );
    for f in failures.iter().take(50) {
        println!("{f}");
    }
    assert!(
        failures.is_empty(),
        "{} round-trip failures",
        failures.len()
    );
    assert!(total > 3500);
}
