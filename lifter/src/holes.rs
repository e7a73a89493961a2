//! Operand holes: the one assembler, for plain assembly and for lines whose operands are
//! variables (rule files' `%x`, `{%x, %y}`, `offset:%o`; MIR virtual registers lowered to them).
//!
//! [`crate::parse_asm_with`] and [`crate::parse_mubuf_with`] parse a line exactly as llvm-mc 22
//! would for the target (mnemonic, operand count, tuple widths, register classes, alignment,
//! modifiers and their ranges). When an operand is not a concrete register or integer, they
//! ask a [`Holes`] implementation whether it is a hole; a hole passes every check a register of
//! the right width and class would pass, and the instruction gets a stand-in register (`v0`,
//! `s[0:3]`) or immediate (0) in its place. The caller keeps what the hole stands for.
//! [`NoHoles`] accepts none: [`crate::parse_asm`] and [`crate::parse_mubuf`] use it.

use crate::lex::AsmError;

/// An instruction operand's role, named as LLVM's operand (`vdst`, `addr`, ...); the
/// pseudocode variable it binds is [`Role::pcode_var`] (AMD ISA guides, DS and MUBUF chapters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// DS destination (`RETURN_DATA`), 1-4 dwords.
    Vdst,
    /// DS address VGPR (`ADDR`), 1 dword, byte address.
    Addr,
    /// DS first data tuple (`DATA0`).
    Data0,
    /// DS second data tuple (`DATA1`).
    Data1,
    /// MUBUF/VBUFFER data (`VDATA`): loaded into, stored from, or atomic data and return.
    Vdata,
    /// MUBUF/VBUFFER address VGPRs (`VADDR`): index and/or offset, or a 64-bit address (addr64).
    Vaddr,
    /// The four SGPRs of the V# (`SRSRC`).
    Srsrc,
    /// The scalar offset (`SOFFSET`), bytes.
    Soffset,
    /// Global address base SGPR pair (`SADDR`), or `off`.
    Saddr,
    /// Scalar load destination SGPRs (`SDATA`).
    Sdst,
    /// Scalar load base address SGPR pair (`SBASE`).
    Sbase,
}

impl Role {
    /// LLVM's operand name, as error messages say it.
    pub fn name(self) -> &'static str {
        match self {
            Role::Vdst => "vdst",
            Role::Addr => "addr",
            Role::Data0 => "data0",
            Role::Data1 => "data1",
            Role::Vdata => "vdata",
            Role::Vaddr => "vaddr",
            Role::Srsrc => "srsrc",
            Role::Soffset => "soffset",
            Role::Saddr => "saddr",
            Role::Sdst => "sdst",
            Role::Sbase => "sbase",
        }
    }

    /// The pseudocode variable the operand binds (`semantics/pcode/*.pcode`).
    pub fn pcode_var(self) -> &'static str {
        match self {
            Role::Vdst => "RETURN_DATA",
            Role::Addr => "ADDR",
            Role::Data0 => "DATA0",
            Role::Data1 => "DATA1",
            Role::Vdata => "VDATA",
            Role::Vaddr => "VADDR",
            Role::Srsrc => "SRSRC",
            Role::Soffset => "SOFFSET",
            Role::Saddr => "SADDR",
            Role::Sdst => "SDATA",
            Role::Sbase => "SBASE",
        }
    }

    /// Whether the role is a scalar operand (SGPRs, `m0`, inline constants).
    pub fn scalar(self) -> bool {
        matches!(
            self,
            Role::Srsrc | Role::Soffset | Role::Saddr | Role::Sdst | Role::Sbase
        )
    }
}

/// The register class a hole must stand for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HoleClass {
    /// Number of 32-bit registers.
    pub dwords: u8,
    /// Vector operand that may also be an AGPR on this target (DS data/vdst on gfx90a/gfx942/
    /// gfx950, MUBUF vdata on gfx90a).
    pub agpr_ok: bool,
}

/// A [`Holes`] answer: `None` if the operand is not a hole (the parser then reads it as
/// concrete), `Some(Ok(()))` to accept it, `Some(Err(..))` to reject it.
pub type HoleAnswer = Option<Result<(), AsmError>>;

/// Resolves operands that are not concrete registers or integers.
pub trait Holes {
    /// `text` at 1-based column `col` is the operand for `role`, which needs `class`. Return
    /// `None` if `text` is not a hole (the parser then reads a concrete register), `Some(Ok(()))`
    /// to accept it, `Some(Err(..))` to reject it (a wrong width, a bad variable name).
    fn reg(&mut self, role: Role, text: &str, col: usize, class: HoleClass) -> HoleAnswer;

    /// `text` at `col` is the value of the immediate field `name` (`offset`, `offset0`,
    /// `offset1`), whose values must lie in `0..=max` (a symbolic offset of a global or scalar
    /// load is taken as non-negative). Return `None` if it is not a hole; an
    /// accepted hole gets the stand-in value 0, and the caller owns the range condition.
    fn imm(&mut self, name: &'static str, text: &str, col: usize, max: u64) -> HoleAnswer;
}

/// No holes: every operand must be concrete (plain assembly).
pub struct NoHoles;

impl Holes for NoHoles {
    fn reg(&mut self, _: Role, _: &str, _: usize, _: HoleClass) -> HoleAnswer {
        None
    }
    fn imm(&mut self, _: &'static str, _: &str, _: usize, _: u64) -> HoleAnswer {
        None
    }
}
