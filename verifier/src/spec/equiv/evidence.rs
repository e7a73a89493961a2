//! Readable counterexamples: preferred models and the printing of values and byte ranges.

use crate::smt::{Answer, Model, Prop, Query};
use std::collections::BTreeMap;

/// The low `w` bits set (all 128 for `w >= 128`).
pub(crate) fn mask(w: u32) -> u128 {
    if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

/// `v` in hex with as many digits as `w` bits take (`0x0005` for 16 bits).
pub(crate) fn hex(v: u128, w: u32) -> String {
    format!("{v:#0width$x}", width = (w as usize).div_ceil(4) + 2)
}

/// Keep each preference (in order) that the query still satisfies, for a readable model;
/// returns the model of the last one kept (or `model`).
pub(crate) fn prefer(q: &mut Query, prefs: Vec<Prop>, mut model: Model) -> Model {
    for p in prefs {
        q.push();
        q.assert(&p);
        match q.check() {
            Answer::Sat(m) => model = m,
            _ => q.pop(),
        }
    }
    model
}

/// Byte ranges as `LDS[0x0..0x3] = 05 00 00 00` (`space` = `LDS`, `MEM`), contiguous
/// addresses grouped.
pub(crate) fn ranges<K>(space: &str, addrs: &BTreeMap<K, u8>, byte: impl Fn(K) -> u8) -> String
where
    K: Copy + Ord + Into<u64> + std::fmt::LowerHex,
{
    let mut out: Vec<String> = Vec::new();
    let keys: Vec<K> = addrs.keys().copied().collect();
    let mut i = 0;
    while i < keys.len() {
        let mut j = i;
        while j + 1 < keys.len() && keys[j + 1].into() == keys[j].into().wrapping_add(1) {
            j += 1;
        }
        let bs: Vec<String> = keys[i..=j]
            .iter()
            .map(|x| format!("{:02x}", byte(*x)))
            .collect();
        out.push(format!(
            "{space}[{:#x}..{:#x}] = {}",
            keys[i],
            keys[j],
            bs.join(" ")
        ));
        i = j + 1;
    }
    if out.is_empty() {
        format!("{space} all zero")
    } else {
        out.join("; ")
    }
}
