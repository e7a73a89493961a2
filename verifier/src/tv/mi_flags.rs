//! Instruction flags as claims. A flag such as `nsz` or `nuw` does not change the bits an
//! instruction computes; it says something about the program (signed zeros do not matter, the
//! add does not wrap) that later passes act on. A pass that adds one the before-file does not
//! make lets the next pass assume what the source never said (breaker 18's 09: `nsz` added to
//! a `V_ADD_F32` lets si-fold-operands fold it into the producer's output modifier). As with
//! memory-operand claims (`memop.rs`), an unbacked flag does not stop the check: a refutation
//! stands, a proof becomes `unsupported`.

use super::mir::{Block, Inst, INST_FLAGS};

/// The instruction flags that are claims (LLVM 22 `MachineInstr::MIFlag`: fast-math,
/// no-wrap, exactness, disjointness); `frame-setup`, `nomerge`, ... are not, and neither is
/// `nofpexcept`: it is about the FP exception state (MODE/TRAPSTS sticky bits), which tv does
/// not model for any instruction (docs/tv.md, item 17), and isel puts it on nearly every FP
/// instruction.
const CLAIM_FLAGS: [&str; 15] = [
    "nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc", "nuw", "nsw", "exact", "disjoint",
    "nneg", "samesign", "nusw", "inbounds",
];

/// `i`'s instruction flags, as written between `=` and the opcode.
pub(crate) fn flags(i: &Inst) -> Vec<&str> {
    let words: Vec<&str> = i.key.split_whitespace().collect();
    let start = words.iter().position(|w| *w == "=").map_or(0, |k| k + 1);
    words[start..]
        .iter()
        .take_while(|w| INST_FLAGS.contains(w))
        .copied()
        .collect()
}

/// The opcode without its encoding suffix, and the two-address forms named as the
/// three-address ones they become (si-shrink-instructions and si-fold-operands change the
/// encoding and keep the flags: `V_ADD_F32_e64` -> `V_ADD_F32_e32`, `V_FMAC_F32_e64` ->
/// `V_FMA_F32_e64`).
fn base(op: &str) -> String {
    let mut b = op;
    for suf in ["_e32", "_e64", "_sdwa", "_dpp8", "_dpp", "_fake16", "_t16"] {
        if let Some(x) = b.strip_suffix(suf) {
            b = x;
        }
    }
    b.replace("_FMAC_", "_FMA_").replace("_MAC_", "_MAD_")
}

/// The first after-instruction carrying a claim flag that no before-instruction of the same
/// operation, or defining the same register, carries, with the flag (a commuted compare,
/// `V_CMP_GT` to `V_CMP_LT` with swapped sources, keeps its definition).
pub(crate) fn added<'a>(before: &Block, after: &'a Block) -> Option<(&'a Inst, &'a str)> {
    let def = |i: &Inst| i.defs.first().map(|d| d.kind.clone());
    after.insts.iter().find_map(|i| {
        let (b, d) = (base(&i.opcode), def(i));
        let twin = |j: &Inst| base(&j.opcode) == b || (d.is_some() && def(j) == d);
        flags(i)
            .into_iter()
            .filter(|f| CLAIM_FLAGS.contains(f))
            .find(|f| !before.insts.iter().any(|j| twin(j) && flags(j).contains(f)))
            .map(|f| (i, f))
    })
}

/// A claim flag `a` carries and its paired before-instruction `b` does not (the renaming and
/// register-allocation checkers, which pair instructions one to one).
pub(crate) fn extra<'a>(b: &Inst, a: &'a Inst) -> Option<&'a str> {
    let fb = flags(b);
    flags(a)
        .into_iter()
        .find(|f| CLAIM_FLAGS.contains(f) && !fb.contains(f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_names_the_operation() {
        assert_eq!(base("V_ADD_F32_e64"), base("V_ADD_F32_e32"));
        assert_eq!(base("V_FMAC_F32_e64"), "V_FMA_F32");
        assert_ne!(base("V_ADD_F32_e64"), base("V_MUL_F32_e64"));
    }
}
