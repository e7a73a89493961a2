//! Across targets: what a cross-target rule assumes about buffer descriptors ([`vsharp`]),
//! and the equivalence table of every DS and buffer opcode between two targets.

mod vsharp;

pub use vsharp::vsharp_assumptions;
