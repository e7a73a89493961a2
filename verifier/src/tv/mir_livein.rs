//! The registers of a block's `liveins:` line (`mir.rs`), lane masks included.

/// The registers of a `liveins:` entry, without `$`. A lane mask
/// (`$sgpr0_sgpr1_sgpr2_sgpr3:0x00000000000000F0`: only some sub-registers live) names the
/// 32-bit parts it covers: in LLVM 22's AMDGPU lane masks each dword of a tuple has two bits,
/// one per 16-bit half (`sub0` 0x3, `sub1` 0xC, `sub2` 0x30, `sub3` 0xC0; llc-22 writes the
/// `SI_IF` successors' live `$sgpr2_sgpr3` as `:0xF0`), so part k is live when bit 2k or 2k+1
/// is set. A mask with bits beyond the tuple, or a name that is not a tuple of numbered
/// registers, is the whole register: a superset of what is live, so a cell is never taken for
/// dead while a successor reads it (before 2026-12-06 the suffix made the name unknown and
/// every cell of it dead: breaker 16's 05, `$sgpr3` clobbered while live into the join).
pub(super) fn livein_names(s: &str) -> Vec<String> {
    let s = s.trim_start_matches('$');
    let Some((reg, mask)) = s.split_once(':') else {
        return vec![s.trim().to_string()];
    };
    let reg = reg.trim();
    let whole = vec![reg.to_string()];
    let Ok(m) = u64::from_str_radix(mask.trim().trim_start_matches("0x"), 16) else {
        return whole;
    };
    let parts: Vec<&str> = reg.split('_').collect();
    let numbered = |p: &&str| {
        let d = p.trim_start_matches(|c: char| c.is_ascii_lowercase());
        ["sgpr", "vgpr", "agpr"]
            .iter()
            .any(|b| p.strip_suffix(d) == Some(*b))
            && !d.is_empty()
            && d.chars().all(|c| c.is_ascii_digit())
    };
    if parts.len() >= 32 || !parts.iter().all(numbered) || m >> (2 * parts.len()) != 0 {
        return whole;
    }
    parts
        .iter()
        .enumerate()
        .filter(|(k, _)| (m >> (2 * k)) & 3 != 0)
        .map(|(_, p)| p.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::livein_names;

    // By hand, from LLVM's AMDGPU lane masks (two bits per dword, one per 16-bit half).
    #[test]
    fn a_lane_mask_names_the_dwords_it_covers() {
        assert_eq!(
            livein_names("$sgpr0_sgpr1_sgpr2_sgpr3:0x00000000000000F0"),
            ["sgpr2", "sgpr3"]
        );
        assert_eq!(livein_names("$sgpr0_sgpr1_sgpr2_sgpr3:0x30"), ["sgpr2"]);
        assert_eq!(livein_names("$vgpr4_vgpr5:0x0000000000000004"), ["vgpr5"]);
        assert_eq!(livein_names("$sgpr4_sgpr5"), ["sgpr4_sgpr5"]);
    }

    #[test]
    fn an_unexpected_mask_is_the_whole_register() {
        assert_eq!(livein_names("$vgpr0_vgpr1:0x10"), ["vgpr0_vgpr1"]);
        assert_eq!(livein_names("$vcc:0x3"), ["vcc"]);
        assert_eq!(livein_names("$sgpr0_sgpr1:zz"), ["sgpr0_sgpr1"]);
    }
}
