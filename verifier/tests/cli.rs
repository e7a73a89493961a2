//! Integration tests of the `gcnsmt` binary: input errors (exit code 2, one
//! `FILE:LINE:COL: error:` line at the right place, no panic), verdict exit codes, command-line
//! usage errors, and a no-panic test over random mutations of the rule corpus.

use gcnsmt_semantics::target::Target;
use gcnsmt_verifier::check::{check, Options};
use gcnsmt_verifier::rules::parse_rules;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::Path;
use std::time::{Duration, Instant};

use gcnsmt_testkit::{Run, TempDir};

fn run(args: &[&str], stdin: Option<&str>) -> Run {
    gcnsmt_testkit::run(env!("CARGO_BIN_EXE_gcnsmt"), args, stdin, &[])
}

fn verify(path: &Path, extra: &[&str]) -> Run {
    let p = path.to_str().unwrap();
    let mut args = vec!["verify", p];
    args.extend_from_slice(extra);
    let r = run(&args, None);
    r.assert_no_panic();
    r
}

/// 1-based line and column of the `nth` (0-based) occurrence of `needle` in `text`.
fn pos_of(text: &str, needle: &str, nth: usize) -> (usize, usize) {
    let off = text
        .match_indices(needle)
        .nth(nth)
        .unwrap_or_else(|| panic!("`{needle}` #{nth} not in the test text"))
        .0;
    let before = &text[..off];
    let line = before.matches('\n').count() + 1;
    let col = off - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, col)
}

/// Run `verify` on `text` and check for exit code 2 and exactly one error line, at
/// `FILE:line:col` where (line, col) is the position of the `nth` occurrence of `at` in `text`,
/// whose message contains `msg`.
fn expect_input_error(tag: &str, text: &str, at: (&str, usize), msg: &str, extra: &[&str]) {
    let (line, col) = pos_of(text, at.0, at.1);
    expect_input_error_at(tag, text, (line, col), msg, extra);
}

fn expect_input_error_at(tag: &str, text: &str, lc: (usize, usize), msg: &str, extra: &[&str]) {
    let r = expect_one_error(tag, text, lc, msg, extra);
    assert!(
        !r.stdout.contains("PROVED"),
        "{tag}: a malformed rule was proved\n{}",
        r.context()
    );
}

/// As [`expect_input_error`], for a file whose other, well-formed rules still run (and may be
/// proved): exit code 2 and exactly the one error line.
fn expect_error_others_run(tag: &str, text: &str, at: (&str, usize), msg: &str) -> Run {
    let lc = pos_of(text, at.0, at.1);
    expect_one_error(tag, text, lc, msg, &[])
}

fn expect_one_error(tag: &str, text: &str, lc: (usize, usize), msg: &str, extra: &[&str]) -> Run {
    let dir = TempDir::new(tag);
    let path = dir.write(&format!("{tag}.rules"), text);
    let r = verify(&path, extra);
    assert_eq!(r.code, 2, "{tag}: wrong exit code\n{}", r.context());
    let errs = r.error_lines();
    assert_eq!(errs.len(), 1, "{tag}: want one error line\n{}", r.context());
    let want = format!("{}:{}:{}: error: ", path.display(), lc.0, lc.1);
    assert!(
        errs[0].starts_with(&want),
        "{tag}: want an error starting `{want}`, got `{}`\n{}",
        errs[0],
        r.context()
    );
    assert!(
        errs[0].contains(msg),
        "{tag}: want `{msg}` in `{}`",
        errs[0]
    );
    r
}

// ---------------------------------------------------------------------------------------------
// 1. Malformed rules.

#[test]
fn error_missing_arrow() {
    let text = "\
; a comment
Name: no-arrow
Targets: gfx900
  ds_read_b32 %x, %a
  ds_read_b32 %x, %a
Expect: proved
";
    expect_input_error("no_arrow", text, ("Name:", 0), "no `=>`", &[]);
}

// A malformed rule is reported alone: the file's other rules still run (exit 2 overall).
#[test]
fn error_missing_arrow_in_first_of_two_rules() {
    let text = "\
Name: first
  ds_read_b32 %x, %a
  ds_read_b32 %x, %a
Name: second
Targets: gfx900
  ds_read_b32 %x, %a
=>
  ds_read_b32 %x, %a
Name: third
Targets: gfx900
Dead: m0, %q
  ds_read_b32 %x, %a
=>
  ds_read_b32 %x, %a
";
    let dir = TempDir::new("no_arrow2");
    let path = dir.write("no_arrow2.rules", text);
    let r = verify(&path, &["--no-matrix"]);
    assert_eq!(r.code, 2, "{}", r.context());
    let errs = r.error_lines();
    assert_eq!(errs.len(), 2, "{}", r.context());
    assert!(errs[0].starts_with(&format!("{}:1:1: error: ", path.display())));
    assert!(errs[0].contains("no `=>`"), "{}", errs[0]);
    let (l, c) = pos_of(text, "%q", 0);
    assert!(errs[1].starts_with(&format!("{}:{l}:{c}: error: ", path.display())));
    assert!(errs[1].contains("undefined variable %q"), "{}", errs[1]);
    assert!(
        r.stdout.contains("second") && r.stdout.contains("PROVED"),
        "{}",
        r.context()
    );
}

// An empty target side deletes the source: a load whose result is dead goes away (on gfx900
// nothing else observes it), one whose result is live does not.
#[test]
fn empty_target_side_deletes() {
    let rule = |dead: &str| {
        format!("Name: delete-load\nTargets: gfx900\n{dead}  ds_read_b32 %x, %a\n=>\n")
    };
    let dir = TempDir::new("empty_tgt");
    let live = verify(&dir.write("live.rules", &rule("")), &["--no-matrix"]);
    assert_eq!(live.code, 1, "{}", live.context());
    assert!(live.stdout.contains("REFUTED"), "{}", live.context());
    let dead = verify(
        &dir.write("dead.rules", &rule("Dead: %x\n")),
        &["--no-matrix"],
    );
    assert_eq!(dead.code, 0, "{}", dead.context());
    assert!(dead.stdout.contains("PROVED"), "{}", dead.context());
}

// `Dead: m0`: setting M0 before a gfx9 DS read (which does not read it) is removable only
// when M0's final value does not matter; on gfx802 the read is bounded by M0 (lds_limit=M0),
// so the rewrite is refuted even then.
#[test]
fn dead_m0() {
    let rule = |t: &str, dead: &str| {
        format!(
            "Name: drop-m0-init\nTargets: {t}\n{dead}  s_mov_b32 m0, -1\n  \
             ds_read_b32 %x, %a\n=>\n  ds_read_b32 %x, %a\n"
        )
    };
    let dir = TempDir::new("dead_m0");
    let go = |name: &str, t: &str, dead: &str| {
        verify(&dir.write(name, &rule(t, dead)), &["--no-matrix"])
    };
    let r = go("a.rules", "gfx900", "Dead: m0\n");
    assert_eq!(r.code, 0, "{}", r.context());
    let r = go("b.rules", "gfx900", "");
    assert_eq!(r.code, 1, "{}", r.context());
    let r = go("c.rules", "gfx802", "Dead: m0\n");
    assert_eq!(r.code, 1, "{}", r.context());
    let r = go("d.rules", "gfx900", "Dead: v7\n");
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(
        r.stdout.contains("no instruction of the rule names v7"),
        "{}",
        r.context()
    );
}

// `Pre:` names concrete registers: with v1 == 0, adding v1 is a move; M0 == 0 says nothing
// about v1.
#[test]
fn pre_names_concrete_registers() {
    let rule = |pre: &str| {
        format!(
            "Name: add-zero-reg\nTargets: gfx900\n{pre}  v_add_u32 v2, v1, %a\n=>\n  \
             v_mov_b32 v2, %a\n"
        )
    };
    let dir = TempDir::new("pre_regs");
    let r = verify(
        &dir.write("a.rules", &rule("Pre: v1 == 0\n")),
        &["--no-matrix"],
    );
    assert_eq!(r.code, 0, "{}", r.context());
    let r = verify(
        &dir.write("b.rules", &rule("Pre: m0 == 0\n")),
        &["--no-matrix"],
    );
    assert_eq!(r.code, 1, "{}", r.context());
}

#[test]
fn error_second_arrow() {
    let text = "\
Name: two-arrows
Targets: gfx900
  ds_read_b32 %x, %a
=>
  ds_read_b32 %x, %a
 =>
  ds_read_b32 %x, %a
";
    expect_input_error("two_arrows", text, ("=>", 1), "second `=>`", &[]);
}

#[test]
fn error_unknown_header_key() {
    let text = "\
Name: bad-key
Targets: gfx900
Frobnicate: yes
  ds_read_b32 %x, %a
=>
  ds_read_b32 %x, %a
";
    expect_input_error(
        "bad_key",
        text,
        ("Frobnicate", 0),
        "unknown header `Frobnicate:`",
        &[],
    );
}

#[test]
fn error_misspelled_expect_after_instructions() {
    let text = "\
Name: bad-key-late
Targets: gfx900
  ds_read_b32 %x, %a
=>
  ds_read_b32 %x, %a
  Expct: proved
";
    expect_input_error(
        "bad_key_late",
        text,
        ("Expct", 0),
        "unknown header `Expct:`",
        &[],
    );
}

#[test]
fn error_name_with_spaces() {
    let text = "\
Name: two words
Targets: gfx900
  ds_read_b32 %x, %a
=>
  ds_read_b32 %x, %a
";
    expect_input_error("name_spaces", text, ("two words", 0), "one word", &[]);
}

#[test]
fn error_duplicate_name() {
    let text = "\
Name: twice
Targets: gfx900
  ds_read_b32 %x, %a
=>
  ds_read_b32 %x, %a

Name: twice
Targets: gfx900
  ds_read_b32 %x, %a
=>
  ds_read_b32 %x, %a
";
    let r = expect_error_others_run("dup", text, ("Name:", 1), "already defined at line 1");
    assert!(
        r.stdout.contains("PROVED"),
        "the first `twice` runs\n{}",
        r.context()
    );
}

#[test]
fn error_instruction_before_name() {
    let text = "\
; instructions must follow a Name: line
   ds_read_b32 %x, %a
Name: late
  ds_read_b32 %x, %a
=>
  ds_read_b32 %x, %a
";
    expect_error_others_run(
        "before_name",
        text,
        ("ds_read_b32", 0),
        "before the first `Name:`",
    );
}

#[test]
fn error_header_before_name() {
    let text = "\
Targets: gfx900
Name: late
  ds_read_b32 %x, %a
=>
  ds_read_b32 %x, %a
";
    expect_error_others_run(
        "hdr_before_name",
        text,
        ("Targets", 0),
        "before the first `Name:`",
    );
}

#[test]
fn error_unknown_mnemonic() {
    let text = "\
Name: unknown-mnemonic
  ds_read_b32 %x, %a
=>
    ds_frobnicate_b32 %x, %a
";
    expect_input_error(
        "unk_mn",
        text,
        ("ds_frobnicate_b32", 0),
        "unknown mnemonic",
        &[],
    );
}

#[test]
fn error_unknown_mnemonic_with_targets() {
    let text = "\
Name: unknown-mnemonic-targets
Targets: gfx900, gfx1100
  ds_frobnicate_b32 %x, %a
=>
  ds_frobnicate_b32 %x, %a
";
    expect_input_error(
        "unk_mn2",
        text,
        ("ds_frobnicate_b32", 0),
        "unknown mnemonic",
        &[],
    );
}

#[test]
fn error_unknown_alu_mnemonic() {
    let text = "\
Name: unknown-alu
Targets: gfx900
  v_frob_b32 %b, %a
  ds_read_b32 %x, %b
=>
  ds_read_b32 %x, %a
";
    expect_input_error("unk_alu", text, ("v_frob_b32", 0), "unknown mnemonic", &[]);
}

#[test]
fn error_gfx11_mnemonic_on_gfx900() {
    let text = "\
Name: load-on-gfx9
Targets: gfx900
  ds_load_b32 %x, %a
=>
  ds_load_b32 %x, %a offset:0
";
    expect_input_error(
        "load_gfx900",
        text,
        ("ds_load_b32", 0),
        "not available on gfx900",
        &[],
    );
}

#[test]
fn error_gfx9_mnemonic_on_gfx1100() {
    let text = "\
Name: read-on-gfx11
Targets: gfx1100
  ds_read_b32 %x, %a
=>
  ds_read_b32 %x, %a offset:0
";
    expect_input_error(
        "read_gfx1100",
        text,
        ("ds_read_b32", 0),
        "not available on gfx1100",
        &[],
    );
}

#[test]
fn error_mnemonic_missing_on_one_listed_target() {
    // gfx900 has ds_read_b32 (and is verified); gfx1100 does not: one error for the rule.
    let text = "\
Name: read-on-both
Targets: gfx900, gfx1100
  ds_read_b32 %x, %a
=>
  ds_read_b32 %x, %a offset:0
";
    let (line, col) = pos_of(text, "ds_read_b32", 0);
    let dir = TempDir::new("read_both");
    let path = dir.write("read_both.rules", text);
    let r = verify(&path, &[]);
    assert_eq!(r.code, 2, "{}", r.context());
    let errs = r.error_lines();
    assert_eq!(errs.len(), 1, "{}", r.context());
    assert!(
        errs[0].starts_with(&format!("{}:{line}:{col}: error: ", path.display())),
        "{}",
        r.context()
    );
}

#[test]
fn error_offset_out_of_range() {
    let text = "\
Name: offset-too-big
Targets: gfx900
  ds_read_b32 %x, %a offset:65536
=>
  ds_read_b32 %x, %a
";
    expect_input_error("off16", text, ("65536", 0), "out of range", &[]);
}

#[test]
fn error_offset_out_of_range_without_targets() {
    let text = "\
Name: offset-too-big-any
  ds_read_b32 %x, %a
=>
  ds_read_b32 %x, %a offset:65536
";
    expect_input_error("off16_any", text, ("65536", 0), "out of range", &[]);
}

#[test]
fn error_offset1_out_of_range() {
    let text = "\
Name: offset1-too-big
Targets: gfx900
  ds_read_b32 %x, %a offset:0
  ds_read_b32 %y, %a offset:1024
=>
  ds_read2_b32 {%x, %y}, %a offset0:0 offset1:256
";
    expect_input_error("off8", text, ("256", 0), "out of range", &[]);
}

#[test]
fn error_offset_on_pair_instruction() {
    let text = "\
Name: offset-on-read2
Targets: gfx900
  ds_read2_b32 %x, %a offset:4
=>
  ds_read2_b32 %x, %a
";
    expect_input_error("off_pair", text, ("offset:", 0), "offset0:N offset1:N", &[]);
}

#[test]
fn error_bad_immediate_expression() {
    let text = "\
Name: bad-imm
Targets: gfx900
  ds_read_b32 %x, %a offset:%o+
=>
  ds_read_b32 %x, %a offset:%o
";
    let dir = TempDir::new("bad_imm");
    let path = dir.write("bad_imm.rules", text);
    let r = verify(&path, &[]);
    assert_eq!(r.code, 2, "{}", r.context());
    let errs = r.error_lines();
    assert_eq!(errs.len(), 1, "{}", r.context());
    // The expression ends where an operand is needed: just past `%o+`.
    let (l, c) = pos_of(text, "%o+", 0);
    let want = format!("{}:{l}:{}: error: ", path.display(), c + 3);
    assert!(errs[0].starts_with(&want), "want `{want}`\n{}", r.context());
}

#[test]
fn error_wrong_tuple_size() {
    let text = "\
Name: read2-single-vgpr
Targets: gfx900
  ds_read_b32 v2, %a
  ds_read_b32 v3, %a offset:4
=>
  ds_read2_b32 v2, %a offset0:0 offset1:1
";
    expect_input_error(
        "tuple",
        text,
        ("v2, %a offset0", 0),
        "2-register tuple",
        &[],
    );
}

#[test]
fn error_misaligned_tuple_gfx90a() {
    let text = "\
Name: misaligned
Targets: gfx90a
  ds_read_b32 v3, %a
  ds_read_b32 v4, %a offset:4
=>
  ds_read2_b32 v[3:4], %a offset0:0 offset1:1
";
    expect_input_error("misaligned", text, ("v[3:4]", 0), "misaligned", &[]);
}

#[test]
fn misaligned_tuple_fine_on_gfx900() {
    let text = "\
Name: misaligned-ok
Targets: gfx900
  ds_read_b32 v3, %a
  ds_read_b32 v4, %a offset:4
=>
  ds_read2_b32 v[3:4], %a offset0:0 offset1:1
Expect: proved
";
    let dir = TempDir::new("misaligned_ok");
    let r = verify(&dir.write("m.rules", text), &[]);
    assert_eq!(r.code, 0, "{}", r.context());
    assert!(r.stdout.contains("PROVED (as expected)"), "{}", r.context());
}

#[test]
fn error_agpr_on_gfx900() {
    let text = "\
Name: agpr-gfx900
Targets: gfx900
  ds_read_b32 a1, %a
=>
  ds_read_b32 a1, %a
";
    expect_input_error("agpr", text, ("a1", 0), "AGPR", &[]);
}

#[test]
fn error_agpr_address_on_gfx90a() {
    let text = "\
Name: agpr-addr
Targets: gfx90a
  ds_read_b32 %x, a2
=>
  ds_read_b32 %x, a2
";
    expect_input_error("agpr_addr", text, ("a2", 0), "AGPR", &[]);
}

/// Issue 14's defect: the verifier's own operand parser accepted a mixed VGPR/AGPR
/// `ds_cmpst_rtn_b32` on gfx90a and proved the rule, while llvm-mc 22 (and `gcnsmt encode`)
/// reject the line: "vdst and data operands must be all VGPRs or all AGPRs".
#[test]
fn error_mixed_vgpr_agpr_data_is_never_proved() {
    let text = "\
Name: mixed-agpr
Targets: gfx90a
  ds_cmpst_rtn_b32 v1, v2, a3, v4
=>
  ds_cmpst_rtn_b32 v1, v2, a3, v4
";
    expect_input_error("mixed_agpr", text, ("a3", 0), "all VGPRs or all AGPRs", &[]);
}

/// A variable may be allocated in either register file, so a variable beside a concrete AGPR
/// is an instruction that exists.
#[test]
fn variable_beside_an_agpr_is_accepted() {
    let dir = TempDir::new("var_agpr");
    let path = dir.write(
        "var_agpr.rules",
        "Name: var-agpr\nTargets: gfx90a\n  ds_cmpst_rtn_b32 %d, %a, a4, %s\n=>\n  ds_cmpst_rtn_b32 %d, %a, a4, %s\n",
    );
    let r = verify(&path, &[]);
    assert_eq!(r.code, 0, "{}", r.context());
}

/// Issue 19: llvm-mc 22 rejects a literal wider than 32 bits for a 32-bit operand
/// ("invalid operand for instruction"); gcnsmt truncated it and proved the rule.
#[test]
fn error_literal_wider_than_32_bits() {
    let text = "\
Name: wide-literal
Targets: gfx900
  v_mov_b32 %x, 0x100000000
=>
  v_mov_b32 %x, 0
";
    expect_input_error("wide_literal", text, ("0x100000000", 0), "32-bit", &[]);
}

#[test]
fn error_wrong_operand_count() {
    let text = "\
Name: too-many-operands
Targets: gfx900
  ds_read_b32 %x, %a, %b
=>
  ds_read_b32 %x, %a
";
    expect_input_error("nops", text, ("%b", 0), "operand", &[]);
}

#[test]
fn error_undefined_variable_in_pre() {
    let text = "\
Name: undefined-pre
Targets: gfx900
Pre: %x == 1 && %nope == 2
  ds_read_b32 %x, %a
=>
  ds_read_b32 %x, %a
";
    expect_input_error(
        "undef_pre",
        text,
        ("%nope", 0),
        "undefined variable %nope",
        &[],
    );
}

#[test]
fn error_undefined_variable_in_pre_prefix_of_other() {
    // `%x` is undefined; `%xx` (defined) comes first and starts with the same letters.
    let text = "\
Name: undefined-pre-prefix
Targets: gfx900
Pre: %xx == 1 && %x == 2
  ds_read_b32 %xx, %a
=>
  ds_read_b32 %xx, %a
";
    expect_input_error("undef_pre2", text, ("%x ", 0), "undefined variable %x", &[]);
}

#[test]
fn error_undefined_variable_in_dead() {
    let text = "\
Name: undefined-dead
Targets: gfx900
Dead: %x,  %gone
  ds_read_b32 %x, %a
=>
  ds_read_b32 %x, %a
";
    expect_input_error(
        "undef_dead",
        text,
        ("%gone", 0),
        "undefined variable %gone",
        &[],
    );
}

#[test]
fn error_dead_not_a_variable() {
    let text = "\
Name: dead-not-var
Targets: gfx900
Dead: %x, vx2
  ds_read_b32 %x, %a
=>
  ds_read_b32 %x, %a
";
    expect_input_error(
        "dead_nv",
        text,
        ("vx2", 0),
        "%-variables and registers",
        &[],
    );
}

#[test]
fn error_unknown_setting() {
    let text = "\
Name: unknown-setting
Targets: gfx900
Settings: alignment=DWORD, colour=blue
  ds_read_b32 %x, %a
=>
  ds_read_b32 %x, %a
";
    expect_input_error(
        "unk_set",
        text,
        ("colour", 0),
        "unknown setting `colour`",
        &[],
    );
}

#[test]
fn error_unknown_setting_value() {
    let text = "\
Name: unknown-setting-value
Targets: gfx900
Settings: lds_limit=SOMETIMES
  ds_read_b32 %x, %a
=>
  ds_read_b32 %x, %a
";
    expect_input_error("unk_setval", text, ("lds_limit", 0), "SOMETIMES", &[]);
}

#[test]
fn error_setting_without_value() {
    let text = "\
Name: setting-no-value
Targets: gfx900
Settings: lds_limit=M0,   alignment
  ds_read_b32 %x, %a
=>
  ds_read_b32 %x, %a
";
    expect_input_error("set_noval", text, ("alignment", 0), "name=value", &[]);
}

#[test]
fn error_unaligned_on_gfx802() {
    let text = "\
Name: unaligned-gfx8
Targets: gfx802
Settings: lds_limit=M0, alignment=UNALIGNED
  ds_read_b32 %x, %a
=>
  ds_read_b32 %x, %a
";
    expect_input_error("unaligned802", text, ("alignment", 0), "gfx802", &[]);
}

#[test]
fn error_unknown_target() {
    let text = "\
Name: unknown-target
Targets: gfx900, gfx9999
  ds_read_b32 %x, %a
=>
  ds_read_b32 %x, %a
";
    expect_input_error(
        "unk_tgt",
        text,
        ("gfx9999", 0),
        "unknown target `gfx9999`",
        &[],
    );
}

#[test]
fn error_unknown_target_in_range() {
    let text = "\
Name: unknown-target-range
Targets: gfx600..gfx9999
  ds_read_b32 %x, %a
=>
  ds_read_b32 %x, %a
";
    expect_input_error(
        "unk_tgt_range",
        text,
        ("gfx9999", 0),
        "unknown target `gfx9999`",
        &[],
    );
}

#[test]
fn error_bad_expect() {
    let text = "\
Name: bad-expect
Targets: gfx900
  ds_read_b32 %x, %a
=>
  ds_read_b32 %x, %a
Expect:   maybe
";
    expect_input_error(
        "bad_expect",
        text,
        ("maybe", 0),
        "unknown verdict `maybe`",
        &[],
    );
}

#[test]
fn error_bad_pre_expression() {
    let text = "\
Name: bad-pre
Targets: gfx900
Pre: %x == == 1
  ds_read_b32 %x, %a
=>
  ds_read_b32 %x, %a
";
    expect_input_error("bad_pre", text, ("==", 1), "bad precondition", &[]);
}

#[test]
fn error_bad_pre_expression_at_end() {
    let text = "\
Name: bad-pre-end
Targets: gfx900
Pre: %x ==
  ds_read_b32 %x, %a
=>
  ds_read_b32 %x, %a
";
    // The expression ends where an operand is needed: the column just past `==`.
    let (l, c) = pos_of(text, "==", 0);
    expect_input_error_at("bad_pre_end", text, (l, c + 2), "bad precondition", &[]);
}

#[test]
fn error_bad_pre_character() {
    let text = "\
Name: bad-pre-char
Targets: gfx900
Pre: %x == 1 $ 2
  ds_read_b32 %x, %a
=>
  ds_read_b32 %x, %a
";
    expect_input_error("bad_pre_char", text, ("$", 0), "bad precondition", &[]);
}

#[test]
fn error_pre_unknown_name() {
    let text = "\
Name: bad-pre-name
Targets: gfx900
Pre: %x == 1 && BOGUS == 2
  ds_read_b32 %x, %a
=>
  ds_read_b32 %x, %a
";
    expect_input_error("bad_pre_name", text, ("BOGUS", 0), "BOGUS", &[]);
}

#[test]
fn error_empty_pre() {
    let text = "\
Name: empty-pre
Targets: gfx900
Pre:
  ds_read_b32 %x, %a
=>
  ds_read_b32 %x, %a
";
    let (l, c) = pos_of(text, "Pre:", 0);
    expect_input_error_at("empty_pre", text, (l, c + 4), "empty precondition", &[]);
}

#[test]
fn error_register_variable_as_immediate() {
    // %a is an address register; using it as an offset too makes it an immediate.
    let text = "\
Name: reg-as-imm
Targets: gfx900
  ds_read_b32 %x, %a offset:%a
=>
  ds_read_b32 %x, %a
";
    expect_input_error("reg_imm", text, ("%a", 0), "immediate", &[]);
}

#[test]
fn expected_error_is_not_an_error() {
    let text = "\
Name: offset1-256-expected
Targets: gfx900
  ds_read_b32 %x, %a offset:0
  ds_read_b32 %y, %a offset:1024
=>
  ds_read2_b32 {%x, %y}, %a offset0:0 offset1:256
Expect: error
";
    let dir = TempDir::new("expected_error");
    let r = verify(&dir.write("e.rules", text), &[]);
    assert_eq!(r.code, 0, "{}", r.context());
    assert!(r.stdout.contains("ERROR (as expected)"), "{}", r.context());
}

// ---------------------------------------------------------------------------------------------
// 2. Verdicts and exit codes.

const PROVED_RULE: &str = "\
Name: write2-merge-gfx900
Targets: gfx900
Pre: %o % 4 == 0 && %o / 4 + 1 <= 255
  ds_write_b32 %a, %x offset:%o
  ds_write_b32 %a, %y offset:%o+4
=>
  ds_write2_b32 %a, %x, %y offset0:%o/4 offset1:%o/4+1
";

const REFUTED_RULE: &str = "\
Name: max-signed-is-not-unsigned
Targets: gfx900
  ds_max_i32 %a, %v
=>
  ds_max_u32 %a, %v
";

/// The verdict word of a verdict line (`NAME TARGET VERDICT ...`).
fn verdict_word(line: &str) -> &str {
    line.split_whitespace().nth(2).unwrap_or("")
}

/// Verdict lines of a rule (the rule-by-target matrix after the `rule x target` header is not
/// one of them).
fn verdict_lines<'a>(r: &'a Run, rule: &str) -> Vec<&'a str> {
    r.stdout
        .lines()
        .take_while(|l| !l.starts_with("rule x target"))
        .filter(|l| l.starts_with(&format!("{rule} ")))
        .collect()
}

#[test]
fn matrix_has_one_row_per_rule_and_a_column_per_target() {
    let dir = TempDir::new("matrix");
    let text = format!("{PROVED_RULE}Expect: proved\n\n{REFUTED_RULE}Expect: refuted\n");
    let r = verify(&dir.write("m.rules", &text), &[]);
    assert_eq!(r.code, 0, "{}", r.context());
    let m: Vec<&str> = r
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with("rule x target"))
        .collect();
    assert!(
        m[0].contains(" 600 ") && m[0].ends_with("1250"),
        "{}",
        r.context()
    );
    // Both rules run on gfx900 only (their Targets: lines): P and R in the 900 column (the
    // fourth target), `.` elsewhere.
    let cells =
        |row: &str| -> Vec<String> { row.split_whitespace().skip(1).map(str::to_string).collect() };
    let p = m
        .iter()
        .find(|l| l.starts_with("write2-merge-gfx900 "))
        .unwrap();
    let q = m
        .iter()
        .find(|l| l.starts_with("max-signed-is-not-unsigned "))
        .unwrap();
    assert_eq!(cells(p)[3], "P", "{}", r.context());
    assert_eq!(cells(q)[3], "R", "{}", r.context());
    assert_eq!(cells(p).iter().filter(|c| *c == ".").count(), 13);
    let r2 = verify(&dir.write("m2.rules", &text), &["--no-matrix"]);
    assert!(!r2.stdout.contains("rule x target"), "{}", r2.context());
}

#[test]
fn exit_0_all_proved() {
    let dir = TempDir::new("proved");
    let second = PROVED_RULE.replace("write2-merge-gfx900", "write2-merge-gfx900-b");
    let text = format!("{PROVED_RULE}Expect: proved\n\n{second}");
    let r = verify(&dir.write("p.rules", &text), &[]);
    assert_eq!(r.code, 0, "{}", r.context());
    assert_eq!(r.stdout.matches(" PROVED").count(), 2, "{}", r.context());
    assert!(r.stdout.contains("PROVED (as expected)"), "{}", r.context());
    assert!(r.stdout.contains("summary: 2 proved"), "{}", r.context());
}

#[test]
fn exit_0_refuted_as_expected() {
    let dir = TempDir::new("refuted_expected");
    let text = format!("{REFUTED_RULE}Expect: refuted\n");
    let r = verify(&dir.write("r.rules", &text), &[]);
    assert_eq!(r.code, 0, "{}", r.context());
    let v = verdict_lines(&r, "max-signed-is-not-unsigned");
    assert_eq!(v.len(), 1, "{}", r.context());
    assert!(v[0].contains("REFUTED (as expected)"), "{}", r.context());
    assert!(r.stdout.contains("first difference:"), "{}", r.context());
}

#[test]
fn exit_1_refuted_without_expect() {
    let dir = TempDir::new("refuted");
    let r = verify(&dir.write("r.rules", REFUTED_RULE), &[]);
    assert_eq!(r.code, 1, "{}", r.context());
    let v = verdict_lines(&r, "max-signed-is-not-unsigned");
    assert_eq!(v.len(), 1, "{}", r.context());
    assert!(v[0].contains("REFUTED"), "{}", r.context());
    assert!(!r.stdout.contains("PROVED"), "{}", r.context());
}

#[test]
fn exit_1_expectation_mismatch() {
    let dir = TempDir::new("mismatch");
    let text = format!("{REFUTED_RULE}Expect: proved\n");
    let r = verify(&dir.write("r.rules", &text), &[]);
    assert_eq!(r.code, 1, "{}", r.context());
    let v = verdict_lines(&r, "max-signed-is-not-unsigned");
    assert!(
        v[0].contains("REFUTED (EXPECTED PROVED)"),
        "{}",
        r.context()
    );
    assert!(
        r.stdout.contains("1 expectation mismatches"),
        "{}",
        r.context()
    );
}

#[test]
fn exit_1_proved_but_expected_refuted() {
    let dir = TempDir::new("mismatch2");
    let text = format!("{PROVED_RULE}Expect: refuted\n");
    let r = verify(&dir.write("p.rules", &text), &[]);
    assert_eq!(r.code, 1, "{}", r.context());
    assert!(
        r.stdout.contains("PROVED (EXPECTED REFUTED)"),
        "{}",
        r.context()
    );
}

#[test]
fn exit_1_valid_rule_expected_error() {
    let dir = TempDir::new("mismatch3");
    let text = format!("{PROVED_RULE}Expect: error\n");
    let r = verify(&dir.write("p.rules", &text), &[]);
    assert_eq!(r.code, 1, "{}", r.context());
    assert!(r.stdout.contains("(EXPECTED ERROR)"), "{}", r.context());
}

#[test]
fn exit_3_unknown_on_timeout() {
    // The real merge rule from the corpus; 1 ms is too little for z3.
    let corpus = include_str!("../../proofs/ds_merge.rules");
    let single = TempDir::new("unknown_single");
    let text = corpus
        .split("\n\n")
        .find(|b| b.contains("Name: ds-write2-b32-merge\n"))
        .expect("the rule is in the corpus");
    let p = single.write("w.rules", &format!("{text}\n"));
    let r = verify(&p, &["--target", "gfx900", "--timeout", "0.001"]);
    assert_eq!(r.code, 3, "{}", r.context());
    let v = verdict_lines(&r, "ds-write2-b32-merge");
    assert_eq!(v.len(), 1, "{}", r.context());
    assert_eq!(verdict_word(v[0]), "UNKNOWN", "{}", r.context());
    assert!(
        r.stdout.lines().all(|l| verdict_word(l) != "PROVED"),
        "{}",
        r.context()
    );
    assert!(r.stdout.contains("reason:"), "{}", r.context());
}

#[test]
fn inapplicable_contradictory_pre() {
    let body = "\
Targets: gfx900
Pre: %o == 1 && %o == 2
  ds_read_b32 %x, %a offset:%o
=>
  ds_read_b32 %x, %a offset:%o
";
    let dir = TempDir::new("inapplicable");
    // No expectation: reported, not proved.
    let r = verify(&dir.write("a.rules", &format!("Name: contra\n{body}")), &[]);
    let v = verdict_lines(&r, "contra");
    assert_eq!(v.len(), 1, "{}", r.context());
    assert!(v[0].contains(" INAPPLICABLE"), "{}", r.context());
    assert!(!r.stdout.contains("PROVED"), "{}", r.context());
    assert_eq!(r.code, 0, "{}", r.context());
    assert!(r.stdout.contains("1 inapplicable"), "{}", r.context());
    // As expected.
    let r = verify(
        &dir.write(
            "b.rules",
            &format!("Name: contra\n{body}Expect: inapplicable\n"),
        ),
        &[],
    );
    assert_eq!(r.code, 0, "{}", r.context());
    assert!(
        r.stdout.contains("INAPPLICABLE (as expected)"),
        "{}",
        r.context()
    );
    // Expected proved: a mismatch, never proved.
    let r = verify(
        &dir.write("c.rules", &format!("Name: contra\n{body}Expect: proved\n")),
        &[],
    );
    assert_eq!(r.code, 1, "{}", r.context());
    assert!(
        r.stdout.contains("INAPPLICABLE (EXPECTED PROVED)"),
        "{}",
        r.context()
    );
}

#[test]
fn inapplicable_source_never_encodable() {
    // The source's offset must fit 16 bits, so %o == 70000 leaves no state.
    let text = "\
Name: source-unencodable
Targets: gfx900
Pre: %o == 70000
  ds_read_b32 %x, %a offset:%o
=>
  ds_read_b32 %x, %a
";
    let dir = TempDir::new("inapplicable2");
    let r = verify(&dir.write("a.rules", text), &[]);
    let v = verdict_lines(&r, "source-unencodable");
    assert_eq!(v.len(), 1, "{}", r.context());
    assert!(v[0].contains(" INAPPLICABLE"), "{}", r.context());
}

#[test]
fn errors_win_over_refutations() {
    // One refuted rule and one malformed rule: exit code 2, and the refutation still prints.
    let text = format!(
        "{REFUTED_RULE}\nName: broken\nTargets: gfx900\n  ds_read_b32 %x, %a offset:65536\n=>\n  ds_read_b32 %x, %a\n"
    );
    let dir = TempDir::new("mixed");
    let r = verify(&dir.write("m.rules", &text), &[]);
    assert_eq!(r.code, 2, "{}", r.context());
    assert_eq!(r.error_lines().len(), 1, "{}", r.context());
    assert!(r.stdout.contains("REFUTED"), "{}", r.context());
}

// ---------------------------------------------------------------------------------------------
// 3. Command-line usage errors.

fn expect_usage_error(args: &[&str], stdin: Option<&str>, msg: &str) {
    let r = run(args, stdin);
    r.assert_no_panic();
    assert_eq!(r.code, 2, "{args:?}\n{}", r.context());
    let errs = r.error_lines();
    assert_eq!(
        errs.len(),
        1,
        "{args:?}: want one error line\n{}",
        r.context()
    );
    assert!(
        errs[0].contains(msg),
        "{args:?}: want `{msg}`\n{}",
        r.context()
    );
}

#[test]
fn usage_verify_missing_path() {
    let dir = TempDir::new("missing");
    let p = dir.path().join("does-not-exist.rules");
    expect_usage_error(
        &["verify", p.to_str().unwrap()],
        None,
        "no such file or directory",
    );
}

#[test]
fn usage_verify_unknown_target() {
    let dir = TempDir::new("usage_target");
    let p = dir.write("p.rules", PROVED_RULE);
    expect_usage_error(
        &["verify", p.to_str().unwrap(), "--target", "gfx9999"],
        None,
        "gfx9999",
    );
}

#[test]
fn usage_verify_unknown_setting() {
    let dir = TempDir::new("usage_set");
    // Two rules: the bad option is still reported once.
    let text = format!("{PROVED_RULE}\n{REFUTED_RULE}");
    let p = dir.write("p.rules", &text);
    expect_usage_error(
        &["verify", p.to_str().unwrap(), "--set", "foo=bar"],
        None,
        "foo",
    );
}

#[test]
fn usage_verify_unknown_setting_value() {
    let dir = TempDir::new("usage_setval");
    let text = format!("{PROVED_RULE}\n{REFUTED_RULE}");
    let p = dir.write("p.rules", &text);
    expect_usage_error(
        &["verify", p.to_str().unwrap(), "--set", "alignment=SIDEWAYS"],
        None,
        "SIDEWAYS",
    );
}

// Every setting docs/soundness.md describes, with its values (semantics/src/settings.rs docs).
#[test]
fn verify_help_lists_every_setting() {
    let r = run(&["verify", "--help"], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let help = r.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    for s in [
        "alignment=DWORD|UNALIGNED|STRICT",
        "lds_limit=M0|ALLOC|NONE",
        "buffer_soffset=SUBTRACT|IGNORE",
        "buffer_oob=END|START",
        "sbuffer_size=STRIDED|RECORDS",
        "buffer_soffset=SUBTRACT|IGNORE|WRAP",
        "buffer_struct=INDEX|BYTES",
        "buffer_swizzle=FORMULA|UNDEFINED",
    ] {
        assert!(help.contains(s), "`{s}` missing from: {help}");
    }
}

#[test]
fn usage_verify_setting_without_value() {
    let dir = TempDir::new("usage_setnv");
    let p = dir.write("p.rules", PROVED_RULE);
    expect_usage_error(
        &["verify", p.to_str().unwrap(), "--set", "alignment"],
        None,
        "NAME=VALUE",
    );
}

#[test]
fn usage_verify_bad_timeout() {
    let dir = TempDir::new("usage_timeout");
    let p = dir.write("p.rules", PROVED_RULE);
    expect_usage_error(
        &["verify", p.to_str().unwrap(), "--timeout", "0"],
        None,
        "--timeout",
    );
    expect_usage_error(
        &["verify", p.to_str().unwrap(), "--timeout=-1"],
        None,
        "--timeout",
    );
}

#[test]
fn usage_decode_invalid_word() {
    expect_usage_error(
        &["decode", "--target", "gfx900", "0xzz"],
        None,
        "not a hex number",
    );
}

#[test]
fn usage_decode_wrong_byte_count() {
    expect_usage_error(
        &["decode", "--target", "gfx900", "0x00", "0x01", "0x02"],
        None,
        "8 bytes",
    );
    expect_usage_error(
        &["decode", "--target", "gfx900", "0xd86c0000"],
        None,
        "8 bytes",
    );
}

#[test]
fn usage_decode_empty_stdin() {
    expect_usage_error(&["decode", "--target", "gfx900"], Some(""), "8 bytes");
}

#[test]
fn usage_decode_unknown_target() {
    expect_usage_error(
        &["decode", "--target", "gfx9999", "0xd86c0000", "0x02000014"],
        None,
        "gfx9999",
    );
}

#[test]
fn decode_round_trip_ok() {
    let r = run(
        &[
            "encode",
            "--target",
            "gfx900",
            "ds_read2_b32 v[2:3], v20 offset0:3 offset1:255",
        ],
        None,
    );
    r.assert_no_panic();
    assert_eq!(r.code, 0, "{}", r.context());
    let enc = r.stdout.split("encoding: [").nth(1).unwrap();
    let bytes: Vec<&str> = enc.trim_end().trim_end_matches(']').split(',').collect();
    let mut args = vec!["decode", "--target", "gfx900"];
    args.extend(bytes.iter().copied());
    let r = run(&args, None);
    assert_eq!(r.code, 0, "{}", r.context());
    assert!(
        r.stdout
            .contains("ds_read2_b32 v[2:3], v20 offset0:3 offset1:255"),
        "{}",
        r.context()
    );
}

#[test]
fn usage_encode_bad_line() {
    let line = "ds_read_b32 v1, v2 offset:70000";
    let col = line.find("70000").unwrap() + 1;
    let r = run(&["encode", "--target", "gfx900", line], None);
    r.assert_no_panic();
    assert_eq!(r.code, 2, "{}", r.context());
    let errs = r.error_lines();
    assert_eq!(errs.len(), 1, "{}", r.context());
    assert!(
        errs[0].starts_with(&format!("<argument>:1:{col}: error: ")),
        "{}",
        r.context()
    );
    expect_usage_error(
        &["encode", "--target", "gfx900", "ds_frobnicate v1, v2"],
        None,
        "ds_frobnicate",
    );
    expect_usage_error(
        &["encode", "--target", "gfx1100", "ds_read_b32 v1, v2"],
        None,
        "ds_read_b32",
    );
    expect_usage_error(&["encode", "--target", "gfx900", ""], None, "error");
    expect_usage_error(
        &["encode", "--target", "gfx900", "ds_read_b32 v1, v2 offset:"],
        None,
        "error",
    );
}

// ---------------------------------------------------------------------------------------------
// 4. No panics on mutated rule files.

const CORPUS: [&str; 6] = [
    include_str!("../../proofs/ds_merge.rules"),
    include_str!("../../proofs/ds_split.rules"),
    include_str!("../../proofs/ds_offset_fold.rules"),
    include_str!("../../proofs/ds_atomics.rules"),
    include_str!("../../proofs/ds_memory.rules"),
    include_str!("../../proofs/ds_errors.rules"),
];

/// Split a rule file into chunks of one rule each (the comments before a rule go with it).
fn rule_chunks(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    for l in text.lines() {
        if l.starts_with("Name:") && cur.contains("Name:") {
            out.push(std::mem::take(&mut cur));
        }
        cur.push_str(l);
        cur.push('\n');
    }
    if cur.contains("Name:") {
        out.push(cur);
    }
    out
}

const ALPHABET: &[u8] = b"%:,=>{}[]()0123456789abvxo_ \t;/.-+*&|!~<>\nNameTargetsPreDeadExpect";

fn mutate(rng: &mut StdRng, text: &str) -> String {
    let mut s: Vec<char> = text.chars().collect();
    let n = rng.gen_range(1..=4);
    for _ in 0..n {
        if s.is_empty() {
            s.push('x');
        }
        match rng.gen_range(0..9) {
            // Delete a character.
            0 => {
                let i = rng.gen_range(0..s.len());
                s.remove(i);
            }
            // Duplicate a character.
            1 => {
                let i = rng.gen_range(0..s.len());
                let c = s[i];
                s.insert(i, c);
            }
            // Swap two characters (near each other, usually).
            2 => {
                let i = rng.gen_range(0..s.len());
                let j = (i + rng.gen_range(1..4)).min(s.len() - 1);
                s.swap(i, j);
            }
            // Replace a character with one from the rule alphabet (or any char).
            3 => {
                let i = rng.gen_range(0..s.len());
                s[i] = if rng.gen_bool(0.9) {
                    ALPHABET[rng.gen_range(0..ALPHABET.len())] as char
                } else {
                    char::from_u32(rng.gen_range(0x80..0x3000)).unwrap_or('\u{e9}')
                };
            }
            // Line edits.
            k => {
                let text: String = s.iter().collect();
                let mut lines: Vec<&str> = text.lines().collect();
                if lines.is_empty() {
                    continue;
                }
                let i = rng.gen_range(0..lines.len());
                let j = rng.gen_range(0..lines.len());
                match k {
                    4 => {
                        lines.remove(i);
                    }
                    5 => lines.insert(j, lines[i]),
                    6 => lines.swap(i, j),
                    // Truncate a line.
                    _ => {
                        let l = lines[i];
                        let cut = l
                            .char_indices()
                            .map(|(p, _)| p)
                            .nth(rng.gen_range(0..=l.chars().count().max(1) - 1))
                            .unwrap_or(0);
                        lines[i] = &l[..cut];
                    }
                }
                s = lines.join("\n").chars().collect();
                s.push('\n');
            }
        }
    }
    s.into_iter().collect()
}

#[test]
fn no_panic_on_mutated_rules() {
    let mut chunks: Vec<String> = CORPUS.iter().flat_map(|t| rule_chunks(t)).collect();
    // Some mutations span two rules.
    let pairs: Vec<String> = chunks
        .windows(2)
        .map(|w| format!("{}{}", w[0], w[1]))
        .collect();
    chunks.extend(pairs);
    let opts = Options {
        timeout: Duration::from_millis(200),
        settings: vec![],
        ..Default::default()
    };
    let target = Target::Gfx900;
    let mut rng = StdRng::seed_from_u64(0x6763_6e73_6d74);
    let start = Instant::now();
    // Solver work is the slow part: stop checking (but keep parsing) after this budget
    // (35 s under GCNSMT_SLOW=1, 10 s in the default tier).
    let check_budget = gcnsmt_testkit::tiered(Duration::from_secs(10), Duration::from_secs(35));
    let (mut parsed, mut checked, mut errors) = (0, 0, 0);
    let mut panics: Vec<(String, String)> = Vec::new();
    let mut bad_locs: Vec<(String, String)> = Vec::new();
    let quiet_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    for i in 0..2000 {
        let base = &chunks[rng.gen_range(0..chunks.len())];
        // Every tenth mutation is of a whole file.
        let text = if i % 10 == 0 {
            let f = CORPUS[rng.gen_range(0..CORPUS.len())];
            mutate(&mut rng, f)
        } else {
            mutate(&mut rng, base)
        };
        let res = std::panic::catch_unwind(|| parse_rules("fuzz.rules", &text));
        let rules = match res {
            Err(p) => {
                panics.push((text.clone(), panic_msg(&p)));
                continue;
            }
            Ok(Err(e)) => {
                errors += 1;
                if let Some(m) = bad_loc(&text, &e) {
                    bad_locs.push((text.clone(), m));
                }
                continue;
            }
            Ok(Ok(r)) => r,
        };
        parsed += 1;
        if start.elapsed() > check_budget {
            continue;
        }
        // Whole-file mutations: check only a couple of rules to bound the solver time.
        for rule in rules.iter().take(2) {
            checked += 1;
            let r = std::panic::catch_unwind(|| check(rule, target, &opts));
            match r {
                Err(p) => panics.push((
                    text.clone(),
                    format!("rule {}: {}", rule.name, panic_msg(&p)),
                )),
                Ok(Err(e)) => {
                    if let Some(m) = bad_loc(&text, &e) {
                        bad_locs.push((text.clone(), m));
                    }
                }
                Ok(Ok(_)) => {}
            }
        }
    }
    std::panic::set_hook(quiet_hook);
    eprintln!(
        "mutations: 2000, parse errors {errors}, parsed {parsed}, checked {checked} rules, {:.1?}",
        start.elapsed()
    );
    if let Some((text, msg)) = panics.first() {
        panic!(
            "{} of the mutated inputs panicked; the first: {msg}\n--- input\n{text}",
            panics.len()
        );
    }
    if let Some((text, msg)) = bad_locs.first() {
        panic!(
            "{} input errors point outside the text; the first: {msg}\n--- input\n{text}",
            bad_locs.len()
        );
    }
    assert!(parsed > 100 && checked > 50, "the mutations barely parse");
}

// The random mutations above start from the corpus; these proptest cases start from nothing
// (arbitrary text) and from rule-syntax pieces, so the header and expression readers see
// inputs no corpus rule resembles. Parsing only (no solver): many cases, little time.
const RULE_PIECES: &[&str] = &[
    "Name: r",
    "Name:",
    "Targets: gfx900",
    "Targets: gfx11..",
    "Targets: ..",
    "Settings: alignment=DWORD",
    "Settings:",
    "Pre: %o % 4 == 0",
    "Pre: (",
    "Pre:",
    "Dead: %t",
    "Dead:",
    "Source: x",
    "Expect: proved",
    "Expect: nope",
    "=>",
    "\n",
    "\n",
    "\n",
    "  ds_read_b32 %x, %a offset:%o",
    "  ds_write_b32 %a, %x",
    "  ds_read2_b32 {%x, %y}, %a offset0:1 offset1:2",
    "  v_add_u32 %a, %b, %c",
    "  s_mov_b32 m0, -1",
    "%",
    "%x",
    "{",
    "}",
    "{%x,",
    "offset:",
    "offset:%o+",
    "v[2:3]",
    "v[",
    "; c",
    "// c",
    "é",
    "\t",
    "0xffffffffffffffffffff",
    "?",
    ":",
];

/// `cases` cases from this file's fixed seed (see [`gcnsmt_testkit::proptest_config`]).
fn config(cases: u32) -> gcnsmt_testkit::ProptestConfig {
    gcnsmt_testkit::proptest_config(cases, 0x6763_6e73_6d74)
}

proptest::proptest! {
    #![proptest_config(config(3000))]

    #[test]
    fn rule_parser_on_arbitrary_text(text in "\\PC{0,400}") {
        let start = Instant::now();
        if let Err(e) = parse_rules("fuzz.rules", &text) {
            proptest::prop_assert!(bad_loc(&text, &e).is_none(), "{e}");
        }
        proptest::prop_assert!(start.elapsed() < Duration::from_secs(2));
    }

    #[test]
    fn rule_parser_on_rule_pieces(ps in proptest::collection::vec(proptest::sample::select(RULE_PIECES), 0..40)) {
        let text = ps.join(" ");
        let start = Instant::now();
        if let Err(e) = parse_rules("fuzz.rules", &text) {
            proptest::prop_assert!(bad_loc(&text, &e).is_none(), "{e}");
        }
        proptest::prop_assert!(start.elapsed() < Duration::from_secs(2));
    }
}

/// An input error whose line:col is not on a line of `text` (or just past its end).
fn bad_loc(text: &str, e: &gcnsmt_verifier::rules::InputError) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let (l, c) = (e.loc.line as usize, e.loc.col as usize);
    let ok = l >= 1 && l <= lines.len() && c >= 1 && c <= lines[l - 1].len() + 1;
    (!ok).then(|| e.to_string())
}

fn panic_msg(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "(non-string panic)".into())
}

// ---------------------------------------------------------------------------------------------
// Regressions found by a new user's session.

/// A store that one side moves or drops is a refutation whose counterexample replays (the
/// replay must fetch the initial bytes the other side never read), not an internal error.
#[test]
fn moved_and_dropped_stores_replay() {
    let dir = TempDir::new("moved_store");
    let path = dir.write(
        "m.rules",
        "Name: moved\nTargets: gfx900\n  ds_write_b32 %a, %v\n=>\n  ds_write_b32 %a, %v offset:4\nExpect: refuted\n\n\
         Name: dropped\nTargets: gfx900\n  ds_write_b32 %a, %v\n=>\n  v_mov_b32 %v, %v\nExpect: refuted\n\n\
         Name: gds-vs-lds\nTargets: gfx900\n  ds_write_b32 %a, %v gds\n=>\n  ds_write_b32 %a, %v\nExpect: refuted\n",
    );
    let r = verify(&path, &[]);
    assert_eq!(r.code, 0, "{}", r.context());
    assert_eq!(
        r.stdout.matches("REFUTED (as expected)").count(),
        3,
        "{}",
        r.context()
    );
}

#[test]
fn error_sgpr_as_ds_address() {
    let text = "Name: sgpr-addr\nTargets: gfx900\n  ds_read_b32 v1, v2\n=>\n  ds_read_b32 v1, s2\n";
    expect_input_error("sgpr_addr", text, ("s2", 0), "needs a vector register", &[]);
}

#[test]
fn error_variable_scalar_and_vector() {
    let text = "Name: sv\nTargets: gfx900\n  s_mov_b32 %s, 5\n  ds_read_b32 %x, %s\n=>\n  s_mov_b32 %s, 5\n  ds_read_b32 %x, %s\n";
    expect_input_error("sv", text, ("%s\n", 0), "scalar register at line 3", &[]);
}

#[test]
fn error_register_twice_in_tuple() {
    let text =
        "Name: dup\nTargets: gfx900\n  ds_read_b64 %x, %a\n=>\n  ds_read2_b32 {%y, %y}, %a\n";
    expect_input_error("dup", text, ("{%y", 0), "appears twice", &[]);
}

#[test]
fn error_pre_after_instructions() {
    let text = "Name: late-pre\nTargets: gfx900\n  ds_read_b32 %x, %a\nPre: %a == 0\n=>\n  ds_read_b32 %x, %a\n";
    expect_input_error(
        "late_pre",
        text,
        ("Pre:", 0),
        "before the rule's instructions",
        &[],
    );
}

#[test]
fn error_second_expect() {
    let text = "Name: twice\nTargets: gfx900\n  ds_read_b32 %x, %a\n=>\n  ds_read_b32 %x, %a\nExpect: proved\nExpect: refuted\n";
    expect_input_error(
        "twice",
        text,
        ("Expect: refuted", 0),
        "a second `Expect:`",
        &[],
    );
}

#[test]
fn error_no_rules_found() {
    let dir = TempDir::new("empty");
    let path = dir.write("empty.rules", "; nothing here\n");
    let r = verify(&path, &[]);
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(r.stderr.contains("no rules found"), "{}", r.context());
}

/// An unencodable target offset is named in the counterexample.
#[test]
fn unencodable_target_names_the_field() {
    let dir = TempDir::new("unenc");
    let path = dir.write(
        "u.rules",
        "Name: big\nTargets: gfx900\nPre: %o % 4 == 0\n  ds_read_b32 %x, %a offset:%o\n  ds_read_b32 %y, %a offset:%o+4\n=>\n  ds_read2_b32 {%x, %y}, %a offset0:%o/4 offset1:%o/4+1\nExpect: refuted\n",
    );
    let r = verify(&path, &[]);
    assert_eq!(r.code, 0, "{}", r.context());
    assert!(
        r.stdout.contains("the target cannot be encoded: offset"),
        "{}",
        r.context()
    );
}

// ---------------------------------------------------------------------------------------------
// Buffer (MUBUF/VBUFFER) input errors point at the offending operand or modifier.

const BUF_RULE: &str =
    "Name: b\nTargets: gfx900\n  LINE\n=>\n  buffer_load_dword %d, %v, %r, %s offen\n";

#[test]
fn buffer_srsrc_not_a_quad() {
    let text = BUF_RULE.replace("LINE", "buffer_load_dword %d, %v, s[4:6], %s offen");
    expect_input_error("buf_srsrc", &text, ("s[4:6]", 0), "4-SGPR", &[]);
}

#[test]
fn buffer_offset_out_of_range() {
    let text = BUF_RULE.replace("LINE", "buffer_load_dword %d, %v, %r, %s offen offset:5000");
    expect_input_error("buf_offset", &text, ("5000", 0), "[0, 4095]", &[]);
}

#[test]
fn buffer_vdata_tuple_too_small() {
    let text = BUF_RULE.replace("LINE", "buffer_load_dwordx2 v1, %v, %r, %s offen");
    expect_input_error("buf_vdata", &text, ("v1", 0), "2-register tuple", &[]);
}

#[test]
fn buffer_lds_form_takes_no_vdata() {
    let text = BUF_RULE.replace("LINE", "buffer_load_dword %d, %v, %r, %s offen lds");
    expect_input_error("buf_lds", &text, ("%s", 0), "takes 3 operands", &[]);
}

#[test]
fn buffer_unpacked_d16_takes_one_vgpr_per_component() {
    // gfx8.0 keeps each d16 component in the low half of its own VGPR (LLVM
    // FeatureUnpackedD16VMem; llvm-mc-22 takes `v[5:6]` for d16_xy on gfx802 and `v5` on
    // gfx900), so component Y is VDATA[47:32] there and VDATA[31:16] on gfx900.
    let lift = |t: &str, asm: &str| {
        let r = run(&["lift", "--target", t, asm], None);
        assert_eq!(r.code, 0, "{}", r.stderr);
        r.stdout
    };
    let unpacked = lift(
        "gfx802",
        "buffer_load_format_d16_xy v[5:6], off, s[8:11], s3",
    );
    assert!(
        unpacked.contains("VDATA[47:32].b16 = ConvertFromFormatD16(addr, 1);"),
        "{unpacked}"
    );
    let packed = lift("gfx900", "buffer_load_format_d16_xy v5, off, s[8:11], s3");
    assert!(
        packed.contains("VDATA[31:16].b16 = ConvertFromFormatD16(addr, 1);"),
        "{packed}"
    );
    let store = lift(
        "gfx802",
        "buffer_store_format_d16_xyzw v[1:4], off, s[8:11], s3",
    );
    assert!(
        store.contains("ConvertToFormatD16(addr, 3, VDATA[111:96])"),
        "{store}"
    );
}
