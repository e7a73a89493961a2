//! # gcnsmt-verifier
//!
//! Rules (`proofs/*.rules`), their binding to targets, the z3 encoding, refinement checking
//! with replayed counterexamples, and the `gcnsmt` command line.
//!
//! The public surface: [`rules`] (rule files), [`check`] (one rule on one target: verdict,
//! counterexample), [`tv`] (translation validation of MIR), [`spec`] (spec-check), [`wave`]
//! (wavefront atomics), [`smt`] (the z3 encoding and `--solver`; the only module naming `z3::`),
//! [`crosscheck`] (cvc5), [`egg_rules`]/[`egg_domain`] (egg normalisation), [`exit`] (exit
//! codes), [`LaneMode`], and [`cli`], the commands the binary dispatches to. The machine model
//! (`machine`), the result cache, the output writers and the counterexample shrinker are
//! internal.
//!
//! ```
//! use gcnsmt_semantics::target::Target;
//! use gcnsmt_verifier::check::{check, Options, Verdict};
//! use gcnsmt_verifier::rules::parse_rules;
//!
//! let text = "
//! Name: swap-store-order
//!   ds_write_b32 %a, %x offset:0
//!   ds_write_b32 %a, %y offset:4
//! =>
//!   ds_write_b32 %a, %y offset:4
//!   ds_write_b32 %a, %x offset:0
//! ";
//! let rules = parse_rules("example.rules", text).unwrap();
//! // DWORD alignment on gfx802: both stores are aligned to 4 from the same base, never overlap.
//! let outcome = check(&rules[0], Target::Gfx802, &Options::default()).unwrap();
//! assert!(matches!(outcome.verdict, Verdict::Proved));
//! // Unaligned on gfx900 they never overlap either (4 bytes apart).
//! let outcome = check(&rules[0], Target::Gfx900, &Options::default()).unwrap();
//! assert!(matches!(outcome.verdict, Verdict::Proved));
//! ```

#![warn(missing_docs)]

pub mod bench;
mod cache;
pub mod check;
pub mod cli;
pub mod crosscheck;
pub mod egg_domain;
mod egg_lang;
pub mod egg_rules;
pub mod exit;
mod lane_mode;
mod lanes;
pub mod limits;
mod machine;
mod matrix;
mod normalize;
mod output;
mod record;
mod report;
pub mod rules;
mod run;
mod sarif;
pub mod shard;
mod shrink;
pub mod smt;
pub mod spec;
pub mod timing;
pub mod tv;
pub mod vectors;
pub mod wave;
pub mod xtarget;

pub use lane_mode::{LaneMode, LaneOrder, MAX_LANES};
