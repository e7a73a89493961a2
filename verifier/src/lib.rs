//! # gcnsmt-verifier
//!
//! Rules (`proofs/*.rules`), their binding to targets, the z3 encoding, refinement checking
//! with replayed counterexamples, and the `gcnsmt` command line.
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
pub mod cache;
pub mod check;
pub mod cli;
pub mod crosscheck;
pub mod egg_domain;
pub mod egg_lang;
pub mod egg_rules;
pub mod exit;
pub mod lane_mode;
pub mod lanes;
pub mod machine;
pub mod matrix;
pub mod normalize;
pub mod output;
pub mod record;
pub mod report;
pub mod rules;
pub mod run;
pub mod sarif;
pub mod shrink;
pub mod smt;
pub mod spec;
pub mod tv;
pub mod wave;

/// MUBUF/VBUFFER instructions in rules (the old path of [`machine::buffer`]).
pub use machine::buffer as buffer_ops;
