//! Rule instructions bound to one target, and their execution over any semantics domain.
//!
//! Registers are named by [`RegKey`]: concrete registers (`v2`, `a0`, `s4`, `m0`, `vcc_lo`)
//! and rule variables (`%x`, one key per dword of the tuple). Distinct variables denote
//! distinct registers, disjoint from every concrete register named in the rule.

mod alu;
mod bind;
pub mod buffer;
pub mod cross;
mod ds;
mod flat;
pub mod global;
mod holes;
mod mods;
mod op;
mod operands;
pub(crate) mod pk_imm;
mod regkey;
mod smem;
mod state;
mod step;
pub mod transpose;
mod vop_legal;

#[cfg(test)]
mod coverage;

pub use bind::*;
pub use op::*;
pub use operands::*;
pub use regkey::*;
pub use state::*;
pub use step::*;
