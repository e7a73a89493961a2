//! Operand checks that the DS, MUBUF and global parsers share: the error for a mnemonic the
//! target lacks, the operand count, the checks of a vector-register tuple (holes, range,
//! width, alignment), once-only modifiers and integer immediates that may be holes. The
//! messages are the ones each parser printed before they were shared.

use gcnsmt_semantics::target::Target;

use crate::holes::{HoleClass, Holes, Role};
use crate::inst::RegTuple;
use crate::lex::{err, parse_int, AsmError, AsmResult};
use crate::syntax::{parse_syntax_with, AsmSyntax};

/// The syntax of `line` and the table entry of its mnemonic on `target` (`lookup`), for the
/// GLOBAL, FLAT and SMEM parsers, which take no flag modifiers. Errors: the syntax's; at the
/// mnemonic, "`mn` is not available on `target`" when `known` says the mnemonic exists
/// elsewhere, else "unknown `family` mnemonic".
pub(crate) fn lookup_mnemonic<T>(
    line: &str,
    target: Target,
    family: &str,
    lookup: impl FnOnce(Target, &str) -> Option<T>,
    known: impl FnOnce(&str) -> bool,
) -> AsmResult<(AsmSyntax, T)> {
    let syn = parse_syntax_with(line, &["scale_offset"])?;
    let mn = syn.mnemonic.as_str();
    match lookup(target, mn) {
        Some(x) => Ok((syn, x)),
        None if known(mn) => err(
            syn.mnemonic_col,
            format!("{mn} is not available on {target}"),
        ),
        None => err(
            syn.mnemonic_col,
            format!("unknown {family} mnemonic `{mn}`"),
        ),
    }
}

/// The error for mnemonic `mn` (at `col`) that is not in `target`'s `family` table:
/// "not available on `target` (it exists on ...)" when `elsewhere` lists targets that have it,
/// else "unknown `family` mnemonic".
pub(crate) fn not_on_target<T>(
    family: &str,
    mn: &str,
    target: Target,
    elsewhere: &[Target],
    col: usize,
) -> Result<T, AsmError> {
    if elsewhere.is_empty() {
        return err(col, format!("unknown {family} mnemonic `{mn}`"));
    }
    let list: Vec<&str> = elsewhere.iter().map(|t| t.name()).collect();
    err(
        col,
        format!(
            "{mn} is not available on {target} (it exists on {})",
            list.join(", ")
        ),
    )
}

/// Check that `syn` has exactly `names.len()` operands; the error (at the first extra
/// operand, or the line's end) reads "`mn` takes N `noun` (names), got M".
pub(crate) fn expect_operands(
    syn: &AsmSyntax,
    mn: &str,
    names: &[&str],
    noun: &str,
) -> Result<(), AsmError> {
    let (want, got) = (names.len(), syn.operands.len());
    if got == want {
        return Ok(());
    }
    let col = syn.operands.get(want).map_or(syn.end_col, |o| o.1);
    let list = if names.is_empty() {
        String::new()
    } else {
        format!(" ({})", names.join(", "))
    };
    err(col, format!("{mn} takes {want} {noun}{list}, got {got}"))
}

/// `Some` when `text` is a hole for a vector operand of `count` dwords: the stand-in
/// `v[0:count-1]` if `holes` accepts it, its error if not. `None`: a concrete operand.
pub(crate) fn vector_hole(
    holes: &mut dyn Holes,
    role: Role,
    text: &str,
    col: usize,
    count: u8,
    agpr_ok: bool,
) -> Option<Result<RegTuple, AsmError>> {
    let class = HoleClass {
        dwords: count,
        agpr_ok,
    };
    let accepted = holes.reg(role, text, col, class)?;
    Some(accepted.map(|()| RegTuple::v(0, count)))
}

/// One concrete vector-register operand being checked: `text` at column `col` of a `mn` line
/// for `target`, the operand for `role`.
pub(crate) struct VecOperand<'a> {
    pub mn: &'a str,
    pub target: Target,
    pub role: Role,
    pub text: &'a str,
    pub col: usize,
}

impl VecOperand<'_> {
    /// The tuple must end at register 255 or below.
    pub fn in_range(&self, r: &RegTuple) -> Result<(), AsmError> {
        if r.last() > 255 {
            return err(
                self.col,
                format!("register {} is out of range (max 255)", self.text),
            );
        }
        Ok(())
    }

    /// The tuple must have `count` registers.
    pub fn width(&self, r: &RegTuple, count: u8) -> Result<(), AsmError> {
        if r.count != count {
            return err(
                self.col,
                format!(
                    "{} needs a {count}-register tuple for {}, got {}",
                    self.mn,
                    self.role.name(),
                    self.text
                ),
            );
        }
        Ok(())
    }

    /// When `even` (the target's alignment rule for this operand), the tuple must start at an
    /// even register; `noun` ("register", "tuple") is what the message calls the operand.
    pub fn aligned(&self, r: &RegTuple, even: bool, noun: &str) -> Result<(), AsmError> {
        if even && r.first % 2 == 1 {
            return err(
                self.col,
                format!(
                    "{} on {} needs an even-aligned {noun} for {}, got {}",
                    self.mn,
                    self.target,
                    self.role.name(),
                    self.text
                ),
            );
        }
        Ok(())
    }
}

/// Record modifier `name` (at `col`) in `seen`; an error if it was already there.
pub(crate) fn once<'a>(seen: &mut Vec<&'a str>, name: &'a str, col: usize) -> Result<(), AsmError> {
    if seen.contains(&name) {
        return err(col, format!("duplicate modifier `{name}`"));
    }
    seen.push(name);
    Ok(())
}

/// The immediate field `name` written `text` at `col`: an integer in `lo..=hi`, or a hole that
/// `holes` accepts (stand-in 0; the hole owns the range). `why` follows the range message
/// (" (out of range)", or a note on what llvm-mc does instead).
pub(crate) fn immediate(
    holes: &mut dyn Holes,
    name: &'static str,
    text: &str,
    col: usize,
    lo: i64,
    hi: i64,
    why: &str,
) -> Result<i64, AsmError> {
    if let Some(accepted) = holes.imm(name, text, col, hi as u64) {
        accepted?;
        return Ok(0);
    }
    let Some(v) = parse_int(text) else {
        return err(col, format!("expected an integer {name}, got `{text}`"));
    };
    if !(lo..=hi).contains(&v) {
        return err(col, format!("{name} must be in [{lo}, {hi}], got {v}{why}"));
    }
    Ok(v)
}
