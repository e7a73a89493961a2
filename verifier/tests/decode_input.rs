//! `gcnsmt decode` on the plain input `llvm-mc --disassemble` takes: files of `0x..` bytes with
//! comments, one instruction spanning lines, by path and on standard input; expected text is
//! llvm-mc-22's own disassembly of the same files (`tests/data/decode/README.md`).

use gcnsmt_testkit::{workspace_path, Run};

fn run(args: &[&str], stdin: Option<&str>) -> Run {
    let r = gcnsmt_testkit::run(env!("CARGO_BIN_EXE_gcnsmt"), args, stdin, &[]);
    r.assert_no_panic();
    r
}

#[test]
fn decode_llvm_mc_input_files() {
    for t in ["gfx900", "gfx1100", "gfx1200"] {
        let input = workspace_path(&format!("tests/data/decode/{t}.txt"));
        let expected =
            std::fs::read_to_string(workspace_path(&format!("tests/data/decode/{t}.expected")))
                .unwrap();
        let path = input.to_str().unwrap();
        let by_path = run(&["decode", "--target", t, path], None);
        assert_eq!(by_path.code, 0, "{t}: {}", by_path.context());
        assert_eq!(by_path.stdout, expected, "{t} by path");
        let text = std::fs::read_to_string(&input).unwrap();
        let by_stdin = run(&["decode", "--target", t, "-"], Some(&text));
        assert_eq!(by_stdin.code, 0, "{t}: {}", by_stdin.context());
        assert_eq!(by_stdin.stdout, expected, "{t} on stdin");
    }
}

#[test]
fn bad_byte_is_located() {
    // Line 3, column 21 (after `0x14 0x00 0x00 0x02 ` on that line): the token `0xzz`.
    let text = "# two lines of bytes\n0x00,0x00,0x6c,0xd8\n0x14 0x00 0x00 0x02 0xzz\n";
    let r = run(&["decode", "--target", "gfx900", "-"], Some(text));
    assert_eq!(r.code, 2, "{}", r.context());
    assert_eq!(
        r.stderr.trim_end(),
        "<stdin>:3:21: error: `0xzz` is not a hex number"
    );
    // An instruction cut short is reported where it starts: line 2, column 1.
    let text = "0x00,0x00,0x6c,0xd8 0x14 0x00 0x00 0x02\n0x00 0x00 0x6c 0xd8 # half of one\n";
    let r = run(&["decode", "--target", "gfx900"], Some(text));
    assert_eq!(r.code, 2, "{}", r.context());
    assert_eq!(r.stdout, "ds_read_b32 v2, v20\n");
    assert!(
        r.stderr
            .starts_with("<stdin>:2:1: error: instruction at byte 8 needs 8 bytes"),
        "{}",
        r.context()
    );
}

#[test]
fn listings_still_read() {
    // llvm-mc -show-encoding output (header and all): only the encodings are taken.
    let text =
        "\t.text\n\tds_read_b32 v2, v20 ; encoding: [0x00,0x00,0x6c,0xd8,0x14,0x00,0x00,0x02]\n";
    let r = run(&["decode", "--target", "gfx900"], Some(text));
    assert_eq!(r.code, 0, "{}", r.context());
    assert_eq!(r.stdout, "ds_read_b32 v2, v20\n");
}
