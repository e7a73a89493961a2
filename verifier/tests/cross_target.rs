//! Cross-target rules (`Targets: T1 -> T2`, `verify --from T1 --to T2`): the source side runs
//! on one target, the target side on another, on the same registers and memory.
//!
//! Expected verdicts come from LLVM: llvm-mc-22 decodes the word `D8C00000 00020103` as
//! `ds_cmpst_rtn_b32 v0, v3, v1, v2` on gfx1030 and `ds_cmpstore_rtn_b32 v0, v3, v1, v2` on
//! gfx1100 (`llvm-mc-22 -disassemble -mcpu=...`, run by hand), and `DSInstructions.td` says
//! gfx11 swapped the data operands (DATA0 is the new value, DATA1 the compare value), so the
//! same word means different things and the form with DATA0/DATA1 exchanged means the same.

use gcnsmt_testkit::{Run, TempDir};

fn verify(text: &str, extra: &[&str]) -> (Run, String) {
    let dir = TempDir::new("xtarget");
    let path = dir.write("x.rules", text);
    let p = path.to_str().unwrap().to_string();
    let mut args = vec!["verify", p.as_str(), "--no-matrix"];
    args.extend_from_slice(extra);
    let r = gcnsmt_testkit::run(env!("CARGO_BIN_EXE_gcnsmt"), &args, None, &[]);
    r.assert_no_panic();
    (r, p)
}

const SAME_WORD: &str = "\
Name: ds-cmpst-same-word
Targets: gfx1030 -> gfx1100
  ds_cmpst_rtn_b32 v0, v3, v1, v2
=>
  ds_cmpstore_rtn_b32 v0, v3, v1, v2
";

const SWAPPED: &str = "\
Name: ds-cmpst-data-swapped
Targets: gfx1030 -> gfx1100
  ds_cmpst_rtn_b32 v0, v3, v1, v2
=>
  ds_cmpstore_rtn_b32 v0, v3, v2, v1
";

#[test]
fn same_word_on_gfx1030_and_gfx1100_is_refuted() {
    let (r, _) = verify(SAME_WORD, &[]);
    assert_eq!(r.code, 1, "{}", r.context());
    assert!(
        r.stdout.contains("gfx1030->gfx1100 REFUTED"),
        "{}",
        r.context()
    );
    // The counterexample says where each side ran.
    assert!(
        r.stdout.contains("source steps (on gfx1030):"),
        "{}",
        r.context()
    );
    assert!(
        r.stdout.contains("target steps (on gfx1100):"),
        "{}",
        r.context()
    );
}

#[test]
fn data_operands_exchanged_is_proved() {
    let (r, _) = verify(SWAPPED, &[]);
    assert_eq!(r.code, 0, "{}", r.context());
    assert!(
        r.stdout.contains("gfx1030->gfx1100 PROVED"),
        "{}",
        r.context()
    );
}

/// The command line pair overrides the rule's targets: the same rules without `Targets:`.
#[test]
fn from_to_on_the_command_line() {
    let strip = |t: &str| t.replace("Targets: gfx1030 -> gfx1100\n", "");
    let (r, _) = verify(&strip(SAME_WORD), &["--from", "gfx1030", "--to", "gfx1100"]);
    assert_eq!(r.code, 1, "{}", r.context());
    assert!(
        r.stdout.contains("gfx1030->gfx1100 REFUTED"),
        "{}",
        r.context()
    );
    let (r, _) = verify(&strip(SWAPPED), &["--from", "gfx1030", "--to", "gfx1100"]);
    assert_eq!(r.code, 0, "{}", r.context());
    // Run on one target, the gfx10 form of the same rule fails to bind on gfx1100 (no
    // ds_cmpst there), so the pair is what makes it checkable.
    let (r, _) = verify(&strip(SWAPPED), &["--target", "gfx1100"]);
    assert_eq!(r.code, 2, "{}", r.context());
}

/// gfx1030 has no `ds_store_b32` (gfx11's name for ds_write_b32, LLVM DSInstructions.td):
/// a target side the second target cannot encode is an input error at that instruction.
#[test]
fn target_side_checked_against_its_own_target() {
    let text = "\
Name: gfx11-name-on-gfx10
Targets: gfx1100 -> gfx1030
  ds_store_b32 %a, %x
=>
  ds_store_b32 %a, %x
";
    let (r, p) = verify(text, &[]);
    assert_eq!(r.code, 2, "{}", r.context());
    let errs = r.error_lines();
    assert_eq!(errs.len(), 1, "{}", r.context());
    assert!(
        errs[0].starts_with(&format!("{p}:5:3: error: ")),
        "{}",
        errs[0]
    );
}

#[test]
fn bad_pairs_are_input_errors() {
    let two = "\
Name: two-on-the-right
Targets: gfx900 -> gfx1030, gfx1100
  ds_write_b32 %a, %x
=>
  ds_write_b32 %a, %x
";
    let (r, p) = verify(two, &[]);
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(
        r.stderr.contains(&format!(
            "{p}:2:20: error: the target side of `->` names one target"
        )) || r.stdout.contains(&format!(
            "{p}:2:20: error: the target side of `->` names one target"
        )),
        "{}",
        r.context()
    );
    let lanes = "\
Name: cross-lanes
Targets: gfx900 -> gfx1030
Lanes: 2
  ds_write_b32 %a, %x
=>
  ds_write_b32 %a, %x
";
    let (r, _) = verify(lanes, &[]);
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(
        r.all().contains("checked on one lane only"),
        "{}",
        r.context()
    );
    let (r, _) = verify(lanes, &["--from", "gfx900,gfx90a", "--to", "gfx1030"]);
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(
        r.all()
            .contains("--from gfx900,gfx90a: name exactly one target"),
        "{}",
        r.context()
    );
}

/// gfx9 and gfx10 read one V# differently (GCN vs RDNA layout: CLRX GcnMemHandling.md, RDNA
/// ISA guide buffer resource table): a cross-generation buffer verdict lists the fields it
/// cannot map. Same descriptor, 32-bit range: with OOB_SELECT 0 (RDNA's structured check) a
/// raw-buffer load in range on gfx900 (stride 0) reads 0 on gfx1030 -- refuted either way.
#[test]
fn buffer_verdicts_name_unmapped_vsharp_fields() {
    let text = "\
Name: buffer-load-gfx900-to-gfx1030
Targets: gfx900 -> gfx1030
  buffer_load_dword %v, %a, %r, %s offen
=>
  buffer_load_dword %v, %a, %r, %s offen
";
    let (r, _) = verify(text, &[]);
    assert!(r.stdout.contains("gfx900->gfx1030"), "{}", r.context());
    assert!(
        r.stdout
            .contains("assumes: V# oob_select (bits 125:124 on gfx1030) has no gfx900 counterpart"),
        "{}",
        r.context()
    );
    // The V# is shown decoded by both layouts.
    assert!(r.stdout.contains("(on gfx1030)"), "{}", r.context());
}
