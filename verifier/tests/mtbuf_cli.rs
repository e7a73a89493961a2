//! MTBUF (`tbuffer_*`, gfx6-gfx11) through the `gcnsmt` binary: `encode` gives llvm-mc's
//! printed line and bytes (CHECK lines of LLVM's `mtbuf.s` and `mtbuf-gfx10.s`, kept in
//! `tests/data/mtbuf_llvm_mc.txt`), `decode` reads them back, `lift` names the typed
//! semantics entry with the instruction's FORMAT, and bad input is one `FILE:LINE:COL` error
//! with exit 2.

use gcnsmt_testkit::Run;

fn run(args: &[&str]) -> Run {
    let r = gcnsmt_testkit::run(env!("CARGO_BIN_EXE_gcnsmt"), args, None, &[]);
    r.assert_no_panic();
    r
}

#[test]
fn encode_decode_lift_mtbuf() {
    let cases = [
        (
            "gfx1010",
            "tbuffer_load_format_d16_x v0, off, s[0:3], 0 format:[BUF_FMT_32_FLOAT]",
            "[0x00,0x00,0xb0,0xe8,0x00,0x00,0x20,0x80]",
        ),
        (
            "gfx802",
            "tbuffer_store_format_xyzw v[1:4], v1, ttmp[4:7], s0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] idxen",
            "[0x00,0xa0,0xa3,0xeb,0x01,0x01,0x1d,0x00]",
        ),
    ];
    for (t, line, enc) in cases {
        let r = run(&["encode", "--target", t, line]);
        assert_eq!(r.code, 0, "{}", r.context());
        assert_eq!(
            r.stdout.trim(),
            format!("{line} ; encoding: {enc}"),
            "{}",
            r.context()
        );
        let bytes: Vec<&str> = enc.trim_matches(['[', ']']).split(',').collect();
        let mut args = vec!["decode", "--target", t];
        args.extend(bytes);
        let r = run(&args);
        assert_eq!(r.code, 0, "{}", r.context());
        assert!(r.stdout.contains(line), "{}", r.context());
    }
    let r = run(&[
        "lift",
        "--target",
        "gfx900",
        "tbuffer_load_format_d16_x v1, v2, s[4:7], s1 format:[BUF_DATA_FORMAT_16,BUF_NUM_FORMAT_UINT] offen",
    ]);
    assert_eq!(r.code, 0, "{}", r.context());
    assert!(
        r.stdout.contains("ConvertFromFormatD16("),
        "{}",
        r.context()
    );
    assert!(r.stdout.contains("FORMAT"), "{}", r.context());
}

#[test]
fn bad_mtbuf_format_is_one_located_error() {
    let line = "tbuffer_load_format_x v1, off, s[4:7], s1 format:[BUF_DATA_FORMAT_32]";
    let col = line.find("[BUF").unwrap() + 1;
    let r = run(&["encode", "--target", "gfx1010", line]);
    assert_eq!(r.code, 2, "{}", r.context());
    let errs = r.error_lines();
    assert_eq!(errs.len(), 1, "{}", r.context());
    assert!(
        errs[0].starts_with(&format!("<argument>:1:{col}: error: ")),
        "{}",
        r.context()
    );
}
