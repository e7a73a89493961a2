//! `--shard K/N`: which checks of a run one of N processes (machines, CI jobs) takes.
//!
//! A check belongs to shard `K` when its content hash (the result cache's key, BLAKE3 of the
//! rule's text, target, settings, semantics, tables and solver) is `K - 1` modulo `N`. So the
//! split is deterministic, independent of file order and of which other rules are present,
//! even (hashes are uniform), and a re-run of shard K checks exactly the checks it stored in a
//! shared cache before. Every shard of a run must come from the same build: the key covers
//! gcnsmt's and z3's versions, and `gcnsmt merge` refuses shards whose check lists differ.

/// One shard of `n`: `k` in `1..=n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, 1-based.
    pub k: u32,
    /// The number of shards, at least 1.
    pub n: u32,
}

impl Shard {
    /// Parse `K/N` (`1 <= K <= N`, N at most 65,536). Errors: the text says what is wrong.
    pub fn parse(s: &str) -> Result<Shard, String> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("`{s}`: give K/N, shard K of N (for example 2/4)"))?;
        let num = |x: &str| {
            x.trim()
                .parse::<u32>()
                .map_err(|_| format!("`{s}`: `{x}` is not a number"))
        };
        let (k, n) = (num(k)?, num(n)?);
        if n == 0 || n > 65_536 {
            return Err(format!("`{s}`: N must be 1 to 65536"));
        }
        if k == 0 || k > n {
            return Err(format!("`{s}`: K must be 1 to {n}"));
        }
        Ok(Shard { k, n })
    }

    /// Whether the check with cache key `key` (hex BLAKE3) is this shard's: its first 16 hex
    /// digits, as a number, modulo N. A key that is not hex (never made by the cache) is
    /// shard 1's.
    pub fn owns(&self, key: &str) -> bool {
        let v = key
            .get(..16)
            .and_then(|h| u64::from_str_radix(h, 16).ok())
            .unwrap_or(0);
        v % u64::from(self.n) == u64::from(self.k - 1)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

#[cfg(test)]
mod tests {
    use super::Shard;

    #[test]
    fn parse_and_own() {
        assert_eq!(Shard::parse("2/4"), Ok(Shard { k: 2, n: 4 }));
        for bad in ["0/4", "5/4", "1/0", "x/2", "3", "1/70000"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        // 0x...05 % 4 = 1: shard 2 of 4, and no other.
        let key = "0000000000000005ffff";
        let owners: Vec<u32> = (1..=4)
            .filter(|k| Shard { k: *k, n: 4 }.owns(key))
            .collect();
        assert_eq!(owners, vec![2]);
        assert!(Shard { k: 1, n: 1 }.owns(key));
    }
}
