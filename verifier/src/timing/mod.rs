//! Memory timing: `gcnsmt waitcnt FILE` proves that the waits of final code are enough, or
//! prints a path and completion schedule that reads or overwrites a register too early
//! (docs/timing.md). The counter facts are `gcnsmt_lifter::counters`; no solver is needed:
//! the abstract state is exact about which waits complete which accesses.

pub mod analysis;
pub mod asm;
pub mod asm_dir;
pub mod cfg;
pub mod check;
pub mod classify;
pub mod cmd;
pub mod implicit;
pub mod lds;
pub mod longbranch;
pub mod objdump;
pub mod objdump_branch;
pub mod regs;
pub mod report;
pub mod vccz;
