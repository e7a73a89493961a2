//! Lifting (owned by the verifier author)
