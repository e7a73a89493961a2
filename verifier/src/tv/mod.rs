//! `gcnsmt tv`: translation validation of LLVM AMDGPU machine passes on llc-22 MIR.
//!
//! A pair of MIR files (before and after a pass, from one llc input so that virtual register
//! numbers correspond) is read ([`mir`]), paired function by function and block by block
//! ([`diff`]); each changed block pair is lowered to a rule ([`lower`], through the opcode
//! table [`opcodes`]) and decided by [`crate::check::check`]. [`llc`] runs llc for the
//! `--pass` form; [`cmd`] is the command.

pub mod cmd;
pub mod diff;
pub mod llc;
pub mod lower;
pub mod mir;
pub mod opcodes;
