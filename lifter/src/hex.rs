//! Hex dwords printed without `core::fmt`'s integer machinery: a rejected word's `.long`
//! text is most of what the decoder prints for random input, so this is its hot path.

use std::fmt;

/// Dwords as `0x%08x` separated by `, ` (llvm-mc's `.long` operands).
pub(crate) struct Dwords<'a>(pub &'a [u32]);

/// A byte as `0x%02x` (`{:#04x}`).
pub(crate) struct Byte(pub u8);

impl fmt::Display for Byte {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let h = [
            b'0',
            b'x',
            DIGITS[usize::from(self.0 >> 4)],
            DIGITS[usize::from(self.0 & 0xf)],
        ];
        f.write_str(std::str::from_utf8(&h).unwrap_or("0x??"))
    }
}

/// `0x` and the 8 lowercase hex digits of `w`.
fn hex32(w: u32) -> [u8; 10] {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = *b"0x00000000";
    for (i, b) in out[2..].iter_mut().enumerate() {
        *b = DIGITS[((w >> (28 - 4 * i)) & 0xf) as usize];
    }
    out
}

impl fmt::Display for Dwords<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, w) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            let h = hex32(*w);
            // Always ASCII; the fallback is never taken.
            f.write_str(std::str::from_utf8(&h).unwrap_or("0x????????"))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn as_format_prints() {
        for w in [0u32, 1, 0xdeadbeef, 0x0000_ff00, u32::MAX] {
            assert_eq!(super::Dwords(&[w]).to_string(), format!("{w:#010x}"));
        }
        assert_eq!(super::Dwords(&[1, 2]).to_string(), "0x00000001, 0x00000002");
        for b in [0u8, 9, 0x3a, 0xff] {
            assert_eq!(super::Byte(b).to_string(), format!("{b:#04x}"));
        }
    }
}
