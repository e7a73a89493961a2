//! The access size a MUBUF load or store description states, against the mnemonic's: "Load
//! 16 bits ...", "Store a 32-bit value ...", "Load two dwords ...". Only a size right after
//! the sentence's opening verb is read (the words between may be an article and `signed`,
//! `unsigned`, `low`, `high`): a later number in the sentence may be an extension target
//! ("... zero-extend to 32 bits") or an address width, and is not read. Atomics (whose VDATA
//! also holds the compare value) and format conversions are not read.

/// Bytes a load or store of `name` (lower case) moves per lane, from the mnemonic (GCN and
/// RDNA spellings: `ubyte`/`u8`, `short`/`b16`, `dwordx3`/`b96`), or `None`.
pub(super) fn access_bytes(name: &str) -> Option<u32> {
    if !(name.starts_with("buffer_load_") || name.starts_with("buffer_store_"))
        || name.contains("format")
        || name.contains("lds")
        || name.contains("addtid")
    {
        return None;
    }
    let parts: Vec<&str> = name.split('_').skip(2).collect();
    let size = |p: &str| -> Option<u32> {
        Some(match p {
            "ubyte" | "sbyte" | "byte" | "u8" | "i8" | "b8" => 1,
            "ushort" | "sshort" | "short" | "u16" | "i16" | "b16" => 2,
            "dword" | "b32" => 4,
            "dwordx2" | "b64" => 8,
            "dwordx3" | "b96" => 12,
            "dwordx4" | "b128" => 16,
            _ => return None,
        })
    };
    let sizes: Vec<u32> = parts.iter().filter_map(|p| size(p)).collect();
    match sizes.as_slice() {
        [b] => Some(*b),
        _ => None,
    }
}

/// The size stated right after the opening verb of `sentence`, in bytes, and the words that
/// state it.
pub(super) fn stated(sentence: &str) -> Option<(u32, String)> {
    let re = regex::Regex::new(
        r"(?i)^(?:loads?|stores?|reads?|writes?) (?:(?:a|an|the|one|signed|unsigned|low|lower|high|higher|upper) )*(?:(\d+)[- ](bits?|bytes?)|(two|three|four) dwords)\b",
    )
    .expect("valid");
    let m = re.captures(sentence.trim())?;
    let bytes = match (m.get(1), m.get(2), m.get(3)) {
        (Some(n), Some(u), _) => {
            let n: u32 = n.as_str().parse().ok()?;
            if u.as_str().to_ascii_lowercase().starts_with("bit") {
                if !n.is_multiple_of(8) {
                    return None;
                }
                n / 8
            } else {
                n
            }
        }
        (_, _, Some(w)) => match w.as_str().to_ascii_lowercase().as_str() {
            "two" => 8,
            "three" => 12,
            _ => 16,
        },
        _ => return None,
    };
    Some((bytes, m[0].to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_from_names_and_words() {
        // Sizes by hand from the mnemonics (AMD: ubyte 8 bits, short 16, dwordx3 96).
        assert_eq!(access_bytes("buffer_load_ubyte"), Some(1));
        assert_eq!(access_bytes("buffer_store_short_d16_hi"), Some(2));
        assert_eq!(access_bytes("buffer_load_dwordx3"), Some(12));
        assert_eq!(access_bytes("buffer_load_d16_hi_u8"), Some(1));
        assert_eq!(access_bytes("buffer_atomic_add"), None);
        assert_eq!(access_bytes("buffer_load_format_x"), None);
        assert_eq!(
            stated("Load 16 bits of data, zero-extended to 32 bits")
                .unwrap()
                .0,
            2
        );
        assert_eq!(stated("Store two dwords from VDATA").unwrap().0, 8);
        assert_eq!(stated("Load the unsigned 8-bit value").unwrap().0, 1);
        assert!(stated("Load a value at the 32-bit address").is_none());
    }
}
