//! How a buffer descriptor (V#) reads on two targets. A cross-target rule gives both sides the
//! same 128 descriptor bits, and each side reads them with its own target's layout
//! ([`VsharpLayout`]); a field the two layouts place at different bits, or that only one of
//! them has, cannot be mapped, so a verdict that rests on it says so (docs/cross-target.md).

use gcnsmt_semantics::buffer::VsharpLayout;
use gcnsmt_semantics::target::Target;

/// One sentence per V# field that the layouts of `from` and `to` do not map onto each other,
/// in descriptor bit order; empty when both targets share a layout.
pub fn vsharp_assumptions(from: Target, to: Target) -> Vec<String> {
    let (a, b) = (VsharpLayout::of(from), VsharpLayout::of(to));
    if a == b {
        return Vec::new();
    }
    let bits = |hi: u32, lo: u32| {
        if hi == lo {
            format!("bit {lo}")
        } else {
            format!("bits {hi}:{lo}")
        }
    };
    let mut out: Vec<(u32, String)> = Vec::new();
    for &(name, hi, lo) in a.fields() {
        let s = match b.field(name) {
            Some((h2, l2)) if (h2, l2) == (hi, lo) => continue,
            Some((h2, l2)) => format!(
                "V# {name}: {} on {from}, {} on {to} (the same descriptor bits, read by each \
                 layout)",
                bits(hi, lo),
                bits(h2, l2)
            ),
            None => format!(
                "V# {name} ({} on {from}) has no {to} counterpart",
                bits(hi, lo)
            ),
        };
        out.push((lo, s));
    }
    for &(name, hi, lo) in b.fields() {
        if a.field(name).is_none() {
            let s = format!(
                "V# {name} ({} on {to}) has no {from} counterpart",
                bits(hi, lo)
            );
            out.push((lo, s));
        }
    }
    out.sort();
    out.into_iter().map(|(_, s)| s).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_layout_assumes_nothing() {
        assert!(vsharp_assumptions(Target::Gfx1030, Target::Gfx1100).is_empty());
        assert!(vsharp_assumptions(Target::Gfx950, Target::Gfx942).is_empty());
    }

    /// From the CLRX GCN V# table and the RDNA ISA guides' buffer resource table: GCN's
    /// cache_swizzle (bit 62) and its separate num/data format fields have no RDNA
    /// counterpart; RDNA's OOB_SELECT (125:124) has no GCN one; swizzle_en widens to 63:62.
    #[test]
    fn gcn_to_rdna_names_the_moved_fields() {
        let a = vsharp_assumptions(Target::Gfx900, Target::Gfx1030);
        let has = |s: &str| a.iter().any(|x| x.contains(s));
        assert!(has(
            "cache_swizzle (bit 62 on gfx900) has no gfx1030 counterpart"
        ));
        assert!(has("swizzle_en: bit 63 on gfx900, bits 63:62 on gfx1030"));
        assert!(has(
            "oob_select (bits 125:124 on gfx1030) has no gfx900 counterpart"
        ));
        assert!(!has("num_records"));
        assert!(!has("V# base"));
    }
}
