//! # gcnsmt-verifier
//!
//! Rules (`proofs/*.rules`), their binding to targets, the z3 encoding, refinement checking
//! with replayed counterexamples, and the `gcnsmt` command line.

pub mod check;
pub mod cli;
pub mod machine;
pub mod normalize;
pub mod report;
pub mod rules;
pub mod smt;
