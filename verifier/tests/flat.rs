//! `proofs/flat.rules` gives its expected verdicts, and the FLAT refutations are the ones the
//! aperture rule predicts (LLVM AMDGPUUsage, "Address Spaces": an address whose high 32 bits
//! equal the shared aperture's reaches LDS): the replayed counterexample of a FLAT store moved
//! below an LDS load has its address in the shared aperture, and the one of `base + 4` folded
//! into a FLAT offset has base and base + 4 on two sides of an aperture's end (the aperture
//! test reads the address register, not register + offset: llvm/llvm-project#153001).

use serde_json::Value;
use std::path::Path;

fn verify_flat_rules() -> Vec<Value> {
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("../proofs/flat.rules");
    let r = gcnsmt_testkit::run(
        env!("CARGO_BIN_EXE_gcnsmt"),
        &["verify", rules.to_str().unwrap(), "--format", "json"],
        None,
        &[],
    );
    assert_eq!(r.code, 0, "{}", r.all());
    r.stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("JSON line"))
        .filter(|v| v["type"] == "verdict")
        .collect()
}

/// The value of the counterexample input `name`.
fn input(v: &Value, name: &str) -> u64 {
    let i = v["counterexample"]["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"] == name)
        .unwrap_or_else(|| panic!("no input {name}: {v}"));
    u64::from_str_radix(i["value"].as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
}

#[test]
fn flat_rules_refute_what_the_apertures_allow() {
    let records = verify_flat_rules();
    assert!(records.len() >= 20, "{} records", records.len());
    assert!(records.iter().all(|r| r["as_expected"] == true));
    let of = |rule: &str| -> Vec<&Value> { records.iter().filter(|r| r["rule"] == rule).collect() };

    let alias = of("flat-store-lds-load-may-alias");
    assert_eq!(alias.len(), 3);
    for r in alias {
        assert_eq!(r["verdict"], "refuted", "{r}");
        // The store's address is in the shared aperture, and the store changed LDS bytes.
        assert_eq!(input(r, "%p[1]"), input(r, "SHARED_BASE"), "{r}");
        let store = &r["counterexample"]["steps"]["source"][0];
        assert_eq!(store["memory_bytes_changed"][0]["space"], "LDS", "{r}");
    }

    // The aperture is tested on the address register, not on register + offset
    // (llvm/llvm-project#153001, #165427): a merge whose dwords straddle an aperture's end
    // holds, and folding `base + 4` into the offset is refuted by a base whose + 4 carries
    // into the high half, one of the two high halves an aperture.
    let straddle = of("flat-load-dword-pair-merge-across-an-aperture-end");
    assert_eq!(straddle.len(), 1);
    assert_eq!(straddle[0]["verdict"], "proved", "{}", straddle[0]);
    let fold = of("flat-fold-add64-into-offset-leaves-the-aperture");
    assert_eq!(fold.len(), 1);
    let r = fold[0];
    assert_eq!(r["verdict"], "refuted", "{r}");
    let base = input(r, "%b") << 32 | input(r, "%a");
    let (register, sum) = (base >> 32, base.wrapping_add(4) >> 32);
    assert_ne!(register, sum, "base and base + 4 in one 2^32 region: {r}");
    let apertures = [input(r, "SHARED_BASE"), input(r, "PRIVATE_BASE")];
    assert!(
        apertures.contains(&register) || apertures.contains(&sum),
        "neither address in an aperture: {r}"
    );
}
