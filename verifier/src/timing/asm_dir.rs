//! Assembler constructs the `.s` reader does not evaluate: directives that change which
//! instructions are assembled (conditionals, repetition, macros, section stacks) or emit code
//! bytes the reader cannot see (`.long` in a code section). Ignoring them would analyse code
//! that is not the code llvm-mc assembles, so they are input errors; and labels written on the
//! line of an instruction.

use super::asm::ParseError;

/// Directives refused anywhere: they decide which lines are assembled, or where.
const CONTROL: &[&str] = &[
    ".if",
    ".ifdef",
    ".ifndef",
    ".ifc",
    ".ifnc",
    ".ifeq",
    ".ifne",
    ".ifgt",
    ".ifge",
    ".iflt",
    ".ifle",
    ".ifb",
    ".ifnb",
    ".ifeqs",
    ".ifnes",
    ".else",
    ".elseif",
    ".endif",
    ".rept",
    ".irp",
    ".irpc",
    ".endr",
    ".macro",
    ".endm",
    ".exitm",
    ".purgem",
    ".altmacro",
    ".noaltmacro",
    ".include",
    ".incbin",
    ".pushsection",
    ".popsection",
    ".previous",
    ".subsection",
];

/// Directives refused in a code section: they emit bytes that may be instructions.
const DATA: &[&str] = &[
    ".long", ".word", ".short", ".hword", ".byte", ".quad", ".int", ".2byte", ".4byte", ".8byte",
    ".value", ".octa", ".fill", ".space", ".skip", ".zero", ".ascii", ".asciz", ".string", ".inst",
    ".org", ".reloc", ".uleb128", ".sleb128", ".dc", ".ds",
];

/// An error when directive line `d` is one the reader cannot follow (`in_text`: in a code
/// section, inside a function).
pub fn refuse(d: &str, line: usize, col: usize, in_text: bool) -> Result<(), ParseError> {
    let name = d
        .split(|c: char| c.is_whitespace() || c == ',')
        .next()
        .unwrap_or(d)
        .to_ascii_lowercase();
    let data =
        DATA.contains(&name.as_str()) || name.starts_with(".dc.") || name.starts_with(".ds.");
    if CONTROL.contains(&name.as_str()) || (in_text && data) {
        return Err(ParseError {
            line,
            col,
            msg: format!("directive `{name}` is not supported in waitcnt input"),
        });
    }
    Ok(())
}

/// Split `L1: s_waitcnt vmcnt(0)` into the instruction text and the label. Only a plain
/// symbol name followed by `:` and more text is split (operands such as `s[0:1]` or
/// `th:TH_LOAD_NT` follow a mnemonic and a space, so they never match).
pub fn split_label(code: &str) -> (&str, Option<&str>) {
    let t = code.trim_start();
    let Some((label, rest)) = t.split_once(':') else {
        return (code, None);
    };
    let symbol = !label.is_empty()
        && !label.starts_with(|c: char| c.is_ascii_digit())
        && label
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$'));
    if symbol && !rest.trim().is_empty() {
        (rest, Some(label))
    } else {
        (code, None)
    }
}
