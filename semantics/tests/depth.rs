//! The parser's nesting bound (`MAX_DEPTH` = 256): inputs past it are an error that says so,
//! never a stack overflow, and inputs within it still parse. Depths below are counted by hand
//! from the text built (each `||` of a left-leaning chain adds one level).

use gcnsmt_semantics::parse::{parse_expr, parse_stmts, MAX_DEPTH};

fn too_deep(src: &str) {
    let e = parse_expr(src).expect_err("past the bound");
    assert!(e.msg.contains("nested too deeply"), "{}", e.msg);
}

#[test]
fn the_bound_is_256() {
    assert_eq!(MAX_DEPTH, 256);
}

#[test]
fn a_chain_of_256_names_parses_and_257_do_not() {
    // n names joined by `||`: n - 1 operator nodes above one leaf, n levels.
    assert!(parse_expr(&vec!["a"; 256].join(" || ")).is_ok());
    too_deep(&vec!["a"; 257].join(" || "));
    too_deep(&vec!["a"; 100_000].join(" || "));
}

#[test]
fn deep_parentheses_unary_operators_and_slices_are_errors() {
    // Parentheses add no node, but each is a nesting level of the parser.
    assert!(parse_expr(&format!("{}a{}", "(".repeat(200), ")".repeat(200))).is_ok());
    too_deep(&format!("{}a{}", "(".repeat(100_000), ")".repeat(100_000)));
    too_deep(&format!("{}a", "-".repeat(100_000)));
    too_deep(&format!("a{}", ".u32".repeat(100_000)));
    too_deep(&format!("{}a{}", "f(".repeat(50_000), ")".repeat(50_000)));
    too_deep(&format!(
        "{}a{}",
        "MEM[".repeat(50_000),
        "].b32".repeat(50_000)
    ));
}

#[test]
fn deep_if_statements_are_errors() {
    let ok = format!("{}x = 1{}", "if c then ".repeat(100), " endif".repeat(100));
    assert!(parse_stmts(&ok).is_ok());
    let deep = format!(
        "{}x = 1{}",
        "if c then ".repeat(10_000),
        " endif".repeat(10_000)
    );
    let e = parse_stmts(&deep).expect_err("past the bound");
    assert!(e.msg.contains("nested too deeply"), "{}", e.msg);
}
