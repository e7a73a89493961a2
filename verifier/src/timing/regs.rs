//! Registers named in LLVM-syntax AMDGPU assembly, as sets of register units (one per 32-bit
//! register), so that `v[4:7]` and `v5` overlap.

use std::fmt;

/// First unit of each register file.
const VGPR: u32 = 0;
const AGPR: u32 = 1024;
const SGPR: u32 = 2048;
const TTMP: u32 = 2304;
const SPECIAL: u32 = 2400;
/// The unit standing for the whole of LDS (docs/timing.md, "LDS hazards"): not a register,
/// but tracked like one so that an LDS-DMA load's asynchronous LDS write is a pending write.
pub const LDS_UNIT: u32 = 2500;

/// The special registers by name: (name, first unit, units).
const SPECIALS: &[(&str, u32, u32)] = &[
    ("vcc", SPECIAL, 2),
    ("vcc_lo", SPECIAL, 1),
    ("vcc_hi", SPECIAL + 1, 1),
    ("exec", SPECIAL + 2, 2),
    ("exec_lo", SPECIAL + 2, 1),
    ("exec_hi", SPECIAL + 3, 1),
    ("m0", SPECIAL + 4, 1),
    ("flat_scratch", SPECIAL + 5, 2),
    ("flat_scratch_lo", SPECIAL + 5, 1),
    ("flat_scratch_hi", SPECIAL + 6, 1),
    ("xnack_mask", SPECIAL + 7, 2),
    ("xnack_mask_lo", SPECIAL + 7, 1),
    ("xnack_mask_hi", SPECIAL + 8, 1),
    ("tba", SPECIAL + 9, 2),
    ("tma", SPECIAL + 11, 2),
    ("scc", SPECIAL + 13, 1),
];

/// A set of register units, as sorted disjoint half-open intervals.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct RegSet(Vec<(u32, u32)>);

impl RegSet {
    /// The empty set.
    pub fn new() -> Self {
        RegSet(Vec::new())
    }

    /// Every register (an access whose registers are not known).
    pub fn all() -> Self {
        RegSet(vec![(0, u32::MAX)])
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Add units `lo..hi`.
    pub fn add(&mut self, lo: u32, hi: u32) {
        if lo >= hi {
            return;
        }
        self.0.push((lo, hi));
        self.0.sort_unstable();
        let mut out: Vec<(u32, u32)> = Vec::with_capacity(self.0.len());
        for &(a, b) in &self.0 {
            match out.last_mut() {
                Some(last) if a <= last.1 => last.1 = last.1.max(b),
                _ => out.push((a, b)),
            }
        }
        self.0 = out;
    }

    /// Add every unit of `other`.
    pub fn union(&mut self, other: &RegSet) {
        for &(a, b) in &other.0 {
            self.add(a, b);
        }
    }

    /// The units in both.
    pub fn intersect(&self, other: &RegSet) -> RegSet {
        let mut out = RegSet::new();
        for &(a, b) in &self.0 {
            for &(c, d) in &other.0 {
                out.add(a.max(c), b.min(d));
            }
        }
        out
    }

    /// The units of `self` not in `other`.
    pub fn without(&self, other: &RegSet) -> RegSet {
        let mut out = RegSet::new();
        for &(a, b) in &self.0 {
            let mut lo = a;
            for &(c, d) in &other.0 {
                if d <= lo || c >= b {
                    continue;
                }
                out.add(lo, c.max(lo));
                lo = lo.max(d);
            }
            out.add(lo, b);
        }
        out
    }

    /// Whether the sets share a unit.
    pub fn overlaps(&self, other: &RegSet) -> bool {
        self.0
            .iter()
            .any(|&(a, b)| other.0.iter().any(|&(c, d)| a.max(c) < b.min(d)))
    }

    /// The LDS unit (never named in operands: `lds` there is a modifier).
    pub fn lds() -> RegSet {
        let mut r = RegSet::new();
        r.add(LDS_UNIT, LDS_UNIT + 1);
        r
    }

    /// The special register `name` (`vcc`, `exec`, `m0`, ...), if it is one.
    pub fn special(name: &str) -> Option<RegSet> {
        let &(_, lo, n) = SPECIALS.iter().find(|(s, _, _)| *s == name)?;
        let mut r = RegSet::new();
        r.add(lo, lo + n);
        Some(r)
    }
}

/// Print a unit range in assembly spelling.
fn unit_name(lo: u32, hi: u32) -> String {
    let file = |base: u32, p: &str| {
        let (a, b) = (lo - base, hi - base - 1);
        if a == b {
            format!("{p}{a}")
        } else {
            format!("{p}[{a}:{b}]")
        }
    };
    match lo {
        _ if hi == u32::MAX => "every register".to_string(),
        LDS_UNIT => "LDS".to_string(),
        l if l < AGPR => file(VGPR, "v"),
        l if l < SGPR => file(AGPR, "a"),
        l if l < TTMP => file(SGPR, "s"),
        l if l < SPECIAL => file(TTMP, "ttmp"),
        l => SPECIALS
            .iter()
            .find(|(_, s, n)| *s == l && s + n == hi)
            .map(|(name, _, _)| name.to_string())
            .unwrap_or_else(|| format!("special{l}")),
    }
}

impl fmt::Display for RegSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<String> = self.0.iter().map(|&(a, b)| unit_name(a, b)).collect();
        write!(f, "{}", names.join(", "))
    }
}

/// The registers named in `text` (one operand, or a whole operand list). Malformed
/// register syntax (`v[5:3]`, `v[4:`) is an error message.
pub fn parse_regs(text: &str) -> Result<RegSet, String> {
    let b = text.as_bytes();
    let mut out = RegSet::new();
    let mut i = 0;
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'.' || c == b'@';
    while i < b.len() {
        if !(b[i].is_ascii_alphabetic()) || (i > 0 && word(b[i - 1])) {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
            i += 1;
        }
        let name = &text[start..i];
        if let Some(r) = RegSet::special(name) {
            out.union(&r);
            continue;
        }
        let (prefix, base) = match name {
            n if n.starts_with("ttmp") => ("ttmp", TTMP),
            n if n.starts_with('v') => ("v", VGPR),
            n if n.starts_with('a') => ("a", AGPR),
            n if n.starts_with('s') => ("s", SGPR),
            _ => continue,
        };
        let digits = &name[prefix.len()..];
        if !digits.is_empty() {
            if let Ok(n) = digits.parse::<u32>() {
                out.add(base + n, base + n + 1);
            }
            continue;
        }
        if i < b.len() && b[i] == b'[' {
            let close = text[i..]
                .find(']')
                .ok_or_else(|| format!("unclosed register range `{}`", &text[start..]))?;
            let inner = &text[i + 1..i + close];
            let (lo, hi) = match inner.split_once(':') {
                Some((l, h)) => (l.trim().parse::<u32>(), h.trim().parse::<u32>()),
                None => (inner.trim().parse::<u32>(), inner.trim().parse::<u32>()),
            };
            match (lo, hi) {
                (Ok(l), Ok(h)) if l <= h && h < 1024 => out.add(base + l, base + h + 1),
                _ => return Err(format!("bad register range `{}`", &text[start..=i + close])),
            }
            i += close + 1;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tuples_overlap_their_members() {
        let a = parse_regs("v[4:7]").unwrap();
        assert!(a.overlaps(&parse_regs("v5").unwrap()));
        assert!(!a.overlaps(&parse_regs("v8, s4, a5").unwrap()));
        assert!(parse_regs("vcc")
            .unwrap()
            .overlaps(&parse_regs("vcc_hi").unwrap()));
        // Modifiers and counters are not registers.
        assert!(parse_regs("off glc sc0 vmcnt(0) offset:16 .LBB0_1")
            .unwrap()
            .is_empty());
        assert_eq!(
            parse_regs("-|v3|, s[0:1]").unwrap().to_string(),
            "v3, s[0:1]"
        );
        assert!(parse_regs("v[5:3]").is_err());
    }
}
